// Online evaluation: a prompt's evaluation assertions run on a sample of its production generations,
// each verdict a boolean score of source `eval` (named by the assertion), so it shows in the Production
// tab's figures and comparison like any other score.
//
// - Which generations: those of the prompt whose output text the team keeps, picked by a hash of the
//   generation's id (the same generation is always in or out of a given percentage), started within
//   the last SWEEP_LOOKBACK (turning it on evaluates what comes in, not the prompt's whole history).
// - A periodic sweep claims them (a row in online_evaluation_runs, whose key is the generation: never
//   twice) and queues one pg-boss job each in the same transaction; workers of any process run them.
// - Judged assertions are priced from the tokens the judge reports and the model's price; once the
//   prompt's judging cost of the UTC day reaches its cap, further generations get only their
//   programmatic assertions that day (a judgement already under way is not stopped).
// - A claim still queued an hour later (its job lost) is queued again by the sweep.
// - A job run again (its process died) writes nothing twice: each score's id is
//   `online:<generation>:<assertion name>`, and a run already done is skipped.
import PgBoss from "pg-boss";
import type { Db, DbOrTx, Prisma } from "@promptly/db";
import { onlineEvaluationSettings, type Assertion, type OnlineEvaluationSettings, type ResponseFormat, type setOnlineEvaluationInput } from "@promptly/shared";
import type { z } from "zod";
import { fail } from "../../errors.ts";
import { auditAs, type AuditContext } from "../insight/audit.ts";
import type { LoadedPrompt } from "../prompts/loaded-prompt.ts";
import { lockLivePrompt } from "../prompts/prompt-rules.ts";
import { authorOf } from "../access/actor.ts";
import { commandLineCaller } from "../access/visibility.ts";
import { modelPriceFor } from "../models/prices.ts";
import { ingestProduction, type ScoreDraft } from "../production/ingest.ts";
import { costAt } from "../runs/runs.ts";
import type { ApiConfig } from "../types.ts";
import { checkAssertions } from "./assertions.ts";
import { createJudge, type JudgeUsage } from "./judge.ts";
import { judgeProblem } from "./test-cases.ts";
import { ensureQueue } from "../platform/job-queues.ts";

const ONLINE_QUEUE = "online-evaluations";
/** Generations claimed per sweep at the most (the next sweep takes the rest). */
const SWEEP_BATCH = 500;
const SWEEP_LOOKBACK = "1 day";
/** A claim still queued after this lost its job. */
const STALE_CLAIM = "1 hour";
const DEFAULT_SWEEP_MS = 30_000;

const OFF: OnlineEvaluationSettings = { enabled: false, samplePercent: 0, dailyCapUsd: 0, assertions: [] };

const utcDay = (now: Date) => now.toISOString().slice(0, 10);

/** The prompt's online evaluation (off, with no assertions, until first set) and the UTC day's judging spend. */
export async function getOnlineEvaluation(db: DbOrTx, promptId: string, now: Date) {
  const row = await db.onlineEvaluation.findUnique({ where: { promptId } });
  const settings = row ? readSettings(row) : OFF;
  const [today] = await db.$queryRaw<{ spent: number; evaluated: number }[]>`
    SELECT coalesce(sum(cost), 0)::float8 AS spent, count(*)::int AS evaluated
      FROM online_evaluation_runs WHERE prompt_id = ${promptId}::uuid AND day = ${utcDay(now)}::date AND status = 'done'`;
  return { ...settings, spentTodayUsd: today?.spent ?? 0, evaluatedToday: today?.evaluated ?? 0 };
}

/** A stored row read back through the input's schema (an assertion type since retired turns the evaluation off rather than failing the page). */
function readSettings(row: { enabled: boolean; samplePercent: number; dailyCapUsd: number; assertions: Prisma.JsonValue }): OnlineEvaluationSettings {
  const parsed = onlineEvaluationSettings.safeParse({ enabled: row.enabled, samplePercent: row.samplePercent, dailyCapUsd: row.dailyCapUsd, assertions: row.assertions });
  return parsed.success ? parsed.data : { ...OFF, samplePercent: row.samplePercent, dailyCapUsd: row.dailyCapUsd };
}

/** Sets the prompt's online evaluation, audited as a change of the prompt's details. */
export async function setOnlineEvaluation(
  db: Db, prompt: LoadedPrompt, input: z.output<typeof setOnlineEvaluationInput>, context: AuditContext,
) {
  const { promptId: _promptId, ...settings } = input;
  const promptId = prompt.id;
  // A judge's connection is checked as a test case's is: the organization's, open to the team, offering the model.
  const judge = await judgeProblem(db, prompt, settings.assertions.map((item) => item.assertion));
  if (judge) fail("INVALID", judge, "JUDGE_CONNECTION");
  return db.$transaction(async (tx) => {
    // An archived prompt refuses every change until restored, this one too (not only its card).
    await lockLivePrompt(tx, promptId);
    const before = await tx.onlineEvaluation.findUnique({ where: { promptId } });
    const data = { ...settings, assertions: settings.assertions as Prisma.InputJsonValue, updatedById: authorOf(context.actor), updatedAt: context.now };
    await tx.onlineEvaluation.upsert({ where: { promptId }, create: { promptId, ...data }, update: data });
    await auditAs(tx, context, {
      organizationId: prompt.organizationId,
      teamId: prompt.teamId,
      action: "prompt.update",
      target: { type: "prompt", id: promptId },
      before: { onlineEvaluation: before ? readSettings(before) : OFF },
      after: { onlineEvaluation: settings },
    });
    return getOnlineEvaluation(tx, promptId, context.now);
  });
}

