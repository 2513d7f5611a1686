// Online evaluation: a prompt's evaluation assertions run on a sample of its production generations,
// each verdict a boolean score of source `eval` (named by the assertion), so it shows in the Production
// tab's figures and comparison like any other score.
//
// - Which generations: those of the prompt whose output text the team keeps, picked by a hash of the
//   generation's id (the same generation is always in or out of a given percentage), started within
//   the last SWEEP_LOOKBACK (turning it on evaluates what comes in, not the prompt's whole history).
// - A periodic sweep claims them (a row in online_evaluation_runs, whose key is the generation: never
//   twice) and queues one pg-boss job each in the same transaction; workers of any process run them.
// - Judged assertions are priced from the tokens the judge reports and the model's price; a judgement
//   starts only once its worst case is reserved under the prompt's cap for the UTC day (reserve), so
//   jobs judging at once end the day at most one judgement's worst case over it. Once the day's cost
//   reaches the cap, further generations get only their programmatic assertions that day.
// - A claim not done an hour after it was claimed or last found queued by a run (readClaim: a run that fails
//   leaves it queued, its retry pending) lost its job: it is queued again by the sweep, while its generation is
//   one the sweep would claim (started within the last SWEEP_LOOKBACK); past that, or its generation gone
//   (retention), it is let go as skipped. A generation whose job always fails (or kills its process) is so tried
//   again for a day at most, not every hour for ever. A judged claim (its verdicts paid for, not yet written) is
//   queued again as long as its generation is kept, however old: writing them asks no judge, and retention ends
//   the generation, and so the retries, in time.
// - A claim's job reads the output again, only while the team still keeps it (generationTextReadable):
//   one run after the team stopped keeping text ends done with nothing judged, its text never sent.
// - The judge's reasons (the verdicts' as recorded, the scores' comments) are written only while the
//   generation still stores the text the judge read, decided in the same transaction as they are written,
//   its row held against housekeeping's clearing (lockJudgedText): the judge may answer after the text
//   was cleared, even after the team's clearing ended and it keeps text again.
// - A job run again (its process died) writes nothing twice and never pays a judge twice: each score's
//   id is `online:<generation>:<assertion name>`, verdicts and cost are recorded before the scores are
//   written, and a run already done is skipped (runOnlineEvaluation).
// - A judge that could not answer (its connection unusable, the model gone, the provider failing, limiting or
//   too slow) gives no verdict: its assertion is not scored, the others' verdicts are, and the job fails, so
//   pg-boss runs it again (and, its retries spent, the sweep within the generation's day) to ask that judge
//   alone; each call sent counts against the cap of the day the claim first spent on (reserve: its cost never
//   moves day, though retried after midnight). One never answered is never scored: nothing says False.
import PgBoss from "pg-boss";
import { Prisma, sqlInstant, type Db, type DbOrTx } from "@promptly/db";
import { ONLINE_EVALUATION_MSG, onlineEvaluationSettings, type OnlineEvaluationSettings, type ResponseFormat, type setOnlineEvaluationInput } from "@promptly/shared";
import { z } from "zod";
import { DomainError, fail } from "../../errors.ts";
import { auditAs, type AuditContext } from "../insight/audit.ts";
import type { LoadedPrompt } from "../prompts/loaded-prompt.ts";
import { lockLivePrompt } from "../prompts/prompt-rules.ts";
import { authorOf } from "../access/actor.ts";
import { commandLineCaller } from "../access/visibility.ts";
import { costAt, modelPriceFor } from "../models/prices.ts";
import { clearReasonsUnlessStored, generationTextReadable, holdGeneration, withJudgedText } from "../platform/generation-text.ts";
import { ingestProduction, type ScoreDraft } from "../production/ingest.ts";
import { ONLINE_SCORE_ID_PREFIX } from "../production/sources.ts";
import type { ApiConfig } from "../types.ts";
import { SCORE_COMMENT_MAX, storableCut } from "../platform/storable-text.ts";
import { checkAssertions } from "./assertions.ts";
import { createJudge, judgeUsageBound, type JudgeCall } from "./judge.ts";
import { judgeProblem } from "./test-cases.ts";
import { ensureQueue } from "../platform/job-queues.ts";

