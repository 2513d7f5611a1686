// The client names its statements: PostgreSQL prepares each once per connection and reuses it,
// for Prisma's own queries and raw ones alike, and answers stay the same on reuse.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDb, type Db } from "./index.ts";
import { createTestDatabase, type TestDatabase } from "../testing/database.ts";

let database: TestDatabase;
let db: Db;

beforeAll(async () => {
  database = await createTestDatabase(inject("databaseServerUrl"));
  // One connection: the statements listed are those of the connection that ran the queries.
  db = createDb({ url: database.url, max: 1 });
});
afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

const prepared = () =>
  db.$queryRaw<{ name: string; statement: string }[]>`SELECT name, statement FROM pg_prepared_statements WHERE name LIKE 'p\\_%'`;

describe("prepared statements", () => {
  it("a raw query and a Prisma query are each prepared once, then reused with new parameters", async () => {
    const emails = ["ada@example.test", "grace@example.test"];
    for (const email of emails) await db.user.create({ data: { email }, select: { id: true } });
    const found: string[] = [];
    for (const email of [...emails, ...emails]) {
      const rows = await db.$queryRaw<{ email: string }[]>`SELECT email FROM users WHERE email = ${email}`;
      found.push(rows[0]!.email);
    }
    expect(found).toEqual([...emails, ...emails]);
    const counted = await db.user.count({ where: { email: { in: emails } } });
    expect(counted).toBe(2);

    const statements = await prepared();
    const rawLookups = statements.filter((s) => s.statement.includes("SELECT email FROM users WHERE email ="));
    expect(rawLookups).toHaveLength(1);
    expect(statements.some((s) => /^INSERT INTO "public"\."users"/i.test(s.statement))).toBe(true);
    expect(statements.every((s) => /^p_[0-9a-f]{40}$/.test(s.name))).toBe(true);
  });
});
