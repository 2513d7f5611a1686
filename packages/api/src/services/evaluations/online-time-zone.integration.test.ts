// Online evaluation's sweep reads its clock as the instant it is in any session time zone: in a session
// at Asia/Kolkata (+05:30) the lookback reached five and a half hours further back (its `now`, a Date
// parameter, went without its offset and was read in the session's zone), claiming a generation started
// more than a day before.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "@promptly/db";
import { ingestProduction } from "../production/ingest.ts";
import { keyCaller } from "../access/visibility.ts";
import { useEvaluationWorld } from "../../../testing/evaluations-support.ts";
import { createPrompt } from "../../../testing/prompts-support.ts";
import { OnlineEvaluationWorker } from "./online.ts";
import type { EvaluationQueue } from "./queue.ts";

const fx = useEvaluationWorld();
const HOUR = 3_600_000;
// Two days back: outside the lookback of the harness's own sweeps, which read the real clock.
const now = new Date(Date.now() - 48 * HOUR);
/** One connection, its session at Asia/Kolkata. */
let kolkata: Db;

beforeAll(async () => {
  kolkata = createDb({ url: fx.h.database.url, max: 1 });
  await kolkata.$executeRaw`SET TIME ZONE 'Asia/Kolkata'`;
});
afterAll(() => kolkata?.$disconnect());

describe("the online evaluation sweep", () => {
  it("claims only the generations started within the lookback of its clock, in a session whose time zone is not UTC", async () => {
    const { admin } = fx.world.callers;
    await admin.teams.setGenerationText({ id: fx.team.id, keep: true });
    const created = await admin.apiKeys.create({ teamId: fx.team.id, name: "Tracing", scopes: ["ingest"] });
    const key = keyCaller({ id: created.id, teamId: fx.team.id, labels: null, scopes: ["ingest"] });
    const prompt = await createPrompt(admin, fx.team.id, { visibility: "team" });
    await admin.production.onlineEvaluation.set({
      promptId: prompt.id, enabled: true, samplePercent: 100, dailyCapUsd: 1, assertions: [{ name: "greets", assertion: { type: "contains", value: "Ada" } }],
    });
    const started = { within: new Date(now.getTime() - HOUR), before: new Date(now.getTime() - 26 * HOUR) };
    await ingestProduction(fx.h.services.db, key, fx.team.id, {
      generations: Object.entries(started).map(([observationId, startedAt]) => ({
        observationId, source: "otel", promptName: prompt.name, version: 1, model: "gpt-4o-mini", startedAt, input: "Greet Ada", output: "Hello, Ada!", seenAt: new Date(),
      })),
      scores: [],
    });

    const [zone] = await kolkata.$queryRaw<{ zone: string }[]>`SELECT current_setting('TimeZone') AS zone`;
    expect(zone?.zone).toBe("Asia/Kolkata");
    const worker = new OnlineEvaluationWorker((fx.h.services.evaluations as EvaluationQueue).boss, kolkata, fx.h.services.config, { expireInSeconds: 2, now: () => now });
    expect(await worker.sweep()).toBe(1);
    await worker.stop();
    const claimed = await fx.h.services.db.$queryRaw<{ observationId: string }[]>`
      SELECT g.observation_id AS "observationId" FROM online_evaluation_runs r JOIN generations g ON g.id = r.generation_id WHERE r.prompt_id = ${prompt.id}::uuid`;
    expect(claimed).toEqual([{ observationId: "within" }]);
  });
});