const ONLINE_QUEUE = "online-evaluations";
/** Generations claimed per sweep at the most (the next sweep takes the rest). */
const SWEEP_BATCH = 500;
const SWEEP_LOOKBACK = "1 day";
/** A claim not done this long after it was claimed or last found queued by a run (readClaim) lost its job. */
const STALE_CLAIM = "1 hour";
/**
 * Whether a stale claim of `r` is queued again: while its generation is still this recent (the sweep's own
 * window), or judged, while its generation is kept at all (letting it go would throw away verdicts paid for).
 */
const worthRetrying = (now: Date) => Prisma.sql`EXISTS (
  SELECT 1 FROM generations g WHERE g.id = r.generation_id AND (r.status = 'judged' OR g.started_at > ${sqlInstant(now)} - ${SWEEP_LOOKBACK}::interval))`;
const DEFAULT_SWEEP_MS = 30_000;
/**
 * How long a transaction writing reasons may last: it may wait for a housekeeping run's clearing holding its
 * generation, which takes up to a minute (its transaction's timeout). Expired, recording the verdicts would fail,
 * and the retry finding the claim judging would lose the judge's.
 */
const REASONS_TIMEOUT = { timeout: 120_000 };

const OFF: OnlineEvaluationSettings = { enabled: false, samplePercent: 0, dailyCapUsd: 0, assertions: [] };

const utcDay = (now: Date) => now.toISOString().slice(0, 10);

/**
 * The day a queued claim's cost counts on (of the row in scope): the day it was first spent on once it cost
 * something (a judge that did not answer, retried maybe after midnight), so its cost never moves day; else today.
 */
const dayOfCost = (now: Date) => Prisma.sql`CASE WHEN cost > 0 THEN day ELSE ${utcDay(now)}::date END`;

/**
 * The prompt's online evaluation (off, with no assertions, until first set), the UTC day's judging spend and
 * the generations evaluated that day: those finished with their verdicts written (`done`), not those let go
 * without (`skipped`: turned off, archived, the text no longer kept or its generation too old to try again),
 * whose judging cost counts all the same, as does that of a claim still to be judged again (a judge did not answer).
 */
export async function getOnlineEvaluation(db: DbOrTx, promptId: string, now: Date) {
  const row = await db.onlineEvaluation.findUnique({ where: { promptId } });
  const settings = row ? readSettings(row) : OFF;
  const [today] = await db.$queryRaw<{ spent: number; evaluated: number }[]>`
    SELECT coalesce(sum(cost), 0)::float8 AS spent, (count(*) FILTER (WHERE status = 'done'))::int AS evaluated
      FROM online_evaluation_runs WHERE prompt_id = ${promptId}::uuid AND day = ${utcDay(now)}::date`;
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
    // The daily cap counts judging at the judge model's price: a model without one would judge without limit.
    if (settings.enabled) {
      for (const [index, { assertion }] of settings.assertions.entries()) {
        if (assertion.type !== "judge" || (await modelPriceFor(tx, prompt.organizationId, assertion.model ?? ""))) continue;
        const message = ONLINE_EVALUATION_MSG.judgeModelUnpriced(assertion.model ?? "");
        throw new DomainError("INVALID", message, "JUDGE_PRICE", [{ path: `assertions.${index}.assertion.model`, message }]);
      }
    }
    // An archived prompt refuses every change until restored, this one too (not only its card).
    await lockLivePrompt(tx, promptId);
    const before = await tx.onlineEvaluation.findUnique({ where: { promptId } });
    const previous = before ? readSettings(before) : OFF;
    const after: OnlineEvaluationSettings = { ...settings, assertions: await namedAssertions(tx, promptId, settings.assertions, previous) };
    const data = { ...after, assertions: after.assertions as Prisma.InputJsonValue, updatedById: authorOf(context.actor), updatedAt: context.now };
    await tx.onlineEvaluation.upsert({ where: { promptId }, create: { promptId, ...data }, update: data });
    await auditAs(tx, context, {
      organizationId: prompt.organizationId,
      teamId: prompt.teamId,
      action: "prompt.update",
      target: { type: "prompt", id: promptId },
      before: { onlineEvaluation: previous },
      after: { onlineEvaluation: after },
    });
    return getOnlineEvaluation(tx, promptId, context.now);
  });
}

