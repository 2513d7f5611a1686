// The online evaluation's claims (online_evaluation_runs) do not pile up for good: housekeeping deletes the
// finished ones past their organization's retention once their generation is gone, a batch at a time. The
// unfinished ones (the stale-claim sweep's, read through a partial index) and the recent ones stay.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { pruneExpired } from "./housekeeping.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const DAY = 24 * 60 * 60_000;

describe("housekeeping of online evaluation claims", () => {
  it("deletes finished claims past the organization's retention whose generation is gone; keeps recent, unfinished and still-stored ones", async () => {
    const db = h.database.db;
    const now = h.clock.now();
    const ago = (days: number) => new Date(now.getTime() - days * DAY);
    const organization = await db.organization.create({ data: { name: "Keeps 7 days", generationRetentionDays: 7 } });
    const team = await db.team.create({ data: { name: "Judged", organizationId: organization.id } });
    const prompt = await db.prompt.create({
      data: { organizationId: organization.id, teamId: team.id, name: "judged", title: "Judged", visibility: "team", latestVersion: 1 },
    });
    // One generation still stored (started in the future, as a skewed clock may send): its claim keeps it from a second judging.
    const [stored] = await db.$queryRaw<{ id: string }[]>`
      INSERT INTO generations (organization_id, team_id, prompt_name, observation_id, source, started_at, status)
      VALUES (${organization.id}::uuid, ${team.id}::uuid, 'judged', 'still-stored', 'api', ${new Date(now.getTime() + DAY)}, 'ok') RETURNING id::text`;
    const claims: { name: string; status: string; createdDaysAgo: number; finishedDaysAgo: number | null; generationId?: string }[] = [
      { name: "done-old", status: "done", createdDaysAgo: 10, finishedDaysAgo: 10 },
      { name: "skipped-old", status: "skipped", createdDaysAgo: 9, finishedDaysAgo: 8 },
      { name: "done-recent", status: "done", createdDaysAgo: 2, finishedDaysAgo: 2 },
      { name: "done-finished-recently", status: "done", createdDaysAgo: 10, finishedDaysAgo: 1 },
      { name: "queued-old", status: "queued", createdDaysAgo: 10, finishedDaysAgo: null },
      { name: "judging-old", status: "judging", createdDaysAgo: 10, finishedDaysAgo: null },
      { name: "judged-old", status: "judged", createdDaysAgo: 10, finishedDaysAgo: null },
      { name: "done-old-still-stored", status: "done", createdDaysAgo: 10, finishedDaysAgo: 10, generationId: stored!.id },
    ];
    const ids = new Map<string, string>();
    for (const claim of claims) {
      const id = claim.generationId ?? crypto.randomUUID();
      ids.set(id, claim.name);
      await db.onlineEvaluationRun.create({
        data: {
          generationId: id, promptId: prompt.id, day: ago(claim.createdDaysAgo), status: claim.status,
          createdAt: ago(claim.createdDaysAgo), finishedAt: claim.finishedDaysAgo === null ? null : ago(claim.finishedDaysAgo),
        },
      });
    }
    const left = async () => (await db.onlineEvaluationRun.findMany({ select: { generationId: true } })).map((row) => ids.get(row.generationId)).sort();

    // A batch of 1: the two are deleted over several transactions, all in the one run.
    expect((await pruneExpired(db, now, { retentionBatch: 1 })).onlineClaims).toBe(2);
    expect(await left()).toEqual(["done-finished-recently", "done-old-still-stored", "done-recent", "judged-old", "judging-old", "queued-old"]);

    // The stale-claim sweep's condition reads the partial index of unfinished claims.
    const [index] = await db.$queryRaw<{ definition: string }[]>`
      SELECT pg_get_indexdef(indexrelid) AS definition FROM pg_index WHERE indexrelid = 'online_evaluation_runs_unfinished_idx'::regclass`;
    expect(index!.definition).toContain("(created_at) WHERE (status <> ALL (ARRAY['done'::text, 'skipped'::text]))");
  });
});