/** pg-boss's statements on a Prisma transaction, so a claim commits with its job. */
const onTransaction = (tx: DbOrTx): PgBoss.Db => ({
  async executeSql(text, values) {
    return { rows: await tx.$queryRawUnsafe<unknown[]>(text, ...values) };
  },
});

interface OnlineJob {
  generationId: string;
}

/**
 * Runs the online evaluations of every process's sweeps: started beside the evaluations' worker, on
 * its pg-boss. `sweep()` may be called at any time (tests call it rather than wait for the timer).
 */
export class OnlineEvaluationWorker {
  #workerId: string | null = null;
  #timer: NodeJS.Timeout | null = null;
  #readied: Promise<void> | null = null;

  constructor(
    private readonly boss: PgBoss,
    private readonly db: Db,
    private readonly config: ApiConfig,
    private readonly options: { sweepMs?: number; expireInSeconds: number; onError?: (error: unknown) => void; now?: () => Date },
  ) {}

  /**
   * Only the sweep's timer: the queue is made and worked from the first sweep on (#ready), not while the
   * process starts, where creating a queue (a partition of pg-boss's job table) beside the mail and
   * webhook queues' start could deadlock them.
   */
  async start(): Promise<void> {
    this.#timer = setInterval(() => void this.sweep().catch((error: unknown) => this.options.onError?.(error)), this.options.sweepMs ?? DEFAULT_SWEEP_MS);
  }

