// A COPY whose connection is lost before PostgreSQL answers it (its backend terminated while it waits
// for a lock, the server restarting) fails rawTransaction with the error, as any statement does: it
// does not wait for a ReadyForQuery that a closed connection never sends, which left the transaction
// (and whatever awaited it: an ingestion's write or merge) pending forever.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { Prisma, createDb, rawTransaction, type Db } from "./index.ts";
import { createTestDatabase, type TestDatabase } from "../testing/database.ts";

let database: TestDatabase;
let db: Db;
let admin: pg.Client;
/** Holds the table's lock (its own session: pg_stat_activity reads as of a transaction's first look). */
let locker: pg.Client;
const uncaught: unknown[] = [];
const onUncaught = (error: unknown) => uncaught.push(error);

beforeAll(async () => {
  database = await createTestDatabase(inject("databaseServerUrl"));
  db = createDb({ url: database.url, max: 1, warn: () => undefined });
  admin = new pg.Client({ connectionString: database.url });
  locker = new pg.Client({ connectionString: database.url });
  await Promise.all([admin.connect(), locker.connect()]);
  await admin.query("CREATE TABLE copy_target (note text)");
  process.on("uncaughtException", onUncaught);
});
afterAll(async () => {
  process.off("uncaughtException", onUncaught);
  await admin?.end();
  await locker?.end();
  await db?.$disconnect();
  await database?.drop();
});

describe("rawTransaction's COPY", () => {
  it("fails when its backend is terminated before the COPY is answered, and the pool serves again", async () => {
    // The table locked by another session: the COPY waits for the lock, before PostgreSQL asks for its rows.
    await locker.query("BEGIN; LOCK TABLE copy_target IN ACCESS EXCLUSIVE MODE");
    const failed = rawTransaction(db, (tx) => tx.copy("copy_target", ["note"], "lost\n")).then(
      () => null,
      (error: unknown) => error as Error,
    );
    const pid = await vi.waitFor(
      async () => {
        const { rows } = await admin.query<{ pid: number }>(
          "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock' AND query LIKE 'COPY copy_target%'",
          [database.name],
        );
        if (rows.length !== 1) throw new Error("the COPY is not waiting for the lock yet");
        return rows[0]!.pid;
      },
      { timeout: 10_000, interval: 20 },
    );
    await admin.query("SELECT pg_terminate_backend($1)", [pid]);
    expect((await failed)?.message).toMatch(/terminat/i);
    await locker.query("ROLLBACK");
    expect(uncaught).toEqual([]);
    // The next COPY runs on a new connection and commits.
    await rawTransaction(db, (tx) => tx.copy("copy_target", ["note"], "kept\n"));
    expect(await rawTransaction(db, (tx) => tx.query<{ note: string }>(Prisma.sql`SELECT note FROM copy_target`))).toEqual([{ note: "kept" }]);
  }, 15_000);

  it("fails on a row PostgreSQL refuses, rolls back, and the same connection serves the next one", async () => {
    await admin.query("CREATE TABLE copy_numbers (n int)");
    const pid = async () => (await rawTransaction(db, (tx) => tx.query<{ pid: number }>(Prisma.sql`SELECT pg_backend_pid() AS pid`)))[0]!.pid;
    const before = await pid();
    await expect(rawTransaction(db, (tx) => tx.copy("copy_numbers", ["n"], "1\nnot a number\n"))).rejects.toThrow(/invalid input syntax/);
    await rawTransaction(db, (tx) => tx.copy("copy_numbers", ["n"], "2\n"));
    expect(await rawTransaction(db, (tx) => tx.query<{ n: number }>(Prisma.sql`SELECT n FROM copy_numbers`))).toEqual([{ n: 2 }]);
    expect(await pid()).toBe(before);
  });
});
