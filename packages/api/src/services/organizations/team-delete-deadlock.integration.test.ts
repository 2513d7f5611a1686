// A team (or its organization) deleted while a merge of production data writes one of its generations. The
// merge deletes the stored row and writes it back (its foreign keys then take the team's and the
// organization's rows shared); the delete takes its team's or organization's row first, then its cascade
// deletes the generations. Each waits on the other: PostgreSQL ends one of them as deadlocked, most often the
// delete (it waited first, so it looks first). The admin was answered an internal error; the delete now
// tries again.
// A team (or its organization) deleted while an admin moves `production` of one of its prompts directly: the
// move holds its prompt's row, then reads the team's review rule holding the team's row FOR SHARE (and does
// not run again). The delete takes the prompts before the team's row, so it waits for the move instead of
// deadlocking with it.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mergeAcrossTheDelete } from "../../../testing/deadlock-support.ts";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld, createPrompt, promptName } from "../../../testing/prompts-support.ts";
import { someoneWaits } from "../../../testing/review-race-support.ts";
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

const deletes: [string, string, (space: { organizationId: string; team: { id: string } }) => Promise<unknown>][] = [
  ["the team deleted by its admin", `DELETE FROM "public"."teams"`, (space) => world.callers.admin.teams.delete({ id: space.team.id })],
  ["its organization deleted by a super user", `DELETE FROM "public"."organizations"`, (space) => world.callers.superUser.organizations.delete({ id: space.organizationId })],
];

describe("a team deleted while a merge writes one of its generations", () => {
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

    const outcome = await mergeAcrossTheDelete(h.database.url, space.team.id, observationId, statement, () => remove(space));
    // PostgreSQL ended the delete (deadlock_support makes it the one that looks): it ran again, after the merge's write.
    expect(outcome.removed).toBe("deleted");
    expect(outcome.written).toBe("written");
    expect(await h.database.db.team.findUnique({ where: { id: space.team.id } })).toBeNull();
    expect(await h.database.db.prompt.findUnique({ where: { id: prompt.id } })).toBeNull();
    expect(await generationsOf(space.team.id)).toBe(0);
  });
});

describe("a team deleted while production of one of its prompts is moved directly", () => {
  it.each(deletes)("%s: the delete waits for the move, which reads the team's rule and commits; then the team goes", async (_, __, remove) => {
    const space = await world.space();
    const prompt = await createPrompt(world.callers.admin, space.team.id, { visibility: "team", name: promptName("moving") });
    const move = new pg.Client({ connectionString: h.database.url, application_name: "moving" });
    await move.connect();
    try {
      // This side looks for a deadlock first (the delete after the server's 1 s): were there one, the move is
      // the one ended, as it would be answered an internal error.
      await move.query("SET deadlock_timeout = '10ms'");
      await move.query("BEGIN");
      const [{ pid }] = (await move.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows as [{ pid: number }];
      // The move's first statement (touchLivePrompt): its prompt's row.
      await move.query("UPDATE prompts SET updated_at = now() WHERE id = $1 AND archived_at IS NULL", [prompt.id]);
      let settled = false;
      const removed = remove(space).then(() => "deleted", (error: unknown) => error).finally(() => (settled = true));
      await vi.waitFor(
        async () => expect(settled || (await someoneWaits(h.database.db, pid))).toBe(true),
        { timeout: 20_000, interval: 20 },
      );
      expect(settled).toBe(false);
      // Then the team's review rule, as requiredApprovalsHeld reads it.
      const read = await move.query("SELECT required_approvals FROM teams WHERE id = $1 FOR SHARE", [space.team.id]).then(
        (result) => result.rowCount,
        (error: { code?: string }) => error.code,
      );
      await move.query(read === 1 ? "COMMIT" : "ROLLBACK");
      expect(read).toBe(1);
      expect(await removed).toBe("deleted");
    } finally {
      await move.end();
    }
    expect(await h.database.db.team.findUnique({ where: { id: space.team.id } })).toBeNull();
    expect(await h.database.db.prompt.findUnique({ where: { id: prompt.id } })).toBeNull();
  });
});