  #ready(): Promise<void> {
    this.#readied ??= (async () => {
      await ensureQueue(this.boss, ONLINE_QUEUE, { retryLimit: 5, retryDelay: 5, retryBackoff: true, expireInSeconds: this.options.expireInSeconds });
      if (!this.#timer) return;
      this.#workerId = await this.boss.work<OnlineJob>(ONLINE_QUEUE, { batchSize: 5, pollingIntervalSeconds: 2 }, async (jobs) => {
        // A failure throws, so pg-boss retries the batch's jobs; those done are skipped on the retry.
        await Promise.all(jobs.map((job) => runOnlineEvaluation({ db: this.db, config: this.config, now: this.now() }, job.data.generationId)));
      });
    })();
    this.#readied.catch(() => (this.#readied = null));
    return this.#readied;
  }

  now = () => this.options.now?.() ?? new Date();

  /** Claims the sampled generations not yet evaluated of every enabled prompt, each with its job; how many. */
  async sweep(): Promise<number> {
    await this.#ready();
    const now = this.now();
    const claimed = await this.db.$transaction(async (tx) => {
      const rows = await tx.$queryRaw<{ id: string }[]>`
        INSERT INTO online_evaluation_runs (generation_id, prompt_id, day)
        SELECT g.id, g.prompt_id, ${utcDay(now)}::date
          FROM online_evaluations oe
          -- An archived prompt's settings cannot change until it is restored: it is not evaluated meanwhile.
          JOIN prompts p ON p.id = oe.prompt_id AND p.archived_at IS NULL
          JOIN teams t ON t.id = p.team_id AND t.keep_generation_text
          JOIN generations g ON g.prompt_id = oe.prompt_id AND g.started_at > ${now}::timestamptz - ${SWEEP_LOOKBACK}::interval
         WHERE oe.enabled AND oe.sample_percent > 0 AND jsonb_array_length(oe.assertions) > 0 AND g.output IS NOT NULL
           AND (hashtextextended(g.id::text, 0) % 10000 + 10000) % 10000 < round(oe.sample_percent * 100)
           AND NOT EXISTS (SELECT 1 FROM online_evaluation_runs r WHERE r.generation_id = g.id)
         LIMIT ${SWEEP_BATCH}
        ON CONFLICT (generation_id) DO NOTHING
        RETURNING generation_id::text AS id`;
      // A claim whose job was lost (its retries spent on a failing database) is queued again.
      const stale = await tx.$queryRaw<{ id: string }[]>`
        UPDATE online_evaluation_runs SET created_at = ${now}
         WHERE generation_id IN (SELECT generation_id FROM online_evaluation_runs WHERE status = 'queued' AND created_at < ${now}::timestamptz - ${STALE_CLAIM}::interval
                                  LIMIT ${SWEEP_BATCH} FOR UPDATE SKIP LOCKED)
        RETURNING generation_id::text AS id`;
      rows.push(...stale);
      if (rows.length) {
        await this.boss.insert(
          rows.map((row) => ({ name: ONLINE_QUEUE, data: { generationId: row.id } satisfies OnlineJob })),
          { db: onTransaction(tx) },
        );
      }
      return rows.length;
    });
    if (claimed && this.#workerId) this.boss.notifyWorker(this.#workerId);
    return claimed;
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#readied?.catch(() => undefined);
    if (this.#workerId) await this.boss.offWork(ONLINE_QUEUE).catch(() => undefined);
    this.#workerId = null;
    this.#readied = null;
  }
}

interface Claimed {
  status: string;
  /** Archived since it was claimed: an archived prompt is not evaluated (nor can its settings change). */
  archived: boolean;
  promptId: string;
  teamId: string;
  organizationId: string;
  output: string | null;
  latencyMs: number | null;
  cost: number | null;
  responseFormat: ResponseFormat | null;
  enabled: boolean | null;
  dailyCapUsd: number | null;
  samplePercent: number | null;
  assertions: Prisma.JsonValue;
}

/** One claimed generation's assertions, its verdicts written as scores and its judging cost recorded. */
async function runOnlineEvaluation(deps: { db: Db; config: ApiConfig; now: Date }, generationId: string): Promise<void> {
  const { db, now } = deps;
  const [row] = await db.$queryRaw<Claimed[]>`
    SELECT r.status, p.archived_at IS NOT NULL AS archived, r.prompt_id AS "promptId", p.team_id AS "teamId", p.organization_id AS "organizationId", g.output, g.latency_ms AS "latencyMs", g.cost,
           v.response_format AS "responseFormat", oe.enabled, oe.daily_cap_usd AS "dailyCapUsd", oe.sample_percent AS "samplePercent", oe.assertions
      FROM online_evaluation_runs r
      JOIN prompts p ON p.id = r.prompt_id
      LEFT JOIN generations g ON g.id = r.generation_id
      LEFT JOIN prompt_versions v ON v.prompt_id = g.prompt_id AND v.version = g.version
      LEFT JOIN online_evaluations oe ON oe.prompt_id = r.prompt_id
     WHERE r.generation_id = ${generationId}::uuid
     LIMIT 1`;
  // Gone with its prompt, or done already (a retried job).
  if (!row || row.status === "done") return;
  const finish = (cost: number) =>
    db.$executeRaw`UPDATE online_evaluation_runs SET status = 'done', cost = ${cost}, day = ${utcDay(now)}::date, finished_at = ${now}
                    WHERE generation_id = ${generationId}::uuid AND status <> 'done'`;
  const settings = row.enabled === null ? OFF : readSettings({ enabled: row.enabled, samplePercent: row.samplePercent ?? 0, dailyCapUsd: row.dailyCapUsd ?? 0, assertions: row.assertions });
  // Turned off or archived since it was claimed, or the generation was deleted (retention): nothing to judge.
  if (!settings.enabled || row.archived || row.output === null) {
    await finish(0);
    return;
  }
  const [spent] = await db.$queryRaw<{ spent: number }[]>`
    SELECT coalesce(sum(cost), 0)::float8 AS spent FROM online_evaluation_runs
     WHERE prompt_id = ${row.promptId}::uuid AND day = ${utcDay(now)}::date AND status = 'done'`;
  const judgeAllowed = (spent?.spent ?? 0) < settings.dailyCapUsd;
  const named = settings.assertions.filter((item) => judgeAllowed || item.assertion.type !== "judge");
  const usages: JudgeUsage[] = [];
  const judge = createJudge({ db, config: deps.config, organizationId: row.organizationId, teamId: row.teamId, onUsage: (usage) => usages.push(usage) });
  const outcomes = await checkAssertions(
    named.map((item): Assertion => item.assertion),
    { output: row.output, latencyMs: row.latencyMs ?? 0, cost: row.cost, expected: null, responseFormat: row.responseFormat },
    judge,
  );
  let cost = 0;
  for (const usage of usages) cost += costAt(await modelPriceFor(db, row.organizationId, usage.model), usage.inputTokens, usage.outputTokens) ?? 0;
  const scores: ScoreDraft[] = outcomes.map((outcome, index) => ({
    generationId,
    promptId: row.promptId,
    name: named[index]!.name,
    dataType: "boolean",
    value: outcome.pass ? 1 : 0,
    stringValue: outcome.pass ? "True" : "False",
    ...(outcome.reason ? { comment: outcome.reason } : {}),
    source: "eval",
    externalId: `online:${generationId}:${named[index]!.name}`,
  }));
  // Written by the server itself, for the prompt whose generation this is (its own team's, as claimed).
  if (scores.length) await ingestProduction(db, commandLineCaller(), row.teamId, { generations: [], scores });
  await finish(cost);
}
