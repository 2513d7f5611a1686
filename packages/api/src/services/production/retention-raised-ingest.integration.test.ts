// Raising an organization's retention does not let a generation housekeeping already deleted (row by row,
// or with its month's partition) be written again: its part of the rollups was kept, so one sent again (an
// exporter's retry, a re-import) would be counted twice. Housekeeping records the latest start it pruned
// before (organizations.generations_pruned_before) and ingest keeps no generation not stored older than that.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld, createPrompt } from "../../../testing/prompts-support.ts";
import { pruneExpired } from "../platform/housekeeping.ts";
import { ingestProduction, type GenerationPatch } from "./ingest.ts";

const DAY = 24 * 60 * 60_000;

let h: Harness;
let world: Awaited<ReturnType<typeof createLibraryWorld>>;

const db = () => h.database.db;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY);

beforeAll(async () => {
  h = await createHarness();
  world = await createLibraryWorld(h);
});
afterAll(() => h.close());

/** A fresh organization with a team, its ingest key and a prompt, and what the tests read of them. */
async function organization(name: string) {
  const { organizationId, team } = await world.space(name);
  const key = await world.ingestKey(team.id);
  const prompt = await createPrompt(world.callers.editor, team.id, { visibility: "team" });
  const event = (observationId: string, startedAt: Date): GenerationPatch => ({
    observationId, source: "otel", promptName: prompt.name, version: 1, seenAt: new Date(), startedAt, inputTokens: 10, outputTokens: 5,
  });
  return {
    organizationId,
    setRetention: (days: number) => db().organization.update({ where: { id: organizationId }, data: { generationRetentionDays: days } }),
    send: (...events: GenerationPatch[]) => ingestProduction(db(), key, team.id, { generations: events, scores: [] }),
    event,
    stored: async (observationId: string) =>
      (await db().$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM generations WHERE team_id = ${team.id}::uuid AND observation_id = ${observationId}`)[0]!.n,
    rolledUp: async () => ({
      hourly: (await db().$queryRaw<{ n: number }[]>`SELECT coalesce(sum(generations), 0)::int AS n FROM generation_rollups WHERE prompt_id = ${prompt.id}::uuid`)[0]!.n,
      daily: (await db().$queryRaw<{ n: number }[]>`SELECT coalesce(sum(generations), 0)::int AS n FROM generation_rollups_daily WHERE prompt_id = ${prompt.id}::uuid`)[0]!.n,
    }),
    prunedBefore: async () => (await db().organization.findUniqueOrThrow({ where: { id: organizationId }, select: { generationsPrunedBefore: true } })).generationsPrunedBefore,
  };
}

describe("an organization's retention lowered, its generations pruned, then raised again", () => {
  it("a generation deleted row by row and sent again is not written again nor counted twice", async () => {
    const org = await organization("Lowers then raises");
    expect(await org.prunedBefore()).toBeNull();
    const old = org.event("day-40", daysAgo(40));
    expect((await org.send(old)).generations).toBe(1);
    expect(await org.rolledUp()).toEqual({ hourly: 1, daily: 1 });

    // 90 days to 7: housekeeping deletes the row, its part of the rollups stays.
    await org.setRetention(7);
    const now = new Date();
    expect((await pruneExpired(db(), now)).generations).toBeGreaterThanOrEqual(1);
    expect(await org.stored("day-40")).toBe(0);
    expect(await org.prunedBefore()).toEqual(new Date(now.getTime() - 7 * DAY));

    // Back to 90 days: day 40 is inside the retention again, but was pruned already.
    await org.setRetention(90);
    const again = await org.send(old, org.event("day-3", daysAgo(3)));
    expect(again.generations).toBe(1);
    expect(await org.stored("day-40")).toBe(0);
    expect(await org.stored("day-3")).toBe(1);
    expect(await org.rolledUp()).toEqual({ hourly: 2, daily: 2 });

    // A later run at the longer retention keeps the watermark where it was (it only grows).
    await pruneExpired(db(), new Date());
    expect(await org.prunedBefore()).toEqual(new Date(now.getTime() - 7 * DAY));
  });

  it("a generation whose month's partition was dropped and sent again is not written again nor counted twice", async () => {
    const org = await organization("Month dropped then raised");
    const started = daysAgo(200);
    // The month gets its partition (as housekeeping would have made it then), and the organization keeps 10 years.
    await db().$queryRaw`SELECT production_ensure_generation_partition(${started}::timestamptz)::text`;
    await org.setRetention(3650);
    const old = org.event("day-200", started);
    expect((await org.send(old)).generations).toBe(1);
    expect(await org.rolledUp()).toEqual({ hourly: 1, daily: 1 });

    // Every organization (this file's database's own) keeps 120 days: the month is dropped whole.
    await db().organization.updateMany({ data: { generationRetentionDays: 120 } });
    const result = await pruneExpired(db(), new Date());
    expect(result.generationPartitions).toBeGreaterThanOrEqual(1);
    expect(result.generations).toBe(0);
    expect(await org.stored("day-200")).toBe(0);
    const monthEnd = new Date(Date.UTC(started.getUTCFullYear(), started.getUTCMonth() + 1, 1));
    expect((await org.prunedBefore())!.getTime()).toBeGreaterThanOrEqual(monthEnd.getTime());

    await org.setRetention(3650);
    expect((await org.send(old)).generations).toBe(0);
    expect(await org.stored("day-200")).toBe(0);
    expect(await org.rolledUp()).toEqual({ hourly: 1, daily: 1 });
  });
});
