// The client names its statements: PostgreSQL prepares each once per connection and reuses it,
// for Prisma's own queries and raw ones alike, and answers stay the same on reuse.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Prisma, createDb, rawTransaction, type Db } from "./index.ts";
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

  it("a raw transaction's statement is prepared once; one whose answer a migration changed is refused once, then prepared anew on another connection", async () => {
    await db.$executeRawUnsafe(`CREATE TABLE raw_plans (id int PRIMARY KEY, amount int NOT NULL)`);
    await db.$executeRawUnsafe(`INSERT INTO raw_plans VALUES (1, 7)`);
    const read = () => rawTransaction(db, (tx) => tx.query<{ amount: unknown }>(Prisma.sql`SELECT amount FROM raw_plans WHERE id = ${1}`));
    expect(await read()).toEqual([{ amount: 7 }]);
    expect(await read()).toEqual([{ amount: 7 }]);
    const named = await db.$queryRaw<{ name: string }[]>`SELECT name FROM pg_prepared_statements WHERE statement LIKE 'SELECT amount FROM raw_plans%'`;
    expect(named.map((row) => row.name)).toEqual([expect.stringMatching(/^r_[0-9a-f]{40}$/)]);
    // A statement without parameters may hold several commands: run as such, not prepared.
    await rawTransaction(db, (tx) => tx.query(Prisma.raw(`UPDATE raw_plans SET amount = 8; UPDATE raw_plans SET amount = amount + 1`)));

    await db.$executeRawUnsafe(`ALTER TABLE raw_plans ALTER COLUMN amount TYPE text`);
    // The one connection prepared it while amount was an int: PostgreSQL refuses it there, once.
    await expect(read()).rejects.toMatchObject({ code: "0A000" });
    expect(await read()).toEqual([{ amount: "9" }]);
  });
});
