// One score name sent with two data types (a yes/no "quality" on one version, a numeric 5 "quality" on
// another, or both in one hour) is two series in the rollups: each type sums its own values, the figures
// show both, and a comparison compares each series with the same series of the other version, never a
// share of true with a mean.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld, createPrompt } from "../../../testing/prompts-support.ts";
import type { KeyCaller } from "../access/visibility.ts";
import { createApiScore } from "./production-api.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createLibraryWorld>>;
let team: { id: string };
let key: KeyCaller;

const db = () => h.services.db;
let traces = 0;

/** A generation of the team linked to `version` of `prompt`, started now. */
async function insertGeneration(prompt: { id: string; name: string }, version: number) {
  const traceId = (traces += 1).toString(16).padStart(32, "0");
  const [row] = await db().$queryRaw<{ id: string }[]>`
    INSERT INTO generations (organization_id, team_id, prompt_id, prompt_name, version, trace_id, observation_id, source, started_at, status)
    VALUES (${world.organization.id}::uuid, ${team.id}::uuid, ${prompt.id}::uuid, ${prompt.name}, ${version}, ${traceId}, ${`obs-${traceId}`}, 'otel', now(), 'ok')
    RETURNING id::text`;
  return row!.id;
}

/** A span around now, whatever the harness's clock says. */
const around = () => ({ from: new Date(Date.now() - 24 * 3_600_000), to: new Date(Date.now() + 3_600_000) });

beforeAll(async () => {
  h = await createHarness();
  world = await createLibraryWorld(h);
  team = await world.team();
  key = await world.ingestKey(team.id, "Scores");
});
afterAll(() => h.close());

describe("one score name with two data types", () => {
  it("is two series: the figures show each, and a comparison never sets a share against a mean", async () => {
    const prompt = await createPrompt(world.callers.editor, team.id, { visibility: "team" });
    await world.callers.editor.promptVersions.create({ promptId: prompt.id, type: "text", template: "Answer {{ question }} briefly." });
    // Version 1: "quality" as yes/no. Version 2: "quality" as a number, 5; and one yes/no too, in the same hour.
    await createApiScore(db(), key, { generationId: await insertGeneration(prompt, 1), name: "quality", value: true });
    await createApiScore(db(), key, { generationId: await insertGeneration(prompt, 2), name: "quality", value: 5 });
    await createApiScore(db(), key, { generationId: await insertGeneration(prompt, 2), name: "quality", value: false });

    const rows = await db().$queryRaw<{ version: number; data_type: string; count: number; sum: number }[]>`
      SELECT version, data_type, count, sum FROM score_rollups WHERE prompt_id = ${prompt.id}::uuid ORDER BY version, data_type`;
    expect(rows).toEqual([
      { version: 1, data_type: "boolean", count: 1, sum: 1 },
      { version: 2, data_type: "boolean", count: 1, sum: 0 },
      { version: 2, data_type: "numeric", count: 1, sum: 5 },
    ]);

    const metrics = await world.callers.viewer.production.metrics({ promptId: prompt.id, ...around() });
    const scoresOf = (version: number) => metrics.versions.find((item) => item.version === version)!.scores;
    expect(scoresOf(1)).toEqual([{ name: "quality", dataType: "boolean", count: 1, mean: null, share: 1, categories: [{ value: "True", count: 1 }] }]);
    expect(scoresOf(2)).toEqual([
      { name: "quality", dataType: "boolean", count: 1, mean: null, share: 0, categories: [{ value: "False", count: 1 }] },
      { name: "quality", dataType: "numeric", count: 1, mean: 5, share: null, categories: [] },
    ]);

    // Each type compared on its own, named with its type: the yes/no share 1 of 1 against 0 of 1, the numeric
    // mean against no numeric score of version 1. No share of 5 out of 1.
    const comparison = await world.callers.viewer.production.compare({ promptId: prompt.id, a: 1, b: 2, ...around() });
    const scored = comparison.metrics.filter((metric) => metric.metric.startsWith("quality"));
    expect(scored.map(({ metric, kind, a, b }) => ({ metric, kind, a, b }))).toEqual([
      { metric: "quality (boolean)", kind: "proportion", a: { n: 1, value: 1 }, b: { n: 1, value: 0 } },
      { metric: "quality (numeric)", kind: "mean", a: { n: 0, value: null }, b: { n: 1, value: 5 } },
    ]);
  });

  it("compares rows summed before the rollups were kept per type (a numeric value in a yes/no row, a count below zero) without failing", async () => {
    const prompt = await createPrompt(world.callers.editor, team.id, { visibility: "team" });
    await world.callers.editor.promptVersions.create({ promptId: prompt.id, type: "text", template: "Answer {{ question }} briefly." });
    // As the migration left them: version 1's yes/no row holds a numeric 5 (1 score), version 2's one taken away since (-1).
    for (const [version, count, sum] of [[1, 1, 5], [2, -1, -1]] as const) {
      await db().$executeRaw`
        INSERT INTO score_rollups (prompt_id, version, environment, hour, name, data_type, count, sum, sum_squares, categories)
        VALUES (${prompt.id}::uuid, ${version}, 'production', date_trunc('hour', now()), 'legacy', 'boolean', ${count}, ${sum}, ${sum * sum}, '{}'::jsonb)`;
    }
    const comparison = await world.callers.viewer.production.compare({ promptId: prompt.id, a: 1, b: 2, ...around() });
    const legacy = comparison.metrics.filter((metric) => metric.metric === "legacy");
    expect(legacy.map(({ kind, a, b }) => ({ kind, a, b }))).toEqual([{ kind: "proportion", a: { n: 1, value: 1 }, b: { n: 0, value: null } }]);
  });
});
