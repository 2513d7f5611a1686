// avatarUrl has two writings, JavaScript's for answers built from objects and SQL's for the lists
// PostgreSQL writes or reads whole (the members' lists): both give every key the same URL.
import { afterAll, beforeAll, expect, it } from "vitest";
import { Prisma } from "@promptly/db";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { avatarUrl, avatarUrlSql } from "./account.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

it.each([["no avatar", null], ["an emptied avatar", ""], ["a stored avatar", "avatars/ada-1.png"]])("%s: avatarUrlSql gives avatarUrl's URL", async (_name, key) => {
  const [row] = await h.database.db.$queryRaw<{ url: string | null }[]>`SELECT ${avatarUrlSql(Prisma.sql`${key}::text`)} AS url`;
  expect(row!.url).toBe(avatarUrl(key));
});
