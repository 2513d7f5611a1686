// Emailed links: a new one revokes the older ones, also when several are asked for at the same time.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { consumeToken, issueToken } from "./tokens.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

describe("issueToken", () => {
  it("leaves exactly one live link when many are issued at once, and it is one of those handed out", async () => {
    const db = h.database.db;
    for (let round = 0; round < 5; round++) {
      const user = await db.user.create({ data: { email: `links-${round}@example.test` } });
      const issue = () => issueToken(db, { userId: user.id, purpose: "magic_link", ttlMs: 60_000, now: h.clock.now() });
      const tokens = await Promise.all(Array.from({ length: 8 }, issue));
      expect(await db.oneTimeToken.count({ where: { userId: user.id, purpose: "magic_link", usedAt: null } })).toBe(1);
      const working = [];
      for (const token of tokens) if (await consumeToken(db, "magic_link", token, h.clock.now())) working.push(token);
      expect(working).toHaveLength(1);
    }
  });
});
