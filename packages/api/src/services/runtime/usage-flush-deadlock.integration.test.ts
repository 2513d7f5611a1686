// Two processes flushing their usage counts of the same prompts at once. Each flush writes its prompt_usage
// rows, and a trigger then adds each to its prompt_usage_daily row (prompt, day, label), in the statement's
// order. In first-use order, one process took prompt A's daily row then waited on B's while the other held B's
// and waited on A's: PostgreSQL ended one as deadlocked (its counts put back for the next flush). Flushed in
// one order (by prompt, day, label), the second waits for the first and both pass.
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createDb, type Db } from "@promptly/db";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld, createPrompt } from "../../../testing/prompts-support.ts";
import { RuntimeCache } from "./runtime-cache.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createLibraryWorld>>;
let flushing: Db;

beforeAll(async () => {
  h = await createHarness();
  world = await createLibraryWorld(h);
  // The plan production's large tables get: the counts read in their order, each looked up by index. On
  // this small database a hash join would hand the rows on in the tables' order, the same for both flushes.
  const url = new URL(h.database.url);
  url.searchParams.set("options", "-c enable_hashjoin=off -c enable_mergejoin=off");
  flushing = createDb({ url: url.toString() });
});
afterAll(async () => {
  await flushing.$disconnect();
  await h.close();
});

const now = new Date("2026-12-01T12:00:00Z");
const day = "2026-12-01";

it("two processes flushing the same prompts' counts, first used in opposite orders, both pass", async () => {
  const team = await world.team();
  const [a, b, x, y] = await Promise.all(["a", "b", "x", "y"].map((name) => createPrompt(world.callers.admin, team.id, { visibility: "team", name: `usage-${name}` })));
  const key = (name: string) => world.callers.admin.apiKeys.create({ teamId: team.id, name, scopes: ["read"] });
  const [first, second] = [await key("First"), await key("Second")];
  // The first process used A, then X, then B; the second B, then Y, then A.
  const processes = [new RuntimeCache(), new RuntimeCache()];
  for (const prompt of [a, x, b]) processes[0]!.countUse(prompt!.id, 1, first.id, "production", now);
  for (const prompt of [b, y, a]) processes[1]!.countUse(prompt!.id, 1, second.id, "production", now);

  // Another writer holds X's and Y's daily rows, so each flush waits with the rows before them in its order taken.
  const holder = new pg.Client({ connectionString: h.database.url });
  const watcher = new pg.Client({ connectionString: h.database.url });
  await Promise.all([holder.connect(), watcher.connect()]);
  try {
    await holder.query("BEGIN");
    await holder.query(`INSERT INTO prompt_usage_daily (prompt_id, day, label, count) VALUES ($1, $3, 'production', 0), ($2, $3, 'production', 0)`, [x!.id, y!.id, day]);
    const flushes = processes.map((process) => process.flushUsage(flushing).then(() => "flushed", (error: unknown) => error));
    const deadline = Date.now() + 20_000;
    for (;;) {
      if (Date.now() > deadline) throw new Error(`the two flushes never both waited on a lock: ${String(await Promise.race([...flushes, "still running"]))}`);
      const { rows } = await watcher.query(`
        SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%INSERT INTO prompt_usage %'`);
      if (rows[0].n === 2) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await holder.query("COMMIT");
    expect(await Promise.all(flushes)).toEqual(["flushed", "flushed"]);
  } finally {
    await Promise.all([holder.end(), watcher.end()]);
  }
  const daily = await h.database.db.$queryRaw<{ prompt_id: string; count: number }[]>`
    SELECT prompt_id::text, count::int FROM prompt_usage_daily WHERE day = ${day}::date AND label = 'production'`;
  expect(Object.fromEntries(daily.map((row) => [row.prompt_id, row.count]))).toEqual({ [a!.id]: 2, [b!.id]: 2, [x!.id]: 1, [y!.id]: 1 });
});