/**
 * Each assertion with its name: the one it was sent with, or for a new one its kind, numbered from 2 past
 * every name taken ("contains 2"): those sent, those of the assertions it replaces and those of the
 * prompt's score series, so a new assertion never writes into another's series, nor one it ended. A
 * new assertion sent with a name one of those series has is refused, for the same reason.
 */
async function namedAssertions(
  tx: DbOrTx, promptId: string, sent: z.output<typeof setOnlineEvaluationInput>["assertions"], previous: OnlineEvaluationSettings,
): Promise<OnlineEvaluationSettings["assertions"]> {
  // A name sent is an assertion's it replaces (its series goes on), or new: then no series the prompt has scores of (its team's own, say).
  const previousNames = new Set(previous.assertions.map((item) => item.name));
  const isNew = (name: string | undefined) => name === undefined || !previousNames.has(name);
  const series = sent.some((item) => isNew(item.name))
    ? new Set((await tx.$queryRaw<{ name: string }[]>`SELECT DISTINCT name FROM score_rollups WHERE prompt_id = ${promptId}::uuid`).map((row) => row.name))
    : new Set<string>();
  const clash = sent.findIndex((item) => item.name !== undefined && isNew(item.name) && series.has(item.name));
  if (clash >= 0) {
    const message = ONLINE_EVALUATION_MSG.assertionNameScored(sent[clash]!.name!);
    throw new DomainError("INVALID", message, undefined, [{ path: `assertions.${clash}.name`, message }]);
  }
  const taken = new Set([...sent.flatMap((item) => (item.name === undefined ? [] : [item.name])), ...previousNames, ...series]);
  return sent.map(({ name, assertion }) => {
    if (name !== undefined) return { name, assertion };
    let fresh: string = assertion.type;
    for (let number = 2; taken.has(fresh); number += 1) fresh = `${assertion.type} ${number}`;
    taken.add(fresh);
    return { name: fresh, assertion };
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
        // Each job's failure is its own: failed at once (pg-boss retries it), while the batch's other jobs
        // judge on. Failing the batch would retry them mid-judging, and a run that finds a claim judging
        // takes it for a dead run's: it records the programmatic verdicts alone, the judge's lost.
        const outcomes = await Promise.allSettled(
          jobs.map(async (job) => {
            try {
              await runOnlineEvaluation({ db: this.db, config: this.config, now: this.now() }, job.data.generationId);
            } catch (error) {
              // Told (the server logs it: a judge that keeps failing, its reason), then retried.
              this.options.onError?.(error);
              await this.boss.fail(ONLINE_QUEUE, job.id, error as object);
            }
          }),
        );
        // A failure that could not be recorded (the database gone) fails the batch, every job settled by now;
        // pg-boss retries its jobs, those done are skipped on the retry.
        const unrecorded = outcomes.find((outcome) => outcome.status === "rejected");
        if (unrecorded) throw unrecorded.reason;
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
          JOIN teams t ON t.id = p.team_id
          JOIN generations g ON g.prompt_id = oe.prompt_id AND g.started_at > ${sqlInstant(now)} - ${SWEEP_LOOKBACK}::interval
         WHERE oe.enabled AND oe.sample_percent > 0 AND jsonb_array_length(oe.assertions) > 0 AND g.output IS NOT NULL AND ${generationTextReadable}
           AND (hashtextextended(g.id::text, 0) % 10000 + 10000) % 10000 < round(oe.sample_percent * 100)
           AND NOT EXISTS (SELECT 1 FROM online_evaluation_runs r WHERE r.generation_id = g.id)
         LIMIT ${SWEEP_BATCH}
        ON CONFLICT (generation_id) DO NOTHING
        RETURNING generation_id::text AS id`;
      const staleClaims = Prisma.sql`SELECT generation_id FROM online_evaluation_runs r
        WHERE status NOT IN ('done', 'skipped') AND created_at < ${sqlInstant(now)} - ${STALE_CLAIM}::interval`;
      // A claim whose job was lost (its retries spent on a failing database) is queued again.
      const stale = await tx.$queryRaw<{ id: string }[]>`
        UPDATE online_evaluation_runs SET created_at = ${sqlInstant(now)}
         WHERE generation_id IN (${staleClaims} AND ${worthRetrying(now)} LIMIT ${SWEEP_BATCH} FOR UPDATE SKIP LOCKED)
        RETURNING generation_id::text AS id`;
      // Its generation too old (and nothing judged yet), or gone: let go, its reservation kept as its cost (a run that died judging may have paid the judge).
      await tx.$executeRaw`
        UPDATE online_evaluation_runs SET status = 'skipped', cost = cost + reserved, reserved = 0, finished_at = ${sqlInstant(now)}
         WHERE generation_id IN (${staleClaims} AND NOT ${worthRetrying(now)} LIMIT ${SWEEP_BATCH} FOR UPDATE SKIP LOCKED)`;
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

/**
 * A claim's state: `judging` holds a reservation (its judge may have been paid), `judged` holds its verdicts and their cost;
 * finished, `done` with its verdicts written, `skipped` without (nothing left to evaluate: turned off, archived, text not kept,
 * generation gone, or its job lost, not yet judged, after the generation grew too old to try again: see the sweep).
 */
type ClaimStatus = "queued" | "judging" | "judged" | "done" | "skipped";

interface Claimed {
  status: ClaimStatus;
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
  /** What the claim holds against the day's cap while judging. */
  reserved: number;
  verdicts: Prisma.JsonValue;
}

/** One assertion's verdict as a claim records it before its score is written. */
const storedVerdicts = z.array(z.object({ name: z.string(), pass: z.boolean(), reason: z.string().optional() }));
type Verdict = z.infer<typeof storedVerdicts>[number];

interface RunDeps {
  db: Db;
  config: ApiConfig;
  now: Date;
}

/**
 * One claimed generation's assertions, its verdicts written as scores and its judging cost recorded.
 *
 * A claim moves queued → judging → judged → done, each move made only from the state it was read in
 * (so two runs of one generation, a job retried while the first still runs, never both move it):
 * - judging: the judgement's worst case is reserved against the day's cap before the judge is asked
 *   (see reserve). A run that finds a claim judging cannot know whether the judge was paid: it never
 *   asks again, records the programmatic verdicts alone and keeps the reservation as the cost.
 * - judged: the verdicts and the judgement's real cost (replacing the reservation) are recorded before
 *   any score is written, so a run after a failure writes them and finishes, without judging again.
 * A claim with nothing to judge (none judged, or the day at its cap) goes from queued to done. One whose judge
 * did not answer goes from judging back to queued, with the answered verdicts and what judging cost recorded
 * (then written), and its job fails: the next run asks only the judges without a verdict (NoAnswer).
 */
async function runOnlineEvaluation(deps: RunDeps, generationId: string): Promise<void> {
  // Each pass moves the claim on, or finds another run moved it first and reads it again.
  for (let pass = 0; pass < 4; pass += 1) {
    const claim = await readClaim(deps, generationId);
    // Gone with its prompt, or done already (a retried job).
    if (!claim || claim.status === "done" || claim.status === "skipped") return;
    const settings = claim.enabled === null ? OFF : readSettings({ enabled: claim.enabled, samplePercent: claim.samplePercent ?? 0, dailyCapUsd: claim.dailyCapUsd ?? 0, assertions: claim.assertions });
    // Turned off or archived since it was claimed, the generation deleted (retention) or its text no longer kept: nothing to judge.
    const live = settings.enabled && !claim.archived && claim.output !== null;
    if (claim.status === "judged") {
      // Their reasons were recorded only with the text stored, and a clearing since took them: they quote what is
      // stored still. Not live: its verdicts' reasons, should the text be gone (recorded so before runs held it), go.
      if (live) await writeScores(deps.db, generationId, claim, storedVerdicts.parse(claim.verdicts));
      else await clearReasonsIfTextGone(deps.db, generationId);
      if (await finish(deps, generationId, "judged", live ? "done" : "skipped")) return;
    } else if (claim.status === "judging") {
      const unjudged = live ? (await verdictsOf(deps, claim, settings.assertions.filter((item) => item.assertion.type !== "judge"))).verdicts : [];
      await recordVerdicts(deps.db, generationId, claim.output, withVerdicts(recordedOf(claim), unjudged), claim.reserved, "judged");
    } else if (!live) {
      if (await finish(deps, generationId, "queued", "skipped")) return;
    } else if (await evaluate(deps, generationId, claim, settings.assertions)) {
      return;
    }
  }
  throw new Error(`The online evaluation of generation ${generationId} kept being moved by another run`);
}

/**
 * The claim as the run finds it. Found queued, it counts from the run's start (created_at, by which the sweep finds a
 * lost job; set in the same statement), and keeps that start moved to judging or put back to queued by the run. A run
 * that fails leaves it queued (its judge not answering, or an error before it moved: in reserve, the assertions,
 * writeScores) with its job's retry pending: a claim made over an hour before (its job run late) would otherwise be
 * queued a second job beside it, and the run losing the race, finding the claim judging, would take it for a dead
 * run's and refuse the paid verdicts of the other.
 */
function readClaim({ db, now }: RunDeps, generationId: string): Promise<Claimed | undefined> {
  return db.$queryRaw<Claimed[]>`
    WITH taken AS (UPDATE online_evaluation_runs SET created_at = ${sqlInstant(now)} WHERE generation_id = ${generationId}::uuid AND status = 'queued')
    SELECT r.status, r.reserved, r.verdicts, p.archived_at IS NOT NULL AS archived, r.prompt_id AS "promptId", p.team_id AS "teamId", p.organization_id AS "organizationId",
           CASE WHEN ${generationTextReadable} THEN g.output END AS output, g.latency_ms AS "latencyMs", g.cost, v.response_format AS "responseFormat", oe.enabled, oe.daily_cap_usd AS "dailyCapUsd",
           oe.sample_percent AS "samplePercent", oe.assertions
      FROM online_evaluation_runs r
      JOIN prompts p ON p.id = r.prompt_id
      JOIN teams t ON t.id = p.team_id
      LEFT JOIN generations g ON g.id = r.generation_id
      LEFT JOIN prompt_versions v ON v.prompt_id = g.prompt_id AND v.version = g.version
      LEFT JOIN online_evaluations oe ON oe.prompt_id = r.prompt_id
     WHERE r.generation_id = ${generationId}::uuid
     LIMIT 1`.then((rows) => rows[0]);
}

type NamedAssertion = OnlineEvaluationSettings["assertions"][number];
const externalIdOf = (generationId: string, name: string) => `${ONLINE_SCORE_ID_PREFIX}${generationId}:${name}`;

/**
 * A queued claim: its judged assertions (those not scored already, by a run from before claims recorded
 * their verdicts) judged if the day's cap lets a reservation in, then its verdicts written. False when
 * another run moved the claim first.
 */
async function evaluate(deps: RunDeps, generationId: string, claim: Claimed, assertions: NamedAssertion[]): Promise<boolean> {
  const { db } = deps;
  // Those of a run before whose judge did not answer: the answered ones are not asked again.
  const recorded = recordedOf(claim);
  const judged = assertions.filter((item) => item.assertion.type === "judge" && !recorded.some((verdict) => verdict.name === item.name));
  const scored = judged.length ? await scoredNames(db, claim.teamId, generationId, judged.map((item) => item.name)) : new Set<string>();
  const toJudge = judged.filter((item) => !scored.has(item.name));
  const programmatic = assertions.filter((item) => item.assertion.type !== "judge");
  const prices = pricesOf(db, claim.organizationId);
  if (toJudge.length) {
    let worst = 0;
    for (const item of toJudge) {
      const bound = judgeUsageBound(item.assertion, factsOf(claim));
      worst += costAt(await prices(bound.model), bound.inputTokens, bound.outputTokens) ?? 0;
    }
    const reservation = await reserve(db, claim.promptId, generationId, worst, deps.now);
    if (reservation === "moved") return false;
    if (reservation === "reserved") {
      const calls: JudgeCall[] = [];
      const { verdicts: answered, unanswered } = await verdictsOf(deps, claim, [...programmatic, ...toJudge], (call) => calls.push(call));
      const verdicts = withVerdicts(recorded, answered);
      // The reservation settles to the real cost: an answered call at its tokens' price, one never sent (refused before
      // the provider, its connection's key unreadable, say) at nothing. A call sent that failed (the provider maybe counted
      // its tokens), or one not told at all, makes the whole judgement cost its worst case, as reserved.
      let cost = 0;
      for (const call of calls) if (call.sent && call.usage) cost += costAt(await prices(call.usage.model), call.usage.inputTokens, call.usage.outputTokens) ?? 0;
      if (calls.length < toJudge.length || calls.some((call) => call.sent && !call.usage)) cost = worst;
      // Moved meanwhile by a run that found it judging: that run's verdicts and cost (this reservation) stand.
      if (!(await recordVerdicts(deps.db, generationId, claim.output, verdicts, cost, unanswered.length ? "queued" : "judged"))) return false;
      await writeScores(db, generationId, claim, verdicts);
      if (unanswered.length) throw new NoAnswer(generationId, unanswered);
      return finish(deps, generationId, "judged", "done");
    }
  }
  // Nothing judged: the programmatic verdicts cost nothing and are written again harmlessly (those recorded, answered, with them).
  await writeScores(db, generationId, claim, withVerdicts(recorded, (await verdictsOf(deps, claim, programmatic)).verdicts));
  return finish(deps, generationId, "queued", "done");
}

/**
 * A run whose judge of some assertion did not answer: its job fails, so pg-boss runs it again (its retry policy), those
 * assertions unscored meanwhile. Spent its retries, the claim, queued, is queued again by the sweep while its generation
 * is within the sweep's day, then let go as skipped: an assertion never answered is never scored.
 */
class NoAnswer extends Error {
  constructor(generationId: string, unanswered: Verdict[]) {
    const what = unanswered.map((verdict) => `${JSON.stringify(verdict.name)}${verdict.reason ? ` (${verdict.reason})` : ""}`).join(", ");
    super(`The judge of ${what} did not answer on generation ${generationId}: asked again on the job's retry`);
  }
}

/** The verdicts a queued claim recorded before (a run whose judge did not answer), or a judging claim's (held from then). */
const recordedOf = (claim: Claimed): Verdict[] => (claim.verdicts === null ? [] : storedVerdicts.parse(claim.verdicts));

/** `before` with `after` in place of those of the same name. */
const withVerdicts = (before: Verdict[], after: Verdict[]): Verdict[] => [...before.filter((verdict) => !after.some((late) => late.name === verdict.name)), ...after];

const factsOf = (claim: Claimed) => ({ output: claim.output ?? "", latencyMs: claim.latencyMs ?? 0, cost: claim.cost, expected: null, responseFormat: claim.responseFormat });

/** The organization's price of each model, each read once. */
function pricesOf(db: Db, organizationId: string) {
  const read = new Map<string, ReturnType<typeof modelPriceFor>>();
  return (model: string) => {
    let price = read.get(model);
    if (!price) read.set(model, (price = modelPriceFor(db, organizationId, model)));
    return price;
  };
}

/**
 * The assertions' verdicts on the claim's generation, what became of each judge's call heard by `onCall`; `unanswered`
 * holds the judged ones whose judge did not answer, with the reason it gave (createJudge's onNoAnswer, or its failure): no verdict, none among them.
 */
async function verdictsOf(
  deps: RunDeps, claim: Claimed, assertions: NamedAssertion[], onCall?: (call: JudgeCall) => void,
): Promise<{ verdicts: Verdict[]; unanswered: Verdict[] }> {
  const unanswered = new Set<string>();
  const outcomes = await Promise.all(
    assertions.map(async (item) => {
      // A judge for each assertion, so what it tells is this assertion's (the judgements run at once).
      const noAnswer = () => unanswered.add(item.name);
      const judge = createJudge({ db: deps.db, config: deps.config, organizationId: claim.organizationId, teamId: claim.teamId, onCall, onNoAnswer: noAnswer });
      const [outcome] = await checkAssertions([item.assertion], factsOf(claim), async (assertion, facts) => {
        try {
          return await judge(assertion, facts);
        } catch (error) {
          noAnswer();
          throw error;
        }
      });
      return { name: item.name, pass: outcome!.pass, ...(outcome!.reason ? { reason: outcome!.reason } : {}) };
    }),
  );
  return { verdicts: outcomes.filter((verdict) => !unanswered.has(verdict.name)), unanswered: outcomes.filter((verdict) => unanswered.has(verdict.name)) };
}

/** Which of the named judged assertions already have this generation's score. */
async function scoredNames(db: Db, teamId: string, generationId: string, names: string[]): Promise<Set<string>> {
  const byId = new Map(names.map((name) => [externalIdOf(generationId, name), name]));
  const rows = await db.$queryRaw<{ external_id: string }[]>`
    SELECT external_id FROM scores WHERE team_id = ${teamId}::uuid AND external_id = ANY(${[...byId.keys()]}::text[])`;
  return new Set(rows.map((row) => byId.get(row.external_id)!));
}

/**
 * Reserves `worst` US dollars (the most the claim's judgement can cost) of the prompt's UTC day, if the
 * day is under its cap counting every claim's judging cost and every reservation still held.
 *
 * That day is today, unless the claim spent already (a judge that did not answer, retried): a claim counts its
 * whole cost on one day, the day it was first spent on (a later day taking it would count against its cap what
 * the earlier day's let in, and take it off the earlier day's), so its retry, even after midnight, reserves
 * against that day's cap and adds to that day's spend. Every judgement is thus let in by the cap of the day
 * it is counted on, and each day still ends at most one judgement's worst case over its cap.
 *
 * Jobs of any number of processes judge at once, so reading the day's spend and then judging would let
 * each of them in on the same spend. The prompt's settings row, locked for the transaction, makes the
 * read and the reservation one step per prompt: a judgement starts only with its reservation held, and
 * finishing replaces it with the real cost. The day therefore ends at most one judgement's worst case
 * over its cap (the last one let in while under it), provided no judgement costs more than its bound
 * (judgeUsageBound: each byte a token, the answer's limit). A model without a price costs nothing, as
 * its judgements' real cost is nothing to the cap.
 */
async function reserve(db: Db, promptId: string, generationId: string, worst: number, now: Date): Promise<"reserved" | "capped" | "moved"> {
  return db.$transaction(async (tx) => {
    const [settings] = await tx.$queryRaw<{ cap: number }[]>`SELECT daily_cap_usd AS cap FROM online_evaluations WHERE prompt_id = ${promptId}::uuid FOR UPDATE`;
    const [claim] = await tx.$queryRaw<{ day: string }[]>`
      SELECT (${dayOfCost(now)})::text AS day FROM online_evaluation_runs WHERE generation_id = ${generationId}::uuid AND status = 'queued'`;
    if (!claim) return "moved";
    const [spent] = await tx.$queryRaw<{ spent: number }[]>`
      SELECT coalesce(sum(cost + reserved), 0)::float8 AS spent FROM online_evaluation_runs WHERE prompt_id = ${promptId}::uuid AND day = ${claim.day}::date`;
    if (!settings || (spent?.spent ?? 0) >= settings.cap) return "capped";
    // Judging counts from this run's start (created_at, readClaim), as does the claim put back to queued after it.
    const taken = await tx.$executeRaw`
      UPDATE online_evaluation_runs SET status = 'judging', reserved = ${worst}, day = ${claim.day}::date
       WHERE generation_id = ${generationId}::uuid AND status = 'queued'`;
    return taken ? "reserved" : "moved";
  });
}

/**
 * judging → judged (or → queued, a judge not having answered): the verdicts, and what judging cost in place of the reservation
 * (added to what runs before cost, should a judge not have answered then); false if another run moved it first.
 * Their reasons stay only if the generation still stores `judged`, the output they were made from (lockJudgedText), in
 * the same transaction. The generation is held before the claim is moved, the order housekeeping's clearing takes them in
 * (the text, then its claims' reasons: a retried claim judging holds the verdicts of the run before), so either waits for
 * the other to end, never both for each other (a deadlock, which could end this run and lose the judge's verdicts).
 * Put back to queued, the claim counts from its run's start (created_at, set by readClaim), as the sweep takes it.
 */
async function recordVerdicts(
  db: Db, generationId: string, judged: string | null, verdicts: Verdict[], cost: number, to: "judged" | "queued",
): Promise<boolean> {
  return db.$transaction(async (tx) => {
    await holdGeneration(tx, generationId);
    const moved = await tx.$executeRaw`
      UPDATE online_evaluation_runs SET status = ${to}, verdicts = ${JSON.stringify(verdicts)}::jsonb, cost = cost + ${cost}, reserved = 0
       WHERE generation_id = ${generationId}::uuid AND status = 'judging'`;
    if (!moved) return false;
    // Recorded with the claim's move: nothing more to write, only reasons to clear if the text is gone.
    if (verdicts.some((verdict) => verdict.reason)) await clearReasonsUnlessStored(tx, generationId, judged);
    return true;
  }, REASONS_TIMEOUT);
}

/**
 * The verdicts as boolean scores of source `eval`, each id `online:<generation>:<name>` (written once). Their reasons,
 * the scores' comments, are written after, only if the generation still stores the output `claim` read (what the judge
 * read) in the same transaction (lockJudgedText); if not, the claim's verdicts' reasons go too.
 */
async function writeScores(db: Db, generationId: string, claim: Claimed, verdicts: Verdict[]): Promise<void> {
  const scores: ScoreDraft[] = verdicts.map((verdict) => ({
    generationId,
    promptId: claim.promptId,
    name: verdict.name,
    dataType: "boolean",
    value: verdict.pass ? 1 : 0,
    stringValue: verdict.pass ? "True" : "False",
    source: "eval",
    externalId: externalIdOf(generationId, verdict.name),
  }));
  // Written by the server itself, for the prompt whose generation this is (its own team's, as claimed).
  if (scores.length) await ingestProduction(db, commandLineCaller(), claim.teamId, { generations: [], scores });
  const reasons = verdicts.flatMap((verdict) => (verdict.reason ? [{ id: externalIdOf(generationId, verdict.name), comment: storableCut(verdict.reason, SCORE_COMMENT_MAX) }] : []));
  if (!reasons.length) return;
  await db.$transaction(
    (tx) =>
      // Only a score of this generation's still without one (written once, as the score).
      withJudgedText(tx, generationId, claim.output, () => tx.$executeRaw`
        UPDATE scores s SET comment = x.comment FROM unnest(${reasons.map((reason) => reason.id)}::text[], ${reasons.map((reason) => reason.comment)}::text[]) AS x(id, comment)
         WHERE s.team_id = ${claim.teamId}::uuid AND s.external_id = x.id AND s.generation_id = ${generationId}::uuid AND s.source = 'eval' AND s.comment IS NULL`),
    REASONS_TIMEOUT,
  );
}

/** The generation's reasons (its scores' comments, its claim's verdicts') go if it stores no text any more (lockJudgedText). */
async function clearReasonsIfTextGone(db: Db, generationId: string): Promise<void> {
  await db.$transaction((tx) => clearReasonsUnlessStored(tx, generationId, undefined), REASONS_TIMEOUT);
}

/**
 * `from` → `to` (done, its verdicts written; skipped, none); false if another run moved it first. A claim
 * that judged keeps the day it reserved on (its cost is that day's), as does a queued one that spent before
 * (dayOfCost); one that never spent takes today, and done counts among the generations evaluated today.
 */
async function finish(deps: RunDeps, generationId: string, from: "queued" | "judged", to: "done" | "skipped"): Promise<boolean> {
  const moved = await deps.db.$executeRaw`
    UPDATE online_evaluation_runs SET status = ${to}, reserved = 0, finished_at = ${sqlInstant(deps.now)},
           day = CASE WHEN status = 'queued' THEN ${dayOfCost(deps.now)} ELSE day END
     WHERE generation_id = ${generationId}::uuid AND status = ${from}`;
  return moved > 0;
}
