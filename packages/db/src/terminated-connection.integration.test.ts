// A connection whose backend goes away while it is checked out of the pool (terminated by an
// administrator, or the server restarting) fails the work on it with an error; the process does not
// crash, the pool discards that connection, and the next statements run on a new one.
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { Prisma, createDb, hotQuery, rawTransaction, type Db } from "./index.ts";
import { createTestDatabase, type TestDatabase } from "../testing/database.ts";

let database: TestDatabase;
let db: Db;
let admin: pg.Client;
const warnings: string[] = [];
const uncaught: unknown[] = [];
const onUncaught = (error: unknown) => uncaught.push(error);

beforeAll(async () => {
  database = await createTestDatabase(inject("databaseServerUrl"));
  // One connection: a statement that runs after the failure runs on a connection the pool opened anew.
  db = createDb({ url: database.url, max: 1, warn: (line) => warnings.push(line) });
  admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  process.on("uncaughtException", onUncaught);
});
afterEach(() => {
  warnings.length = 0;
  uncaught.length = 0;
});
afterAll(async () => {
  process.off("uncaughtException", onUncaught);
  await admin?.end();
  await db?.$disconnect();
  await database?.drop();
});

/** The pid of the one backend of this test's database in `state` whose statement holds `marker`, once there is one. */
function backendOf(marker: string, state: "active" | "idle in transaction"): Promise<number> {
  return vi.waitFor(
    async () => {
      const { rows } = await admin.query<{ pid: number }>(
        "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND state = $2 AND query LIKE $3 AND pid <> pg_backend_pid()",
        [database.name, state, `%${marker}%`],
      );
      if (rows.length !== 1) throw new Error(`no backend of ${database.name} is ${state} with ${marker}`);
      return rows[0]!.pid;
    },
    { timeout: 10_000, interval: 20 },
  );
}

async function terminate(pid: number) {
  const { rows } = await admin.query<{ done: boolean }>("SELECT pg_terminate_backend($1) AS done", [pid]);
  expect(rows[0]!.done).toBe(true);
}

/** Waits until the lost connection's error event was heard: by the pool's listener (a warning) or by nobody (an uncaught exception). */
async function errorEventHeard() {
  await vi.waitFor(() => expect(warnings.length + uncaught.length).toBeGreaterThan(0), { timeout: 10_000, interval: 10 });
}

/** The pool serves again: a raw transaction, a hot query and a Prisma query each run. */
async function poolServes(terminated: number) {
  const pids = await rawTransaction(db, (tx) => tx.query<{ pid: number }>(Prisma.sql`SELECT pg_backend_pid() AS pid`));
  expect(pids[0]!.pid).not.toBe(terminated);
  expect(await hotQuery<{ one: number }>(db, Prisma.sql`SELECT 1 AS one`)).toEqual([{ one: 1 }]);
  expect(await db.$queryRaw<{ one: number }[]>`SELECT 1::int AS one`).toEqual([{ one: 1 }]);
}

describe("a checked-out connection whose backend is terminated", () => {
  it("fails rawTransaction's statement in flight, and the process goes on", async () => {
    const work = rawTransaction(db, (tx) => tx.query(Prisma.sql`SELECT pg_sleep(60), 'raw in flight' AS marker`));
    const failed = work.then(
      () => null,
      (error: unknown) => error as Error,
    );
    const pid = await backendOf("raw in flight", "active");
    await terminate(pid);
    const error = await failed;
    expect(error?.message).toMatch(/terminat/i);
    await errorEventHeard();
    expect(uncaught).toEqual([]);
    expect(warnings.some((line) => /database connection lost/.test(line))).toBe(true);
    await poolServes(pid);
  });

  it("fails a raw transaction that holds an advisory lock between statements, and the lock is free again", async () => {
    let proceed!: () => void;
    const resume = new Promise<void>((resolve) => (proceed = resolve));
    const work = rawTransaction(db, async (tx) => {
      await tx.query(Prisma.sql`SELECT pg_advisory_xact_lock(4242), 'lock holder' AS marker`);
      await resume;
      return tx.query(Prisma.sql`SELECT 1 AS one`);
    });
    const failed = work.then(
      () => null,
      (error: unknown) => error as Error,
    );
    const pid = await backendOf("lock holder", "idle in transaction");
    await terminate(pid);
    await errorEventHeard();
    proceed();
    expect(await failed).toBeInstanceOf(Error);
    expect(uncaught).toEqual([]);
    const { rows } = await admin.query<{ taken: boolean }>("SELECT pg_try_advisory_lock(4242) AS taken");
    expect(rows[0]!.taken).toBe(true);
    await admin.query("SELECT pg_advisory_unlock(4242)");
    await poolServes(pid);
  });

  it("fails a Prisma interactive transaction, and the process goes on", async () => {
    const work = db.$transaction(async (tx) => tx.$queryRaw`SELECT pg_sleep(60), 'prisma in flight' AS marker`, { timeout: 30_000 });
    const failed = work.then(
      () => null,
      (error: unknown) => error as Error,
    );
    const pid = await backendOf("prisma in flight", "active");
    await terminate(pid);
    expect(await failed).toBeInstanceOf(Error);
    await poolServes(pid);
    // The adapter listens to its transaction's connection itself; the pool's listener tells of the loss too.
    await vi.waitFor(() => expect(warnings).toContainEqual(expect.stringMatching(/database connection lost/)), { timeout: 10_000, interval: 10 });
    expect(uncaught).toEqual([]);
  });
});
