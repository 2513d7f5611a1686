// A team (or its organization) deleted while a merge of production data writes one of its generations. The
// merge deletes the stored row and writes it back (its foreign keys then take the team's and the
// organization's rows shared); the delete takes its team's or organization's row first, then its cascade
// deletes the generations. Each waits on the other: PostgreSQL ends one of them as deadlocked, most often the
// delete (it waited first, so it looks first). The admin was answered an internal error; the delete now
// tries again.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld, createPrompt, promptName } from "../../../testing/prompts-support.ts";
import { ingestProduction } from "../production/ingest.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createLibraryWorld>>;

beforeAll(async () => {
  h = await createHarness();
  world = await createLibraryWorld(h);
});
afterAll(() => h.close());

const generationsOf = async (teamId: string) =>
  (await h.database.db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM generations WHERE team_id = ${teamId}::uuid`)[0]!.n;

/** Holds a generation of the team as a merge does, until the delete (`statement`) waits on it; then writes it back. */
async function mergeAcrossTheDelete(teamId: string, observationId: string, statement: string, remove: () => Promise<unknown>) {
  const merge = new pg.Client({ connectionString: h.database.url, application_name: "merging" });
  const watcher = new pg.Client({ connectionString: h.database.url });
  await Promise.all([merge.connect(), watcher.connect()]);
  try {
    await merge.query("BEGIN");
    const { rows } = await merge.query(`DELETE FROM generations WHERE team_id = $1 AND observation_id = $2 RETURNING *`, [teamId, observationId]);
    expect(rows).toHaveLength(1);
    let settled = false;
    const removed = remove().then(() => "deleted", (error: unknown) => error).finally(() => (settled = true));
    // The delete has the team's (or organization's) row and its cascade waits on the generation's (this database's backends only).
    while (!settled) {
      const { rows: waiting } = await watcher.query(
        `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE $1`,
        [`%${statement}%`],
      );
      if (waiting.length) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // The merge writes it back: its foreign key waits on the deleted row, and one of the two is ended as deadlocked.
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

describe("a team deleted while a merge writes one of its generations", () => {
  const deletes: [string, string, (space: { organizationId: string; team: { id: string } }) => Promise<unknown>][] = [
    ["the team deleted by its admin", `DELETE FROM "public"."teams"`, (space) => world.callers.admin.teams.delete({ id: space.team.id })],
    ["its organization deleted by a super user", `DELETE FROM "public"."organizations"`, (space) => world.callers.superUser.organizations.delete({ id: space.organizationId })],
  ];

  it.each(deletes)("%s: the delete goes through, and takes the generation the merge wrote meanwhile", async (_, statement, remove) => {
    const space = await world.space();
    const name = promptName("deadlock");
    const prompt = await createPrompt(world.callers.admin, space.team.id, { visibility: "team", name });
    const observationId = `deadlock-${name}`;
    await ingestProduction(h.database.db, await world.ingestKey(space.team.id), space.team.id, {
      generations: [{ observationId, source: "langfuse", seenAt: new Date(), promptName: name, version: 1, startedAt: new Date() }],
      scores: [],
    });
    expect(await generationsOf(space.team.id)).toBe(1);

    const outcome = await mergeAcrossTheDelete(space.team.id, observationId, statement, () => remove(space));
    // Whichever PostgreSQL ended, the merge (which tries again by itself) or neither: the delete is done.
    expect(outcome.removed).toBe("deleted");
    expect(["written", "40P01"]).toContain(outcome.written);
    expect(await h.database.db.team.findUnique({ where: { id: space.team.id } })).toBeNull();
    expect(await h.database.db.prompt.findUnique({ where: { id: prompt.id } })).toBeNull();
    expect(await generationsOf(space.team.id)).toBe(0);
  });
});
