// A merge of production data racing a delete, as the deadlock tests stage it: a raw connection holds a stored
// generation as a merge does (deleted, to be written back), the delete starts and waits on it, then the
// connection writes the generation back, whose foreign keys wait on the row the delete holds.
import pg from "pg";
import { expect } from "vitest";
import type { Db } from "@promptly/db";

/**
 * How many statements of this test's database wait for the two-key advisory lock (`gate`, 0) a test holds
 * to keep some write waiting (a trigger takes it) until it lets it go: pg_locks shows every database's.
 */
export const waitingAtGate = async (db: Db, gate: number) =>
  (await db.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM pg_locks
     WHERE locktype = 'advisory' AND NOT granted AND classid = ${gate}::oid AND objid = 0 AND objsubid = 2
       AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`)[0]!.n;

/**
 * Holds the team's generation `observationId` until the delete waits on a lock in a statement like
 * `statement` (this database's backends only), then writes it back: whether that was written (or the code
 * PostgreSQL ended it with) and how the delete ended ("deleted", or its error).
 */
export async function mergeAcrossTheDelete(databaseUrl: string, teamId: string, observationId: string, statement: string, remove: () => Promise<unknown>) {
  const merge = new pg.Client({ connectionString: databaseUrl, application_name: "merging" });
  const watcher = new pg.Client({ connectionString: databaseUrl });
  await Promise.all([merge.connect(), watcher.connect()]);
  try {
    // This side looks for a deadlock only after 30 s, the delete after the server's 1 s: PostgreSQL always ends
    // the delete, so the test sees its retry every time (not only when the delete happens to look first).
    await merge.query("SET deadlock_timeout = '30s'");
    await merge.query("BEGIN");
    const { rows } = await merge.query(`DELETE FROM generations WHERE team_id = $1 AND observation_id = $2 RETURNING *`, [teamId, observationId]);
    expect(rows).toHaveLength(1);
    let settled = false;
    const removed = remove().then(() => "deleted", (error: unknown) => error).finally(() => (settled = true));
    const deadline = Date.now() + 20_000;
    while (!settled) {
      if (Date.now() > deadline) throw new Error(`the delete never waited on a lock in a statement like ${statement}`);
      const { rows: waiting } = await watcher.query(
        `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE $1`,
        [`%${statement}%`],
      );
      if (waiting.length) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // Written back: its foreign key waits on the row the delete holds, and one of the two is ended as deadlocked.
    const row = rows[0] as Record<string, unknown>;
    const columns = Object.keys(row);
    const written = await merge
      .query(`INSERT INTO generations (${columns.join(", ")}) VALUES (${columns.map((_, index) => `$${index + 1}`).join(", ")})`, columns.map((column) => row[column]))
      .then(() => merge.query("COMMIT"))
      .then(() => "written", async (error: { code?: string }) => {
        await merge.query("ROLLBACK");
        return error.code;
      });
    return { written, removed: await removed };
  } finally {
    await Promise.all([merge.end(), watcher.end()]);
  }
}
