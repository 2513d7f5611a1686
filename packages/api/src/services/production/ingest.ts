// Production signals sent in by the teams' own code: generations (a model call made with a prompt
// version) and scores, from OpenTelemetry, the Langfuse SDKs' ingestion or /api/v1, into the key's team.
//
// The tracing SDKs' requests are answered once appended to ingest_pending (acceptProduction) and merged
// from there in batches (any process's merges, each row once); a score sent on its own is written before
// it is answered (ingestProduction). Either way one write is one transaction: the generations it names
// are locked by their observation id (so a create and an update of one generation racing in two writes
// merge instead of both inserting), their stored rows read and deleted, merged with what was sent and
// written back with COPY; the hourly rollups get the difference (the merged rows' contribution less the
// stored rows') in one upsert each. Scores are inserted in one statement, a repeat of a sender's id doing
// nothing, and linked to their generation as soon as it is known.
import { CopyText, Prisma, copyText, isStalePlan, rawStatement, rawTransaction, type Db, type RawTransaction } from "@promptly/db";
import {
  DEFAULT_ENVIRONMENT, GENERATION_TEXT_MAX_BYTES, INGEST_MSG, LATENCY_BUCKETS, bucketOf, type GenerationSource, type GenerationStatus, type ScoreDataType, type ScoreSource,
} from "@promptly/shared";
import { DomainError } from "../../errors.ts";
import { audit } from "../insight/audit.ts";
import { SCORE_COMMENT_MAX, storableCut } from "../platform/storable-text.ts";
import { promptVisibility, type Caller, type KeyCaller } from "../access/visibility.ts";
import { productionIngested } from "../platform/metrics.ts";
import { costAt, modelPricesFor } from "../models/prices.ts";
import { applyScoreRollups, scoreContribution, type LinkedScore } from "./score-rollups.ts";

/** What one event says of a generation; fields left out are kept from what is stored (or empty). */
export interface GenerationPatch {
  observationId: string;
  source: GenerationSource;
  traceId?: string;
  promptName?: string;
  version?: number | null;
  model?: string;
  environment?: string;
  startedAt?: Date;
  endedAt?: Date;
  completionStartAt?: Date;
  inputTokens?: number;
  outputTokens?: number;
  cost?: number;
  status?: GenerationStatus;
  errorMessage?: string;
  userRef?: string;
  sessionRef?: string;
  input?: unknown;
  output?: unknown;
  /** When it was sent: the start of a generation whose start was never said. */
  seenAt: Date;
}

/** A score as sent: what it judges (a generation by id or by its observation/trace id, or a run) and its value. */
export interface ScoreDraft {
  generationId?: string;
  runId?: string;
  traceId?: string;
  observationId?: string;
  environment?: string;
  name: string;
  dataType: ScoreDataType;
  value: number | null;
  stringValue: string | null;
  comment?: string;
  source: ScoreSource;
  authorUserId?: string;
  apiKeyId?: string;
  externalId?: string;
  /** Refuse (NOT_FOUND) rather than store it unlinked when its generation or run is not found. */
  mustExist?: boolean;
  /**
   * The prompt the generation or run must be of (a person scores from that prompt's page): one of
   * another prompt is not found. Checked with the rest, inside the write's transaction.
   */
  promptId?: string;
}

/** A generation as stored (its columns a merge reads and writes). */
export interface StoredGeneration {
  id: string;
  promptId: string | null;
  promptName: string;
  version: number | null;
  traceId: string | null;
  observationId: string;
  source: GenerationSource;
  model: string | null;
  environment: string;
  startedAt: Date;
  endedAt: Date | null;
  completionStartAt: Date | null;
  latencyMs: number | null;
  ttftMs: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
  cost: number | null;
  status: GenerationStatus;
  errorMessage: string | null;
  userRef: string | null;
  sessionRef: string | null;
  input: string | null;
  output: string | null;
  /** Whether the start was said by a sender (else it is when the first event came). */
  startSaid?: boolean;
  /** Whether the cost was said by a sender (else it is computed from the model's price and the tokens, again at every merge). */
  costSaid?: boolean;
}

export interface IngestResult {
  generations: number;
  scores: { id: string; linked: boolean; inserted: boolean }[];
}

/** A text cut to the team's limit at a character boundary. */
function capText(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const text = typeof value === "string" ? value : JSON.stringify(value);
  if (text === undefined) return null;
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= GENERATION_TEXT_MAX_BYTES) return text;
  return bytes.subarray(0, GENERATION_TEXT_MAX_BYTES).toString("utf8").replace(/\uFFFD+$/, "");
}

// ---- What a sender says, held to what PostgreSQL stores -------------------------------------------------
// Every way in passes here before anything is kept (and a pending row again before it is merged), so a
// value the door accepts is never one the merge's write refuses: out-of-range values are normalized, not
// refused (an SDK told "rejected" may retry forever; one told "accepted" must see its data).

const INT4_MAX = 2_147_483_647;
/** The largest cost or score value kept (either sign): their squares are summed in float8, which overflows past 1.8e308. */
const AMOUNT_MAX = 1e100;
/** Times kept: years 1 to 9999 (PostgreSQL has no year 0, and COPY's text takes a four-digit year); others are not said. */
const TIME_MIN = Date.parse("0001-01-01T00:00:00.000Z");
const TIME_MAX = Date.parse("9999-12-31T23:59:59.999Z");
/**
 * Texts' lengths (UTF-16 code units, as Langfuse's schema counts them, which holds its senders to these):
 * ids, model and environment are in btree indexes, whose entries hold some 2,700 bytes at most.
 */
const TEXT_MAX = { id: 200, model: 200, environment: 100, promptName: 500, ref: 500, errorMessage: 5_000, scoreName: 200, stringValue: 1_000, comment: SCORE_COMMENT_MAX } as const;
const textOf = <T extends string | null | undefined>(value: T, max: number): T => (typeof value === "string" ? (storableCut(value, max) as T) : value);
/** A count (tokens): a negative one or not a number is not said; one beyond int4 is its largest. */
const countOf = (value: number | undefined) => (value === undefined ? undefined : Number.isFinite(value) && value >= 0 ? Math.min(Math.round(value), INT4_MAX) : undefined);
/** A prompt version: an integer from 1 to int4's largest, else none said (the generation is stored unlinked). */
const versionOf = (value: number | null | undefined) => (value === undefined || value === null ? value : Number.isInteger(value) && value >= 1 && value <= INT4_MAX ? value : null);
/** An amount (cost, score value) within ±AMOUNT_MAX (a sum of parts that overflowed to Infinity included); NaN: not said. */
const amountOf = <T extends number | null | undefined>(value: T): T | undefined =>
  typeof value !== "number" ? value : Number.isNaN(value) ? undefined : (Math.min(AMOUNT_MAX, Math.max(-AMOUNT_MAX, value)) as T);
/** A time PostgreSQL stores, or not said. */
const timeOf = (value: Date | undefined) => (value === undefined ? undefined : value.getTime() >= TIME_MIN && value.getTime() <= TIME_MAX ? value : undefined);
/**
 * How far ahead of our clock a generation's start (or when it was sent) may be: a sender's clock a little
 * ahead is kept, one further ahead (a year 9999 start) is not said, and the time it was received stands for
 * it. Generations are partitioned by month of their start, and one far ahead would stay in the default
 * partition for good. Checked against our clock whenever a patch is normalized (again at its merge, later:
 * a start accepted when received still is).
 */
const FUTURE_MAX_MS = 86_400_000;
/** A start (or a send time): a time stored, no more than FUTURE_MAX_MS ahead of now; else not said. */
const startOf = (value: Date | undefined) => {
  const time = timeOf(value);
  return time && time.getTime() <= Date.now() + FUTURE_MAX_MS ? time : undefined;
};

/** A generation event held to what is stored (in place: every ingested span passes here). */
function normalizePatch(patch: GenerationPatch) {
  patch.observationId = storableCut(patch.observationId, TEXT_MAX.id);
  patch.traceId = textOf(patch.traceId, TEXT_MAX.id);
  patch.promptName = textOf(patch.promptName, TEXT_MAX.promptName);
  patch.version = versionOf(patch.version);
  patch.model = textOf(patch.model, TEXT_MAX.model);
  patch.environment = textOf(patch.environment, TEXT_MAX.environment);
  patch.startedAt = startOf(patch.startedAt);
  patch.endedAt = timeOf(patch.endedAt);
  patch.completionStartAt = timeOf(patch.completionStartAt);
  patch.inputTokens = countOf(patch.inputTokens);
  patch.outputTokens = countOf(patch.outputTokens);
  patch.cost = amountOf(patch.cost);
  patch.errorMessage = textOf(patch.errorMessage, TEXT_MAX.errorMessage);
  patch.userRef = textOf(patch.userRef, TEXT_MAX.ref);
  patch.sessionRef = textOf(patch.sessionRef, TEXT_MAX.ref);
  // When it came stands for a start not said: a sender's clock out of range (or far ahead) is replaced by ours.
  if (!startOf(patch.seenAt)) patch.seenAt = new Date();
}

/** A score held to what is stored (in place). */
function normalizeScore(score: ScoreDraft) {
  score.traceId = textOf(score.traceId, TEXT_MAX.id);
  score.observationId = textOf(score.observationId, TEXT_MAX.id);
  score.externalId = textOf(score.externalId, TEXT_MAX.id);
  score.environment = textOf(score.environment, TEXT_MAX.environment);
  score.name = storableCut(score.name, TEXT_MAX.scoreName);
  score.value = amountOf(score.value) ?? null;
  score.stringValue = textOf(score.stringValue, TEXT_MAX.stringValue);
  score.comment = textOf(score.comment, TEXT_MAX.comment);
}

function normalizeSent(sent: Sent): Sent {
  for (const patch of sent.generations) normalizePatch(patch);
  for (const score of sent.scores) normalizeScore(score);
  return sent;
}

const msBetween = (from: Date | null, to: Date | null) => (from && to ? Math.max(0, to.getTime() - from.getTime()) : null);
const defined = <T>(value: T | undefined, fallback: T): T => (value === undefined ? fallback : value);

/** Folds the patches of one generation (in the order sent) over what is stored of it. */
function merge(stored: StoredGeneration | undefined, patches: GenerationPatch[], keepText: boolean): StoredGeneration {
  const first = patches[0]!;
  // One row written in place (a copy of the stored one): every ingested span passes here.
  const row: StoredGeneration = stored ? { ...stored } : {
    id: crypto.randomUUID(), promptId: null, promptName: "", version: null, traceId: null, observationId: first.observationId, source: first.source,
    model: null, environment: DEFAULT_ENVIRONMENT, startedAt: first.seenAt, endedAt: null, completionStartAt: null, latencyMs: null, ttftMs: null,
    inputTokens: null, outputTokens: null, cost: null, status: "ok", errorMessage: null, userRef: null, sessionRef: null, input: null, output: null,
    startSaid: false, costSaid: false,
  };
  // A team that keeps no text keeps none of what was stored before either (turned off since: being cleared).
  if (!keepText) {
    row.input = null;
    row.output = null;
  }
  for (const patch of patches) {
    // A prompt named again (or first) replaces the link: it is resolved again below.
    if (patch.promptName !== undefined) {
      row.promptName = patch.promptName;
      row.version = patch.version ?? null;
      row.promptId = null;
    }
    row.traceId = defined(patch.traceId, row.traceId);
    row.model = defined(patch.model, row.model);
    row.environment = defined(patch.environment, row.environment);
    row.startSaid = row.startSaid || patch.startedAt !== undefined;
    row.startedAt = patch.startedAt ?? row.startedAt;
    row.endedAt = defined(patch.endedAt, row.endedAt);
    row.completionStartAt = defined(patch.completionStartAt, row.completionStartAt);
    row.inputTokens = defined(patch.inputTokens, row.inputTokens);
    row.outputTokens = defined(patch.outputTokens, row.outputTokens);
    row.costSaid = row.costSaid || patch.cost !== undefined;
    row.cost = defined(patch.cost, row.cost);
    row.status = defined(patch.status, row.status);
    row.errorMessage = defined(patch.errorMessage, row.errorMessage);
    row.userRef = defined(patch.userRef, row.userRef);
    row.sessionRef = defined(patch.sessionRef, row.sessionRef);
    if (keepText && patch.input !== undefined) row.input = capText(patch.input);
    if (keepText && patch.output !== undefined) row.output = capText(patch.output);
  }
  row.latencyMs = msBetween(row.startedAt, row.endedAt);
  row.ttftMs = msBetween(row.startedAt, row.completionStartAt);
  return row;
}

/** A rollup row's figures: the sum of its generations' parts (a stored row's taken out, the merged one's put in). */
interface GenerationDelta {
  prompt_id: string;
  version: number;
  environment: string;
  model: string;
  hour: string;
  generations: number;
  errors: number;
  latency_sum: number;
  latency_count: number;
  ttft_sum: number;
  ttft_count: number;
  latency_hist: number[];
  ttft_hist: number[];
  input_tokens: number;
  output_tokens: number;
  token_count: number;
  cost: number;
  cost_count: number;
  cost_sum_squares: number;
}

/**
 * The hourly rollups' changes of one write, summed per prompt version, environment, model and hour as
 * each generation's part is added (times `sign`: -1 takes a stored row's part out): one small object
 * per rollup row, not one per generation, on the path every ingested span takes.
 */
class GenerationDeltas {
  private readonly byKey = new Map<string, GenerationDelta>();

  add(row: StoredGeneration, sign: 1 | -1) {
    const model = row.model ?? "";
    // The hour as a number in the key, its text made once per rollup row (toISOString is most of a key's cost).
    const hourMs = Math.floor(row.startedAt.getTime() / 3_600_000) * 3_600_000;
    const key = `${row.promptId}\u0000${row.version}\u0000${row.environment}\u0000${model}\u0000${hourMs}`;
    let sum = this.byKey.get(key);
    if (!sum) {
      const hour = new Date(hourMs).toISOString();
      const empty = () => new Array<number>(LATENCY_BUCKETS.length + 1).fill(0);
      sum = {
        prompt_id: row.promptId!, version: row.version!, environment: row.environment, model, hour, generations: 0, errors: 0, latency_sum: 0, latency_count: 0,
        ttft_sum: 0, ttft_count: 0, latency_hist: empty(), ttft_hist: empty(), input_tokens: 0, output_tokens: 0, token_count: 0, cost: 0, cost_count: 0,
        cost_sum_squares: 0,
      };
      this.byKey.set(key, sum);
    }
    sum.generations += sign;
    if (row.status === "error") sum.errors += sign;
    if (row.latencyMs !== null) {
      sum.latency_sum += sign * row.latencyMs;
      sum.latency_count += sign;
      sum.latency_hist[bucketOf(row.latencyMs)]! += sign;
    }
    if (row.ttftMs !== null) {
      sum.ttft_sum += sign * row.ttftMs;
      sum.ttft_count += sign;
      sum.ttft_hist[bucketOf(row.ttftMs)]! += sign;
    }
    sum.input_tokens += sign * (row.inputTokens ?? 0);
    sum.output_tokens += sign * (row.outputTokens ?? 0);
    if (row.inputTokens !== null || row.outputTokens !== null) sum.token_count += sign;
    if (row.cost !== null) {
      sum.cost += sign * row.cost;
      sum.cost_count += sign;
      sum.cost_sum_squares += sign * row.cost ** 2;
    }
  }

  /** The sums, in one order for every request: two transactions upserting the same hours cannot deadlock. */
  sorted(): GenerationDelta[] {
    return [...this.byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, delta]) => delta);
  }
}

async function applyGenerationRollups(tx: RawTransaction, deltas: GenerationDelta[]) {
  if (!deltas.length) return;
  await tx.query(Prisma.sql`
    INSERT INTO generation_rollups AS r (prompt_id, version, environment, model, hour, generations, errors, latency_sum, latency_count,
      ttft_sum, ttft_count, latency_hist, ttft_hist, input_tokens, output_tokens, token_count, cost, cost_count, cost_sum_squares)
    SELECT prompt_id, version, environment, model, hour, generations, errors, latency_sum, latency_count, ttft_sum, ttft_count,
      latency_hist, ttft_hist, input_tokens, output_tokens, token_count, cost, cost_count, cost_sum_squares
      FROM jsonb_to_recordset(${JSON.stringify(deltas)}::jsonb) AS x(prompt_id uuid, version int, environment text, model text, hour timestamptz,
        generations int, errors int, latency_sum float8, latency_count int, ttft_sum float8, ttft_count int, latency_hist int[], ttft_hist int[],
        input_tokens bigint, output_tokens bigint, token_count int, cost float8, cost_count int, cost_sum_squares float8)
    ON CONFLICT (prompt_id, version, environment, model, hour) DO UPDATE SET
      generations = r.generations + EXCLUDED.generations, errors = r.errors + EXCLUDED.errors,
      latency_sum = r.latency_sum + EXCLUDED.latency_sum, latency_count = r.latency_count + EXCLUDED.latency_count,
      ttft_sum = r.ttft_sum + EXCLUDED.ttft_sum, ttft_count = r.ttft_count + EXCLUDED.ttft_count,
      latency_hist = production_hist_add(r.latency_hist, EXCLUDED.latency_hist), ttft_hist = production_hist_add(r.ttft_hist, EXCLUDED.ttft_hist),
      input_tokens = r.input_tokens + EXCLUDED.input_tokens, output_tokens = r.output_tokens + EXCLUDED.output_tokens,
      token_count = coalesce(r.token_count, r.generations) + EXCLUDED.token_count, cost = r.cost + EXCLUDED.cost,
      cost_count = r.cost_count + EXCLUDED.cost_count, cost_sum_squares = r.cost_sum_squares + EXCLUDED.cost_sum_squares`);
}

/**
 * The prompt versions `caller` reads among the names and versions asked: "name\u0000version" → prompt id.
 * A name or version the caller's team does not read (another team's, private, archived, unknown) is absent.
 */
async function readablePromptVersions(tx: RawTransaction, caller: Caller, asked: { name: string; version: number }[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  if (!asked.length) return found;
  const { joins, visible } = promptVisibility(caller);
  const names = [...new Set(asked.map((pair) => pair.name))];
  const versions = [...new Set(asked.map((pair) => pair.version))];
  const rows = await tx.query<{ id: string; name: string; version: number }>(Prisma.sql`
    SELECT p.id, p.name, v.version FROM prompts p JOIN prompt_versions v ON v.prompt_id = p.id AND v.version = ANY(${versions}::int[])
      ${joins}
     WHERE ${visible} AND p.name = ANY(${names}::text[])`);
  for (const row of rows) found.set(`${row.name}\u0000${row.version}`, row.id);
  return found;
}

const GENERATION_COLUMNS = [
  "id", "organization_id", "team_id", "prompt_id", "prompt_name", "version", "trace_id", "observation_id", "source", "model", "environment", "started_at",
  "ended_at", "completion_start_at", "latency_ms", "ttft_ms", "input_tokens", "output_tokens", "cost", "status", "error_message", "user_ref", "session_ref",
  "input", "output",
] as const;

/** The generations to write as COPY's text: one line each, its values in GENERATION_COLUMNS' order. */
function copyRowsOf(rows: StoredGeneration[], organizationId: string, teamId: string): Buffer {
  // A line a row, written into the bytes as it goes (no array of values per row: every span's row passes here).
  const team = `${copyText(organizationId)}\t${copyText(teamId)}\t`;
  const text = new CopyText(rows.length * 400);
  for (const row of rows) {
    text.add(`${copyText(row.id)}\t${team}${copyText(row.promptId)}\t${copyText(row.promptName)}\t${copyText(row.version)}\t${copyText(row.traceId)}\t` +
      `${copyText(row.observationId)}\t${copyText(row.source)}\t${copyText(row.model)}\t${copyText(row.environment)}\t${copyText(row.startedAt)}\t` +
      `${copyText(row.endedAt)}\t${copyText(row.completionStartAt)}\t${copyText(row.latencyMs)}\t${copyText(row.ttftMs)}\t${copyText(row.inputTokens)}\t` +
      `${copyText(row.outputTokens)}\t${copyText(row.cost)}\t${copyText(row.status)}\t${copyText(row.errorMessage)}\t${copyText(row.userRef)}\t` +
      `${copyText(row.sessionRef)}\t${copyText(row.input)}\t${copyText(row.output)}\n`);
  }
  return text.bytes();
}

/**
 * Where the stored rows of these generations can be, when every one says its start: no earlier than a
 * day before the earliest (a row stored from an update that came first holds when it came, after the
 * start, a sender's clock ahead of ours by less than a day), so the probe reads the recent months'
 * partitions, not every one kept. A generation sent without its start may be stored anywhere.
 */
function startedSince(patches: GenerationPatch[]): Prisma.Sql {
  let earliest = Infinity;
  for (const patch of patches) {
    if (!patch.startedAt) return Prisma.empty;
    earliest = Math.min(earliest, patch.startedAt.getTime());
  }
  return Prisma.sql`AND started_at >= ${new Date(earliest - 86_400_000)}::timestamptz`;
}

interface Sent {
  generations: GenerationPatch[];
  scores: ScoreDraft[];
}

/** A request waiting for its batch: what it sent, and how it hears the outcome. */
interface Waiting {
  caller: Caller;
  sent: Sent;
  resolve: (result: IngestResult) => void;
  reject: (error: unknown) => void;
}

/** Generations of one batch at the most: each takes two advisory locks for its transaction (see MERGE_MAX_LOCKS). */
const BATCH_MAX_GENERATIONS = 1_000;
/** Batches of one process written at once: one filling while another commits keeps both sides busy. */
const BATCHES_AT_ONCE = 2;

/** Per database client: the requests waiting, by team and key, and the batches being written. */
const queues = new WeakMap<Db, { waiting: Map<string, Waiting[]>; writing: number }>();

/**
 * Writes what one request sent, for the caller's team (`teamId`): the generations merged by
 * observation id, the scores (a repeat of a sender's id is a no-op), the rollups. Unknown prompts are
 * stored unlinked. Resolves once committed, so what is acknowledged is durable.
 *
 * Requests of one key that arrive while a batch is being written are written together in the next
 * one (a group commit): many exporters sending 100 spans each share one transaction, its locks and
 * its rollup upserts, instead of each taking its own and queueing on the same rollup rows. A request
 * that must find its generation or run (a person's or the REST API's score) is written alone, and so
 * is each request of a batch that failed, so one request's refusal is never another's.
 */
export function ingestProduction(db: Db, caller: Caller, teamId: string, sent: Sent): Promise<IngestResult> {
  normalizeSent(sent);
  if (!caller.apiKey || sent.scores.some((score) => score.mustExist)) return writeProduction(db, caller, teamId, sent);
  let queue = queues.get(db);
  if (!queue) queues.set(db, (queue = { waiting: new Map(), writing: 0 }));
  const key = `${teamId}\u0000${caller.apiKey.id}`;
  const promise = new Promise<IngestResult>((resolve, reject) => {
    const list = queue.waiting.get(key);
    const waiting = { caller, sent, resolve, reject };
    if (list) list.push(waiting);
    else queue.waiting.set(key, [waiting]);
  });
  drain(db, queue);
  return promise;
}

/** Starts writing the next batch while fewer than BATCHES_AT_ONCE are being written. */
function drain(db: Db, queue: { waiting: Map<string, Waiting[]>; writing: number }) {
  while (queue.writing < BATCHES_AT_ONCE && queue.waiting.size) {
    const [key, list] = queue.waiting.entries().next().value!;
    // Whole requests up to the batch's size (a request larger than it goes alone).
    let count = 0;
    let taken = 0;
    while (taken < list.length && (taken === 0 || count + list[taken]!.sent.generations.length <= BATCH_MAX_GENERATIONS)) {
      count += list[taken]!.sent.generations.length;
      taken += 1;
    }
    const batch = list.splice(0, taken);
    if (!list.length) queue.waiting.delete(key);
    queue.writing += 1;
    void writeBatch(db, key.split("\u0000")[0]!, batch).finally(() => {
      queue.writing -= 1;
      drain(db, queue);
    });
  }
}

async function writeBatch(db: Db, teamId: string, batch: Waiting[]) {
  if (batch.length === 1) {
    const [only] = batch;
    await writeProduction(db, only!.caller, teamId, only!.sent).then(only!.resolve, only!.reject);
    return;
  }
  let result: IngestResult & { written: Set<string> };
  try {
    result = await writeProduction(db, batch[0]!.caller, teamId, {
      generations: batch.flatMap((waiting) => waiting.sent.generations),
      scores: batch.flatMap((waiting) => waiting.sent.scores),
    });
  } catch {
    // Each alone: the one that failed hears why, the others are written.
    await Promise.all(batch.map((waiting) => writeProduction(db, waiting.caller, teamId, waiting.sent).then(waiting.resolve, waiting.reject)));
    return;
  }
  let offset = 0;
  for (const waiting of batch) {
    const ids = new Set(waiting.sent.generations.map((patch) => patch.observationId));
    const scores = result.scores.slice(offset, offset + waiting.sent.scores.length);
    offset += waiting.sent.scores.length;
    waiting.resolve({ generations: [...ids].filter((id) => result.written.has(id)).length, scores });
  }
}

// ---- Accepted at once, written in batches: the tracing SDKs' requests ----------------------------------

/** How a request accepted for a later merge counts on /metrics once merged. */
export interface Accepted {
  source: "otel" | "langfuse";
  /** Spans that named no prompt: dropped at once, counted once the rest is merged. */
  dropped: number;
}

/** An appended request waiting for its append's statement. */
interface Appending {
  caller: KeyCaller;
  sent: Sent;
  accepted: Accepted;
  resolve: () => void;
  reject: (error: unknown) => void;
  /** Its batch failed: appended alone now. */
  alone?: boolean;
}

/** Requests appended in one statement at the most. */
const APPEND_MAX_ROWS = 50;
/** Appended requests merged in one transaction at the most (each up to a few hundred generations). */
const MERGE_MAX_ROWS = 10;
/** Merges of one process at once: one committing while another reads and writes. */
const MERGES_AT_ONCE = 2;
/** A team whose row failed to merge alone waits this long before its next try here, doubling up to the most. */
const MERGE_HOLD_BACK_MS = 1_000;
const MERGE_HOLD_BACK_MAX_MS = 60_000;
/**
 * A request that failed alone this many times for a cause that does not pass by itself (not a lost
 * connection, a timeout, a conflict, the database short of something, code ahead of its migration) is
 * set aside (kept, not merged) so its team's other requests go on: about three minutes of tries with
 * the hold-backs above, in one process.
 */
const MERGE_SET_ASIDE_ATTEMPTS = 8;
/**
 * A request that has failed alone for this long (since its first failure, kept on its row), passing
 * causes included, is set aside too: a cause taken for passing may not pass (code deployed ahead of a
 * migration that never comes, a fault of ours that throws a network-like error) and must not hold its
 * team back for good. A database restart or a migration window of about an hour passes well within it,
 * however many servers try it meanwhile.
 */
const MERGE_SET_ASIDE_AFTER_MS = 2 * 60 * 60_000;
/**
 * A request that failed alone this many times in all is set aside however short a time they took: a
 * backstop for tries far faster than the hold-backs allow. One server tries a held-back team about once
 * a minute (the hold-backs above, and the sweep), about 120 tries in MERGE_SET_ASIDE_AFTER_MS: it takes
 * more than eight servers trying it (or processes restarting over and over, their hold-backs lost) for
 * this to come first (at 120, its value before the time rule, two servers set a request aside in an hour).
 */
const MERGE_SET_ASIDE_ANY_ATTEMPTS = 1_000;
/** What ingest_pending.last_error keeps of a failure at the most. */
const LAST_ERROR_MAX_CHARS = 500;
/**
 * A merge waits this long for more requests when fewer than MERGE_NOW_GENERATIONS are waiting: a merge
 * costs a dozen round trips whatever its size, so at a trickle of small requests one merge of many
 * instead of one each spares the database and the runtime beside it; the figures lag by this at most.
 * Requests appended while merges run wait for the next delayed merge too (merges do not chase each one):
 * at 1,000 spans/s in requests of 100, a merge every 2 s takes twenty requests where one every 0.5 s
 * took five or fewer. ingestSettled (a stop, a test) starts a waiting merge at once.
 */
const MERGE_DELAY_MS = 2_000;
const MERGE_NOW_GENERATIONS = 1_000;
/** How often a process looks for rows no merge is coming for (appended by a process that stopped). */
const MERGE_SWEEP_MS = 5_000;

interface MergeState {
  appending: Appending[];
  /** The append running, if any (one at a time: the others wait and share the next). */
  appendRunning: Promise<void> | null;
  /** The merges running. */
  merging: Set<Promise<void>>;
  /** Rows were appended since the running merges last looked. */
  dirty: boolean;
  /** Generations this process appended since its merges last looked. */
  unmerged: number;
  /** A merge waiting for more requests (MERGE_DELAY_MS): `started` resolves once it has started; `now` starts it at once. */
  delayed: { started: Promise<void>; now: () => void } | null;
  /** Teams whose row failed to merge alone: not tried here again before `at`. */
  heldBack: Map<string, { at: number; delay: number }>;
  /** Stopping: the merges running end after their transaction, and none starts. */
  stopping: boolean;
  onError: (error: unknown) => void;
  /** Merges run elsewhere (a thread of this process: mergeElsewhere), told of what is appended here; null: here. */
  elsewhere: MergesElsewhere | null;
}

/** Where this process's appends are merged when not on its own thread: see mergeElsewhere. */
interface MergesElsewhere {
  /** `generations` more were appended: merged soon (at once past MERGE_NOW_GENERATIONS waiting there). */
  appended(generations: number): void;
}
const mergeStates = new WeakMap<Db, MergeState>();
const mergeStateOf = (db: Db) => {
  let state = mergeStates.get(db);
  if (!state) mergeStates.set(db, (state = { appending: [], appendRunning: null, merging: new Set(), dirty: false, unmerged: 0, delayed: null, heldBack: new Map(), stopping: false, onError: () => undefined, elsewhere: null }));
  return state;
};

/**
 * A patch as a pending row keeps it: its fields in a fixed order, dates as epoch milliseconds, `null`
 * for a field not said (undefined) and `false` for a text said to be null. Several times cheaper to
 * write and read than the patch as a JSON object (its dates' text above all), and about half the size.
 */
type PackedPatch = (string | number | boolean | null)[];
const ms = (date: Date | undefined) => (date === undefined ? null : date.getTime());
const date = (value: PackedPatch[number] | undefined) => (typeof value === "number" ? new Date(value) : undefined);
const orNull = <T>(value: T | undefined) => (value === undefined ? null : value);
const said = <T>(value: T | null) => (value === null ? undefined : value);
const packText = (value: unknown) => (value === undefined ? null : value === null ? false : (value as string));
const unpackText = (value: PackedPatch[number] | undefined) => (value === null || value === undefined ? undefined : value === false ? null : value);

function packPatch(patch: GenerationPatch): PackedPatch {
  return [
    patch.observationId, patch.source, orNull(patch.traceId), orNull(patch.promptName), orNull(patch.version), orNull(patch.model), orNull(patch.environment),
    ms(patch.startedAt), ms(patch.endedAt), ms(patch.completionStartAt), orNull(patch.inputTokens), orNull(patch.outputTokens), orNull(patch.cost),
    orNull(patch.status), orNull(patch.errorMessage), orNull(patch.userRef), orNull(patch.sessionRef), packText(patch.input), packText(patch.output),
    patch.seenAt.getTime(),
  ];
}

function unpackPatch(packed: PackedPatch): GenerationPatch {
  const [observationId, source, traceId, promptName, version, model, environment, startedAt, endedAt, completionStartAt, inputTokens, outputTokens, cost,
    status, errorMessage, userRef, sessionRef, input, output, seenAt] = packed;
  return {
    observationId: observationId as string, source: source as GenerationSource, traceId: said(traceId as string | null), promptName: said(promptName as string | null),
    version: said(version as number | null), model: said(model as string | null), environment: said(environment as string | null), startedAt: date(startedAt),
    endedAt: date(endedAt), completionStartAt: date(completionStartAt), inputTokens: said(inputTokens as number | null), outputTokens: said(outputTokens as number | null),
    cost: said(cost as number | null), status: said(status as GenerationStatus | null), errorMessage: said(errorMessage as string | null), userRef: said(userRef as string | null),
    sessionRef: said(sessionRef as string | null), input: unpackText(input), output: unpackText(output), seenAt: new Date(seenAt as number),
  };
}

/** What a pending row keeps of a request: its patches packed, its scores as sent. */
export const writeSent = (sent: Sent) => JSON.stringify({ generations: sent.generations.map(packPatch), scores: sent.scores });
const readSent = (text: string): Sent => {
  const stored = JSON.parse(text) as { generations: PackedPatch[]; scores: ScoreDraft[] };
  return { generations: stored.generations.map(unpackPatch), scores: stored.scores };
};

/**
 * Accepts what a tracing SDK sent (OTLP spans, a Langfuse ingestion batch) for the key's team: appended
 * to `ingest_pending` and committed, so it is durable when this resolves and the sender is answered;
 * merged into generations and scores (ingestProduction's write) by this process's merges right after,
 * in batches of many requests, or by any process's if this one stops first. Under load the answer does
 * not wait for the merge, so a sender's throughput is that of the append; what it sent shows once merged
 * (milliseconds when the merges keep up). Requests arriving while an append runs share the next one.
 */
export async function acceptProduction(db: Db, caller: KeyCaller, sent: Sent, accepted: Accepted): Promise<void> {
  normalizeSent(sent);
  // A pending row holds no more text than the generation will: none where the team keeps none, else capped.
  const keepText = sent.generations.some((patch) => patch.input !== undefined || patch.output !== undefined) && (await teamKeepsText(db, caller.apiKey.teamId));
  for (const patch of sent.generations) {
    if (patch.input !== undefined) patch.input = keepText ? capText(patch.input) : undefined;
    if (patch.output !== undefined) patch.output = keepText ? capText(patch.output) : undefined;
  }
  const state = mergeStateOf(db);
  const promise = new Promise<void>((resolve, reject) => state.appending.push({ caller, sent, accepted, resolve, reject }));
  startAppend(db, state);
  return promise;
}

/** Teams' "keep generation text" as read lately (per process, for TEXT_SETTING_MS): asked of every request sending text. */
const keepsText = new Map<string, { keep: boolean; at: number }>();
const TEXT_SETTING_MS = 10_000;

/**
 * Whether the team keeps generation text, as read at most TEXT_SETTING_MS ago. The merge decides with
 * the setting as it is then: text appended under "keep" just after it was turned off is dropped there;
 * text sent in the seconds after it was turned on may be dropped here (this process had not read it yet).
 */
async function teamKeepsText(db: Db, teamId: string): Promise<boolean> {
  const known = keepsText.get(teamId);
  if (known && Date.now() - known.at < TEXT_SETTING_MS) return known.keep;
  const [team] = await rawStatement<{ keep: boolean }>(db, Prisma.sql`SELECT keep_generation_text AS keep FROM teams WHERE id = ${teamId}::uuid`);
  if (keepsText.size >= 10_000) keepsText.clear();
  keepsText.set(teamId, { keep: team?.keep ?? false, at: Date.now() });
  return team?.keep ?? false;
}

/** The team's text setting changed: read again by this process's next request. */
export function forgetTeamTextSetting(teamId: string) {
  keepsText.delete(teamId);
}

/**
 * Shards of a team's pending requests, merged apart (one merge of a shard at a time, in the order its
 * rows came): a generation's events always fall in one shard (by its observation id), so they are
 * applied in the order sent, while a team's two shards are merged at once (the database works on one
 * while this process prepares the other).
 */
const SHARDS = 2;
export const shardOf = (key: string | undefined) => {
  if (!key) return 0;
  let hash = 0;
  for (let index = 0; index < key.length; index++) hash = (hash * 31 + key.charCodeAt(index)) | 0;
  return Math.abs(hash) % SHARDS;
};

/**
 * Generations and scores a pending row holds at the most: a larger request is appended as several rows of
 * each shard, in order (its generations, then its scores, which so come after the generations they name).
 * A merge takes a lock per generation and per trace, and PostgreSQL's lock table holds some 10,000 to
 * 20,000 for all its transactions at once (with the default max_locks_per_transaction of 64): a request of
 * 24,000 spans of as many traces (12,000 a shard), merged whole, ran out of it and failed every time (other
 * transactions of the server with it), until it was set aside. A merge takes whole rows, up to MERGE_MAX_LOCKS.
 */
const PENDING_ROW_MAX_ITEMS = 250;

/**
 * What a request sent, as its pending rows: by shard (its generations by their observation id, its scores by
 * theirs, shard 0 when they name none), each shard's cut in rows of PENDING_ROW_MAX_ITEMS at the most.
 * `first`: the row that counts the request's dropped spans (there is always one, in shard 0: a request whose
 * spans all named no prompt still counts them once merged).
 */
export function pendingRowsOf(sent: Sent): { shard: number; sent: Sent; first: boolean }[] {
  const parts = Array.from({ length: SHARDS }, (): Sent => ({ generations: [], scores: [] }));
  for (const patch of sent.generations) parts[shardOf(patch.observationId)]!.generations.push(patch);
  for (const score of sent.scores) parts[shardOf(score.observationId)]!.scores.push(score);
  return parts.flatMap((part, shard) => {
    const rows: { shard: number; sent: Sent; first: boolean }[] = [];
    for (let at = 0; at < part.generations.length; at += PENDING_ROW_MAX_ITEMS) {
      rows.push({ shard, sent: { generations: part.generations.slice(at, at + PENDING_ROW_MAX_ITEMS), scores: [] }, first: false });
    }
    // The scores fill the last row of generations first, then rows of their own.
    let scoresAt = 0;
    const last = rows.at(-1);
    if (last) {
      scoresAt = Math.min(part.scores.length, PENDING_ROW_MAX_ITEMS - last.sent.generations.length);
      last.sent.scores = part.scores.slice(0, scoresAt);
    }
    for (; scoresAt < part.scores.length; scoresAt += PENDING_ROW_MAX_ITEMS) {
      rows.push({ shard, sent: { generations: [], scores: part.scores.slice(scoresAt, scoresAt + PENDING_ROW_MAX_ITEMS) }, first: false });
    }
    if (shard === 0 && !rows.length) rows.push({ shard, sent: part, first: false });
    if (shard === 0) rows[0]!.first = true;
    return rows;
  });
}

const isForeignKeyViolation = (error: unknown) => (error as { code?: unknown } | null)?.code === "23503";

/** Starts the append unless one runs (it takes what waits when it ends: nothing is left behind). */
function startAppend(db: Db, state: MergeState) {
  if (state.appendRunning || !state.appending.length) return;
  state.appendRunning = appendWaiting(db, state).finally(() => {
    state.appendRunning = null;
    startAppend(db, state);
  });
}

async function appendWaiting(db: Db, state: MergeState) {
  while (state.appending.length) {
    const batch = state.appending[0]!.alone ? state.appending.splice(0, 1) : state.appending.splice(0, APPEND_MAX_ROWS);
    try {
      // A row's values as parameters of their own: a text array parameter would be escaped character by character.
      const rows = batch.flatMap((item) =>
        pendingRowsOf(item.sent).map(({ shard, sent, first }) =>
          Prisma.sql`(${item.caller.apiKey.teamId}::uuid, ${shard}::smallint, ${JSON.stringify(item.caller)}::jsonb, ${item.accepted.source}, ${writeSent(sent)},
                      ${first ? item.accepted.dropped : 0}::int, ${sent.generations.length}::int)`));
      await rawStatement(db, Prisma.sql`INSERT INTO ingest_pending (team_id, shard, caller, source, sent, dropped, generations) VALUES ${Prisma.join(rows)}`);
    } catch (error) {
      // Each alone: one request's failure (its team deleted meanwhile) is not the others'.
      if (batch.length > 1) state.appending.unshift(...batch.map((item) => ({ ...item, alone: true })));
      // The key's team was deleted after the key was read: the sender hears 404, never a 500.
      else batch[0]!.reject(isForeignKeyViolation(error) ? new DomainError("NOT_FOUND", INGEST_MSG.teamNotFound) : error);
      continue;
    }
    for (const item of batch) item.resolve();
    state.dirty = true;
    state.unmerged += batch.reduce((sum, item) => sum + item.sent.generations.length, 0);
    mergeSoon(db, state);
  }
}

/** Many generations waiting: merged at once (a merge a shard); a few: by a merge a moment later (MERGE_DELAY_MS). */
function mergeSoon(db: Db, state: MergeState) {
  if (state.elsewhere) {
    state.elsewhere.appended(state.unmerged);
    state.unmerged = 0;
    state.dirty = false;
    return;
  }
  if (state.unmerged >= MERGE_NOW_GENERATIONS) return startMerges(db, state);
  if (state.delayed) return;
  let now = () => {};
  const started = new Promise<void>((resolve) => {
    // Not holding a stopping process open: its stop (ingestSettled) starts the merge itself.
    const timer = setTimeout(resolve, MERGE_DELAY_MS).unref();
    now = () => {
      clearTimeout(timer);
      resolve();
    };
  }).then(() => {
    state.delayed = null;
    startMerges(db, state);
  });
  state.delayed = { started, now };
}

/** Starts merging (up to MERGES_AT_ONCE at once) until no row is left that no other merge holds. */
function startMerges(db: Db, state: MergeState) {
  while (!state.stopping && state.merging.size < MERGES_AT_ONCE) {
    const merging: Promise<void> = (async () => {
      while (!state.stopping) {
        state.dirty = false;
        state.unmerged = 0;
        if (!(await mergeOnce(db, state))) break;
      }
    })()
      .catch((error: unknown) => state.onError(error))
      .finally(() => {
        state.merging.delete(merging);
        // Rows appended (or swept) while it was ending (it had looked already): merged soon.
        if (state.dirty) mergeSoon(db, state);
      });
    state.merging.add(merging);
  }
}

/**
 * A merge's transaction: the same statements every time, run on their generic plans (planning them each time cost more
 * than running them). Only merges: they run several times a second under load, where a direct write (a score sent to
 * the API, a thumbs) is one request's.
 */
const MERGE_TRANSACTION = { genericPlans: true };

interface PendingRow {
  id: string;
  caller: KeyCaller;
  source: Accepted["source"];
  sent: string;
  dropped: number;
  generations: number;
}

/** Each merged row with what it sent and wrote; `putBack`: it leaves the aside set (put back by ingest-retry and failed no more since, or set aside by another process meanwhile). */
type Merged = { row: PendingRow; sent: Sent; result: IngestResult & { written: Set<string> }; putBack: boolean }[];

/**
 * Merges the oldest appended requests of one team's shard, in the order they were appended: the shard
 * whose oldest row is oldest among those no merge of any process holds (a lock per shard: one merge of
 * a shard at a time, so a generation's create and update sent in two requests are applied in that
 * order), up to MERGE_MAX_ROWS rows and MERGE_MAX_LOCKS locks, in one transaction that
 * deletes them. Returns how many it merged (0: none left it may take). A batch that fails is merged row
 * by row, in order, up to the first row that fails alone; that team then waits (see heldBack) while
 * others go on.
 */
async function mergeOnce(db: Db, state: MergeState): Promise<number> {
  let team: string | null = null;
  let shard = 0;
  let ids: string[] = [];
  let merged: Merged;
  try {
    merged = await rawTransaction(db, async (tx) => {
      const oldest = await lockOldestShard(tx, state);
      if (!oldest) return [];
      ({ team, shard } = oldest);
      const rows = await tx.query<PendingRow>(Prisma.sql`
        SELECT id::text, caller, source, sent, dropped, generations FROM ingest_pending
         WHERE team_id = ${team}::uuid AND shard = ${shard}::smallint AND set_aside_at IS NULL ORDER BY id LIMIT ${MERGE_MAX_ROWS}`);
      const { taken, read } = mergedTogether(rows);
      ids = taken.map((row) => row.id);
      return mergeRows(tx, db, team, taken, read);
    }, MERGE_TRANSACTION);
  } catch (error) {
    if (!team || ids.length < 2) return failedAlone(db, state, team, ids[0], error);
    return mergeOneByOne(db, state, team, shard, ids);
  }
  for (const done of merged) countMerged(done);
  if (team) state.heldBack.delete(team);
  return merged.length;
}

/** The team and shard of the oldest rows no merge holds (skipping teams held back here after a failure), its merge lock taken; null: none. */
async function lockOldestShard(tx: RawTransaction, state: MergeState): Promise<{ team: string; shard: number } | null> {
  const now = Date.now();
  const heldBack = [...state.heldBack].flatMap(([team, until]) => (until.at > now ? [team] : []));
  // The shards waiting, read by skipping from one to the next on the (team_id, shard, id) index, then each
  // one's oldest row: a lookup per shard instead of reading every row waiting (100,000 rows in 200 shards:
  // 11 ms instead of 200; only with nearly one row a shard, 100,000 teams waiting at once, is it slower).
  // The first candidate whose lock is free is locked by the same statement (one round trip, not one a candidate):
  // the filter runs on the candidates in their order, and the outer LIMIT stops at the first lock taken.
  const [locked] = await tx.query<{ team: string; shard: number }>(Prisma.sql`
    SELECT team, shard FROM (
    WITH RECURSIVE shards AS (
      (SELECT team_id, shard FROM ingest_pending ORDER BY team_id, shard LIMIT 1)
      UNION ALL
      SELECT next.team_id, next.shard FROM shards s CROSS JOIN LATERAL (
        SELECT team_id, shard FROM ingest_pending p WHERE (p.team_id, p.shard) > (s.team_id, s.shard) ORDER BY team_id, shard LIMIT 1) next)
    SELECT s.team_id AS team, s.shard FROM shards s
      CROSS JOIN LATERAL (
        SELECT id FROM ingest_pending p WHERE p.team_id = s.team_id AND p.shard = s.shard AND p.set_aside_at IS NULL ORDER BY id LIMIT 1) oldest
     WHERE NOT (s.team_id = ANY(${heldBack}::uuid[]))
     ORDER BY oldest.id LIMIT 20) candidates
     WHERE pg_try_advisory_xact_lock(${shardLockKey(Prisma.sql`team::text`, Prisma.sql`shard`)})
     LIMIT 1`);
  return locked ?? null;
}

/** The key of a team's shard's merge lock (one expression for both statements that take it). */
const shardLockKey = (team: Prisma.Sql, shard: Prisma.Sql) => Prisma.sql`hashtextextended('ingest-merge:' || ${team} || ':' || ${shard}::text, 0)`;

/** The merge lock of a team's shard, for this transaction, if no other merge (of any process) has it. */
async function lockShard(tx: RawTransaction, team: string, shard: number): Promise<boolean> {
  const [lock] = await tx.query<{ ok: boolean }>(Prisma.sql`SELECT pg_try_advisory_xact_lock(${shardLockKey(Prisma.sql`${team}`, Prisma.sql`${shard}::smallint`)}) AS ok`);
  return lock!.ok;
}

/**
 * Advisory locks one merge takes at the most (a generation takes two, its own and its trace's; a score one).
 * They live in PostgreSQL's lock table until the merge commits, and the table is the whole server's: 64 per
 * connection slot by default (6,400 with 100 connections; in practice 10,000 to 20,000 fit), shared with
 * every other transaction. Two merges a process at once, so four processes merging at full speed hold 8,000.
 */
const MERGE_MAX_LOCKS = 1_000;

/**
 * The oldest rows merged in one transaction: whole rows up to MERGE_MAX_LOCKS locks (a row larger than it
 * goes alone). Each row is read once here, for mergeRows; one that cannot be read counts as its generations,
 * and fails in mergeRows with the batch's failure handling.
 */
export function mergedTogether<Row extends { sent: string; generations: number }>(rows: Row[]): { taken: Row[]; read: Map<Row, Sent> } {
  const taken: Row[] = [];
  const read = new Map<Row, Sent>();
  let count = 0;
  for (const row of rows) {
    let items = row.generations;
    try {
      const sent = readSent(row.sent);
      read.set(row, sent);
      items = 2 * sent.generations.length + sent.scores.length;
    } catch {
      // Read again, and thrown, by mergeRows.
    }
    if (taken.length && count + items > MERGE_MAX_LOCKS) break;
    taken.push(row);
    count += items;
  }
  return { taken, read };
}

/** Writes `rows` of `team` (one write: a key's visibility is its team's) and deletes them, in `tx`. */
async function mergeRows(tx: RawTransaction, db: Db, team: string, rows: PendingRow[], read: Map<PendingRow, Sent> = new Map()): Promise<Merged> {
  if (!rows.length) return [];
  // Normalized again: a row appended before a bound was added here merges once retried.
  const sents = rows.map((row) => normalizeSent(read.get(row) ?? readSent(row.sent)));
  const result = await writeIn(tx, db, rows[0]!.caller, team, {
    generations: sents.flatMap((sent) => sent.generations),
    scores: sents.flatMap((sent) => sent.scores),
  });
  // Whether each was put back is read as it is deleted (the row as it is then, after any other process's write to it):
  // one another process set aside after this merge read it is merged all the same, and leaves the aside set (LEFT_ASIDE).
  const deleted = await tx.query<{ id: string; putBack: boolean }>(Prisma.sql`
    DELETE FROM ingest_pending WHERE id = ANY(${rows.map((row) => row.id)}::bigint[]) RETURNING id::text, ${LEFT_ASIDE} AS "putBack"`);
  const putBack = new Set(deleted.flatMap((row) => (row.putBack ? [row.id] : [])));
  let offset = 0;
  return rows.map((row, index) => {
    const sent = sents[index]!;
    offset += sent.scores.length;
    return { row, sent, result: { ...result, scores: result.scores.slice(offset - sent.scores.length, offset) }, putBack: putBack.has(row.id) };
  });
}

/** After a batch of a team's shard failed: its rows merged one at a time, in order, up to the first that fails alone. */
async function mergeOneByOne(db: Db, state: MergeState, team: string, shard: number, ids: string[]): Promise<number> {
  let merged = 0;
  for (const id of ids) {
    let done: Merged | null;
    try {
      done = await rawTransaction(db, async (tx) => {
        // Another merge has the shard now: it takes the rest, in order.
        if (!(await lockShard(tx, team, shard))) return null;
        const rows = await tx.query<PendingRow>(Prisma.sql`
          SELECT id::text, caller, source, sent, dropped, generations FROM ingest_pending WHERE id = ${id}::bigint AND set_aside_at IS NULL`);
        return mergeRows(tx, db, team, rows);
      }, MERGE_TRANSACTION);
    } catch (error) {
      return merged + (await failedAlone(db, state, team, id, error));
    }
    if (!done) return merged;
    for (const one of done) countMerged(one);
    merged += done.length;
  }
  state.heldBack.delete(team);
  return merged;
}

/**
 * A row that failed to merge on its own. A refusal (its team gone: nothing of it can be written) is
 * given up, logged and counted; any other failure keeps it (what was acknowledged is never dropped for
 * a failure that may pass) and holds its team back in this process, for 1 s doubling up to a minute,
 * so a failing database or a row that keeps failing is not tried in a loop and other teams go on. A row
 * that keeps failing for a cause that does not pass (its content, or a fault of this code) is set aside
 * after MERGE_SET_ASIDE_ATTEMPTS tries, and one failing for any cause once it has failed for
 * MERGE_SET_ASIDE_AFTER_MS (or after MERGE_SET_ASIDE_ANY_ATTEMPTS tries, however quick):
 * kept with its error for an operator, and its team goes on. A failure that cannot be recorded is told
 * (onError) and leaves the row pending as it was. Answers how many rows it took out of the merges' way
 * (a set-aside one counts: look again at once).
 */
async function failedAlone(db: Db, state: MergeState, team: string | null, id: string | undefined, error: unknown): Promise<number> {
  if (!team || !id) throw error;
  state.onError(error);
  if (error instanceof DomainError) {
    const [row] = await rawStatement<SettledRow>(db, Prisma.sql`
      DELETE FROM ingest_pending WHERE id = ${id}::bigint RETURNING source, dropped, generations, sent, ${LEFT_ASIDE} AS "putBack"`);
    if (row) countSettled(row, "failed");
    return 0;
  }
  const lasting = !isPassingFailure(error);
  let row: (SettledRow & { setAside: boolean; aside: boolean }) | undefined;
  try {
    // Locked first, so two processes failing on it at once each see the other's count (and only one was put back).
    [row] = await rawStatement<SettledRow & { setAside: boolean; aside: boolean }>(db, Prisma.sql`
      -- A row another process set aside meanwhile stays aside, counted once (by that process).
      WITH was AS (SELECT id, ${PUT_BACK} AS put_back, set_aside_at IS NOT NULL AS aside FROM ingest_pending WHERE id = ${id}::bigint FOR UPDATE)
      UPDATE ingest_pending p SET attempts = p.attempts + 1, last_error = ${errorForOperator(error)}, lasting_failures = p.lasting_failures + ${lasting ? 1 : 0}::int,
             first_failed_at = coalesce(p.first_failed_at, now()),
             set_aside_at = CASE WHEN p.set_aside_at IS NOT NULL THEN p.set_aside_at
                                 WHEN (${lasting} AND p.lasting_failures + 1 >= ${MERGE_SET_ASIDE_ATTEMPTS}::int)
                                   OR p.attempts + 1 >= ${MERGE_SET_ASIDE_ANY_ATTEMPTS}::int
                                   OR p.first_failed_at <= now() - ${MERGE_SET_ASIDE_AFTER_MS}::int * interval '1 millisecond' THEN now() END
        FROM was WHERE p.id = was.id
      RETURNING p.set_aside_at IS NOT NULL AS aside, p.set_aside_at IS NOT NULL AND NOT was.aside AS "setAside", was.put_back AND NOT was.aside AS "putBack", p.source, p.dropped, p.generations,
                CASE WHEN (p.set_aside_at IS NOT NULL OR was.put_back) AND NOT was.aside THEN p.sent END AS sent`);
  } catch (recordError) {
    state.onError(new Error(`A request that failed to merge is kept pending, its failure not recorded: ${errorForOperator(recordError)}`, { cause: recordError }));
  }
  if (row) countSettled(row, row.setAside ? "set_aside" : null);
  if (row?.aside) {
    state.heldBack.delete(team);
    return 1;
  }
  const delay = Math.min(MERGE_HOLD_BACK_MAX_MS, (state.heldBack.get(team)?.delay ?? MERGE_HOLD_BACK_MS / 2) * 2);
  state.heldBack.set(team, { at: Date.now() + delay, delay });
  return 0;
}

/** A row set aside, put back (ingest-retry) and not failed since: its tries and first failure counted anew, its last error kept. */
const PUT_BACK = Prisma.sql`(attempts = 0 AND last_error IS NOT NULL)`;
/**
 * A row deleted (merged, or given up) that leaves the aside set: put back and not failed since, or set aside by
 * another process after this one read it as pending. Counted as put back, so set_aside minus put_back is what is aside now.
 */
const LEFT_ASIDE = Prisma.sql`(${PUT_BACK} OR set_aside_at IS NOT NULL)`;

/** A pending row given up, failed or set aside: what /metrics counts of it (`sent` read only when it is counted). */
interface SettledRow {
  source: string;
  dropped: number;
  generations: number;
  sent: string | null;
  putBack: boolean;
}

/**
 * The signals of a row as /metrics counts them, one unit each: its generations (however many events
 * of one it holds), its scores, and OpenTelemetry's spans dropped. An unreadable row: its generation events.
 */
function signalsOf(row: { source: string; dropped: number; generations: number }, sent: Sent | null): number {
  const generations = sent ? new Set(sent.generations.map((patch) => patch.observationId)).size : row.generations;
  return generations + (sent?.scores.length ?? 0) + (row.source === "otel" ? row.dropped : 0);
}

/** What merges write, counted in this thread's metrics; a merge thread's are counted by its process's (countIngestedWith). */
let countIngested = (source: string, result: string, signals: number) => productionIngested.inc({ source, result }, signals);

/** Counts what this thread's merges write with `count` instead (a merge thread: in its process's metrics). */
export function countIngestedWith(count: typeof countIngested) {
  countIngested = count;
}

/** Counts a row leaving the merges' way (`result`), and once, when it is next merged or failed, that it was put back. */
function countSettled(row: SettledRow, result: "failed" | "set_aside" | null) {
  if (!result && !row.putBack) return;
  let sent: Sent | null = null;
  try {
    if (row.sent !== null) sent = readSent(row.sent);
  } catch {
    // Unreadable (why it failed, likely): counted by its generation events.
  }
  const signals = signalsOf(row, sent);
  if (row.putBack) countIngested(row.source, "put_back", signals);
  if (result) countIngested(row.source, result, signals);
}

/**
 * The database's own code and message of a failure: what Prisma's driver adapter read from PostgreSQL (its
 * errors, P2010 and the like, wrap them in a message of its own that starts with a blank line), else the error's.
 */
function databaseErrorOf(error: unknown): { code: unknown; message: string } {
  const cause = adapterCauseOf(error);
  const code = cause?.originalCode ?? cause?.code;
  const message = cause?.originalMessage ?? cause?.message;
  if (typeof code === "string" && typeof message === "string") return { code, message };
  return { code: (error as { code?: unknown } | null)?.code, message: error instanceof Error ? error.message : String(error) };
}

/** What Prisma's driver adapter said of a failure beneath Prisma's error, if it did. */
const adapterCauseOf = (error: unknown) =>
  (error as { meta?: { driverAdapterError?: { cause?: { kind?: unknown; originalCode?: unknown; originalMessage?: unknown; code?: unknown; message?: unknown } } } } | null)
    ?.meta?.driverAdapterError?.cause;

/**
 * What ingest_pending.last_error keeps of a failure, for an operator and without what was sent: the
 * SQLSTATE (else the error's name) and the first line of the message, never PostgreSQL's DETAIL (which
 * quotes the values), with quoted text replaced where it is a value (PostgreSQL's data errors, class 22,
 * and ours, such as JSON.parse's) rather than a name of ours (a constraint, a column), capped.
 */
export function errorForOperator(error: unknown): string {
  const { code, message } = databaseErrorOf(error);
  // A SQLSTATE, not Prisma's own codes (P2010's message quotes the database's, values and all).
  const sqlState = typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) && !/^P\d{4}$/.test(code) ? code : null;
  const name = sqlState ?? (typeof code === "string" ? code : error instanceof Error ? error.name : "Error");
  const line = message.split("\n").find((part) => part.trim()) ?? "";
  const told = sqlState && !sqlState.startsWith("22") ? line : line.replace(/"(?:[^"\\]|\\.)*"?/g, '"…"');
  return `${name}: ${told}`.slice(0, LAST_ERROR_MAX_CHARS);
}

/**
 * A failure that may pass by itself. PostgreSQL's, by its class alone (read beneath Prisma's wrapping): the
 * connection (08), a conflict with another transaction (40), code ahead of its migration or a grant missing
 * (42), the server short of a resource (53), an object in use (55), a statement cancelled or timed out or the
 * server stopping (57), a system error (58). Prisma's that hold no database code (the database not reached, a
 * timeout, a closed connection, the pool empty), by its code or its driver adapter's kind. The network's, by
 * its code. Otherwise by the connection pool's words for a lost connection.
 */
export function isPassingFailure(error: unknown): boolean {
  const kind = adapterCauseOf(error)?.kind;
  if (typeof kind === "string" && PASSING_ADAPTER_KINDS.has(kind)) return true;
  const { code, message: databaseMessage } = databaseErrorOf(error);
  if (typeof code === "string" && PASSING_PRISMA_CODES.has(code)) return true;
  // A statement prepared before a migration changed its answer's columns: its connection is discarded (rawTransaction), the next try prepares it anew.
  if (isStalePlan({ code, message: databaseMessage })) return true;
  if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return /^(08|40|42|53|55|57|58)/.test(code);
  if (typeof code === "string") return PASSING_NETWORK_CODES.has(code);
  const message = error instanceof Error ? error.message : "";
  return /Connection terminated|Client has encountered a connection error|Cannot use a pool after calling end|timeout exceeded when trying to connect|socket hang up/i.test(message);
}
/**
 * Prisma's own codes of failures that pass, which hold no database code: the database not reached (P1001),
 * timed out (P1002, P1008), the connection closed by the server (P1017), no connection free in the pool in
 * time (P2024), a write conflict or deadlock (P2034), too many connections (P2037).
 */
const PASSING_PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024", "P2034", "P2037"]);
/** The driver adapter's kinds of the same failures, which a raw query's P2010 wraps as they are (no database code). */
const PASSING_ADAPTER_KINDS = new Set(["DatabaseNotReachable", "SocketTimeout", "ConnectionClosed", "TransactionWriteConflict", "TooManyConnections"]);
const PASSING_NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ECONNABORTED", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "ENOTCONN"]);

/**
 * Puts the set-aside requests back among those merged, their tries and their time failing counted anew
 * (their last error kept until they fail again), and answers how many: after the cause is mended (npm run
 * cli -- ingest-retry), on the audit trail with how many it put back. The servers' sweeps take them within
 * seconds.
 */
export async function retrySetAsideIngestion(db: Db, now: Date): Promise<number> {
  return db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ id: string }[]>`
      UPDATE ingest_pending SET set_aside_at = NULL, attempts = 0, lasting_failures = 0, first_failed_at = NULL WHERE set_aside_at IS NOT NULL RETURNING id::text`;
    if (rows.length) {
      await audit(tx, {
        organizationId: null, actor: { kind: "cli" }, action: "ingestion.retry",
        target: { type: "ingestion", id: "set_aside", name: "Production signals set aside" }, after: { requests: rows.length },
      }, now);
    }
    return rows.length;
  });
}

/** What a merged request counts on /metrics: its generations written, scores inserted, spans dropped (and that it was put back). */
function countMerged({ row, sent, result, putBack }: Merged[number]) {
  if (putBack) countIngested(row.source, "put_back", signalsOf(row, sent));
  const ids = new Set(sent.generations.map((patch) => patch.observationId));
  const written = [...ids].filter((id) => result.written.has(id)).length;
  countIngested(row.source, "generation", written);
  // Spans dropped: OpenTelemetry's that named no prompt or were not kept (Langfuse's events are not counted so).
  if (row.source === "otel") countIngested(row.source, "dropped", row.dropped + ids.size - written);
  countIngested(row.source, "score", result.scores.filter((score) => score.inserted).length);
}

/**
 * Merges what any process appended and no merge is coming for (a process stopped before merging its
 * rows), now and every MERGE_SWEEP_MS; `onError` hears a merge's failure. Returns a stop that waits
 * for the merges running.
 */
export function startIngestMerges(db: Db, options: { onError?: (error: unknown) => void; everyMs?: number } = {}): () => Promise<void> {
  const state = mergeStateOf(db);
  state.stopping = false;
  if (options.onError) state.onError = options.onError;
  const sweep = () => {
    state.dirty = true;
    startMerges(db, state);
  };
  const first = setTimeout(sweep, 0);
  const timer = setInterval(sweep, options.everyMs ?? MERGE_SWEEP_MS);
  first.unref();
  timer.unref();
  return async () => {
    clearTimeout(first);
    clearInterval(timer);
    // The merges running end after their transaction (what is left waits for the next start's); appends still end.
    state.stopping = true;
    await ingestSettled(db);
  };
}

/**
 * Resolves once this process has nothing being appended or merged for `db`: what it accepted so far
 * is merged (or its merge failed and waits for a sweep). For a stop, and for tests that read what
 * they sent. With the merges elsewhere (mergeElsewhere): once what it accepted is appended.
 */
export async function ingestSettled(db: Db): Promise<void> {
  const state = mergeStates.get(db);
  if (!state) return;
  // An append running starts merges (or a delayed one) before it ends, and a merge ending may start another: looked at again.
  while (state.appendRunning || state.delayed || state.merging.size) {
    await state.appendRunning;
    state.delayed?.now();
    await state.delayed?.started;
    await Promise.all(state.merging);
  }
}

/**
 * This process's appends to `db` are merged `elsewhere` from now on (a thread of its own, which merges with
 * startIngestMerges and mergeAppended on a db of its own), so a merge's work never holds up the requests this thread
 * serves (null: here again). ingestSettled then waits for the appends only.
 */
export function mergeElsewhere(db: Db, elsewhere: MergesElsewhere | null) {
  mergeStateOf(db).elsewhere = elsewhere;
}

/** In the thread merging another's appends (mergeElsewhere): `generations` more were appended there. */
export function mergeAppended(db: Db, generations: number) {
  const state = mergeStateOf(db);
  state.dirty = true;
  state.unmerged += generations;
  mergeSoon(db, state);
}

/** One transaction writing what was sent (one request's, or a batch's): see ingestProduction. */
function writeProduction(db: Db, caller: Caller, teamId: string, sent: Sent): Promise<IngestResult & { written: Set<string> }> {
  return rawTransaction(db, (tx) => writeIn(tx, db, caller, teamId, sent), { timeoutMs: 30_000 });
}

/** What one request sent (or a batch's, or appended requests'), written in `tx`: see ingestProduction. */
async function writeIn(tx: RawTransaction, db: Db, caller: Caller, teamId: string, sent: Sent): Promise<IngestResult & { written: Set<string> }> {
  const patchesById = new Map<string, GenerationPatch[]>();
  for (const patch of sent.generations) {
    const list = patchesById.get(patch.observationId);
    if (list) list.push(patch);
    else patchesById.set(patch.observationId, [patch]);
  }
  const observationIds = [...patchesById.keys()].sort();

  const [team] = await tx.query<{ organizationId: string; keepText: boolean; retainedSince: Date }>(Prisma.sql`
    SELECT t.organization_id AS "organizationId", t.keep_generation_text AS "keepText",
           greatest(now() - o.generation_retention_days * interval '1 day', o.generations_pruned_before) AS "retainedSince"
      FROM teams t JOIN organizations o ON o.id = t.organization_id WHERE t.id = ${teamId}::uuid`);
  // The key's team was deleted after the key was read: the sender hears 404, never a 500.
  if (!team) throw new DomainError("NOT_FOUND", INGEST_MSG.teamNotFound);
  const generationDeltas = new GenerationDeltas();
  const scoreDeltas: ReturnType<typeof scoreContribution>[] = [];
  let written: StoredGeneration[] = [];

  // One writer per generation at a time, taken in one order (no deadlock between two requests). A score
  // naming an observation takes its lock too: written beside its generation's write, one of them waits
  // and then sees the other (the score finds its generation, or the generation relinks the score).
  // A score naming only a trace takes the trace's lock, as does a generation of that trace: the score
  // finds the generation, or the generation's write finds the score and links it.
  // A generation takes its trace's lock shared (the writes of a trace's generations go on side by side,
  // a score linked twice is kept from it by the score's row lock), a score naming only the trace takes
  // it alone; a key taken both ways is taken alone.
  // A score naming its generation by id takes that generation's observation lock too (looked up first, so
  // every lock is taken in the one order): a merge of the generation (its environment or version changed)
  // and the score take turns, and the score reads the generation as the merge left it.
  const locks = new Map<string, boolean>();
  const lock = (key: string, shared: boolean) => locks.set(key, (locks.get(key) ?? true) && shared);
  for (const id of observationIds) lock(id, false);
  for (const score of sent.scores) if (score.observationId) lock(score.observationId, false);
  for (const id of await observationIdsOf(tx, teamId, sent.scores.flatMap((score) => (score.generationId ? [score.generationId] : [])))) lock(id, false);
  for (const patch of sent.generations) if (patch.traceId) lock(traceLockKey(patch.traceId), true);
  for (const score of sent.scores) if (isTraceOnly(score)) lock(traceLockKey(score.traceId!), false);
  if (locks.size) {
    await tx.query(Prisma.sql`
      SELECT (CASE WHEN shared THEN pg_advisory_xact_lock_shared(h) ELSE pg_advisory_xact_lock(h) END)::text
        FROM (SELECT hashtextextended(${teamId} || ':' || k, 0) AS h, shared
                FROM unnest(${[...locks.keys()]}::text[], ${[...locks.values()]}::boolean[]) AS x(k, shared) ORDER BY k) ids`);
  }
  if (observationIds.length) {
    const stored = await tx.query<StoredGeneration>(Prisma.sql`
      DELETE FROM generations WHERE team_id = ${teamId}::uuid AND observation_id = ANY(${observationIds}::text[]) ${startedSince(sent.generations)}
      RETURNING id, prompt_id AS "promptId", prompt_name AS "promptName", version, trace_id AS "traceId", observation_id AS "observationId", source,
        model, environment, started_at AS "startedAt", ended_at AS "endedAt", completion_start_at AS "completionStartAt", latency_ms AS "latencyMs",
        ttft_ms AS "ttftMs", input_tokens AS "inputTokens", output_tokens AS "outputTokens", cost, status, error_message AS "errorMessage",
        user_ref AS "userRef", session_ref AS "sessionRef", input, output`);
    // Prices are the organization's settings, not part of this write: read beside it, every model the rows can have in one statement.
    const models = new Set<string>();
    for (const row of stored) if (row.model) models.add(row.model);
    for (const patch of sent.generations) if (patch.model) models.add(patch.model);
    const prices = await modelPricesFor(db, team.organizationId, [...models]);
    /** The cost of a row's tokens at its model's price (null: no model, no price, or tokens not said). */
    const computedCost = (row: StoredGeneration) =>
      row.model && row.inputTokens !== null && row.outputTokens !== null ? costAt(prices.get(row.model) ?? null, row.inputTokens, row.outputTokens) : null;
    // A stored row naming no prompt holds only updates so far (their create had not come): its start was a guess.
    // Its cost was said unless it is what its tokens cost at the model's price (computed at its last merge): one
    // computed is computed again below, so tokens sent later (a create's input, an update's output) are all counted.
    const storedById = new Map<string, StoredGeneration>();
    for (const row of stored) {
      const costSaid = row.cost !== null && row.cost !== computedCost(row);
      storedById.set(row.observationId, { ...row, startSaid: row.promptName !== "", costSaid });
    }
    for (const row of stored) if (row.promptId && row.version !== null) generationDeltas.add(row, -1);

    // A generation that never named a prompt is not kept (OpenTelemetry's other spans, Langfuse's plain generations),
    // but Langfuse updates whose create has not come yet are: the create (another request, maybe later) may name one.
    // Nor is one not stored that started before its organization's retention, or before the latest start housekeeping
    // deleted generations of it before (at a retention since raised, or a month dropped whole): housekeeping deleted it
    // (its part kept in the rollups) or would, so one sent again would be counted twice. One still stored merges as before.
    written = observationIds
      .map((id) => merge(storedById.get(id), patchesById.get(id)!, team.keepText))
      .filter((row) => row.promptName !== "" || (row.source === "langfuse" && !row.startSaid))
      .filter((row) => storedById.has(row.observationId) || row.startedAt.getTime() >= team.retainedSince.getTime());
    // Link what names a prompt the caller reads; a link kept from the stored row stays.
    const asked = written.filter((row) => !row.promptId && row.promptName && row.version !== null).map((row) => ({ name: row.promptName, version: row.version! }));
    const readable = await readablePromptVersions(tx, caller, asked);
    for (const row of written) {
      if (!row.promptId && row.version !== null) row.promptId = readable.get(`${row.promptName}\u0000${row.version}`) ?? null;
      // A cost not said is what the tokens cost now, however many merges brought them.
      if (!row.costSaid) row.cost = computedCost(row);
    }
    // COPY: PostgreSQL inserts the rows in batches (an INSERT ... SELECT writes them one by one, at twice the cost).
    if (written.length) await tx.copy("generations", GENERATION_COLUMNS, copyRowsOf(written, team.organizationId, teamId));
    for (const row of written) if (row.promptId && row.version !== null) generationDeltas.add(row, 1);

    // Scores sent before their generation (or judging it before it was relinked) follow it now.
    type Relinked = LinkedScore & { old_prompt_id: string | null; old_version: number | null; old_environment: string };
    const relinked: Relinked[] = !written.length ? [] : await tx.query<Relinked>(Prisma.sql`
      UPDATE scores s SET generation_id = g.id, prompt_id = g.prompt_id, version = g.version, environment = g.environment, trace_id = coalesce(s.trace_id, g.trace_id)
        FROM jsonb_to_recordset(${JSON.stringify(written.map((row) => ({
          id: row.id, observation_id: row.observationId, trace_id: row.traceId, prompt_id: row.promptId, version: row.version, environment: row.environment,
        })))}::jsonb)
               AS g(id uuid, observation_id text, trace_id text, prompt_id uuid, version int, environment text),
             scores o
       WHERE s.team_id = ${teamId}::uuid AND o.id = s.id AND s.run_id IS NULL
         -- The scores of these generations, found by their two indexes (generation id, team and observation id).
         -- A generation first written now has an id minted here, which no score can name yet: only stored ones' ids are looked up.
         AND (s.generation_id = ANY(${stored.map((row) => row.id)}::uuid[]) OR s.observation_id = ANY(${written.map((row) => row.observationId)}::text[]))
         AND (s.generation_id = g.id OR (s.generation_id IS NULL AND s.observation_id = g.observation_id))
         AND (s.generation_id IS DISTINCT FROM g.id OR s.prompt_id IS DISTINCT FROM g.prompt_id OR s.version IS DISTINCT FROM g.version OR s.environment <> g.environment)
      RETURNING s.prompt_id, s.version, s.environment, s.created_at, s.name, s.data_type, s.value, s.string_value,
        o.prompt_id AS old_prompt_id, o.version AS old_version, o.environment AS old_environment`);
    // Scores naming only a trace, sent before any linked generation of it was stored, follow the trace's
    // first generation linked to a prompt now, chosen as a score sent now would choose it (the earliest one
    // of a prompt the writer sees), among the trace's stored generations with these. Rare: the generations
    // are read only for traces with such a score waiting.
    const traceIds = [...new Set(written.flatMap((row) => (row.traceId ? [row.traceId] : [])))];
    if (traceIds.length) {
      const { joins, visible } = promptVisibility(caller);
      relinked.push(...(await tx.query<Relinked>(Prisma.sql`
        WITH waiting AS (
          SELECT DISTINCT trace_id FROM scores
           WHERE team_id = ${teamId}::uuid AND trace_id = ANY(${traceIds}::text[]) AND generation_id IS NULL AND observation_id IS NULL AND run_id IS NULL
        ), first AS (
          SELECT DISTINCT ON (g.trace_id) g.id, g.observation_id, g.trace_id, g.prompt_id, g.version, g.environment
            FROM generations g JOIN waiting w ON w.trace_id = g.trace_id LEFT JOIN prompts p ON p.id = g.prompt_id ${joins}
           WHERE g.team_id = ${teamId}::uuid AND g.prompt_id IS NOT NULL AND ${visible}
           -- scoreTargets' rule for a trace's generation, in SQL: the earliest one of a prompt (change both together).
           ORDER BY g.trace_id, g.started_at
        )
        UPDATE scores s SET generation_id = g.id, observation_id = g.observation_id, prompt_id = g.prompt_id, version = g.version, environment = g.environment
          FROM first g, scores o
         WHERE s.team_id = ${teamId}::uuid AND o.id = s.id AND s.trace_id = g.trace_id
           AND s.generation_id IS NULL AND s.observation_id IS NULL AND s.run_id IS NULL
        RETURNING s.prompt_id, s.version, s.environment, s.created_at, s.name, s.data_type, s.value, s.string_value,
          o.prompt_id AS old_prompt_id, o.version AS old_version, o.environment AS old_environment`)));
    }
    for (const score of relinked) {
      if (score.old_prompt_id && score.old_version !== null) {
        scoreDeltas.push(scoreContribution({ ...score, prompt_id: score.old_prompt_id, version: score.old_version, environment: score.old_environment }, -1));
      }
      if (score.prompt_id && score.version !== null) scoreDeltas.push(scoreContribution(score, 1));
    }
  }

  const scoreResults: IngestResult["scores"] = [];
  if (sent.scores.length) {
    const targets = await scoreTargets(tx, caller, teamId, sent.scores);
    const rows = sent.scores.map((score, index) => {
      const target = targets[index]!;
      return {
        id: crypto.randomUUID(), organization_id: team.organizationId, team_id: teamId, generation_id: target.generationId, run_id: target.runId,
        trace_id: score.traceId ?? target.traceId, observation_id: score.observationId ?? target.observationId,
        prompt_id: target.promptId, version: target.version, environment: target.environment ?? score.environment ?? DEFAULT_ENVIRONMENT,
        name: score.name, data_type: score.dataType, value: score.value, string_value: score.stringValue, comment: score.comment ?? null, source: score.source,
        author_user_id: score.authorUserId ?? null, api_key_id: score.apiKeyId ?? null, external_id: score.externalId ?? null,
      };
    });
    const inserted = await tx.query<LinkedScore & { id: string; external_id: string | null }>(Prisma.sql`
      INSERT INTO scores (id, organization_id, team_id, generation_id, run_id, trace_id, observation_id, prompt_id, version, environment, name,
        data_type, value, string_value, comment, source, author_user_id, api_key_id, external_id)
      SELECT id, organization_id, team_id, generation_id, run_id, trace_id, observation_id, prompt_id, version, environment, name, data_type, value,
        string_value, comment, source, author_user_id, api_key_id, external_id
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(id uuid, organization_id uuid, team_id uuid, generation_id uuid, run_id uuid,
          trace_id text, observation_id text, prompt_id uuid, version int, environment text, name text, data_type text, value float8, string_value text,
          comment text, source text, author_user_id uuid, api_key_id uuid, external_id text)
      ON CONFLICT (team_id, external_id) DO NOTHING
      RETURNING id, prompt_id, version, environment, created_at, name, data_type, value, string_value, external_id`);
    const insertedIds = new Set(inserted.map((score) => score.id));
    for (const score of inserted) if (score.prompt_id && score.version !== null) scoreDeltas.push(scoreContribution(score, 1));
    // A repeat answers the stored score's id.
    const repeats = rows.filter((row) => !insertedIds.has(row.id) && row.external_id !== null).map((row) => row.external_id!);
    const existing = repeats.length
      ? await tx.query<{ id: string; external_id: string; prompt_id: string | null }>(Prisma.sql`
          SELECT id, external_id, prompt_id FROM scores WHERE team_id = ${teamId}::uuid AND external_id = ANY(${repeats}::text[])`)
      : [];
    const existingByExternal = new Map(existing.map((row) => [row.external_id, row]));
    for (const row of rows) {
      if (insertedIds.has(row.id)) scoreResults.push({ id: row.id, linked: row.prompt_id !== null, inserted: true });
      else {
        const stored = existingByExternal.get(row.external_id ?? "");
        scoreResults.push({ id: stored?.id ?? row.id, linked: Boolean(stored?.prompt_id), inserted: false });
      }
    }
  }

  await applyGenerationRollups(tx, generationDeltas.sorted());
  await applyScoreRollups(tx, scoreDeltas);
  return { generations: written.length, scores: scoreResults, written: new Set(written.map((row) => row.observationId)) };
}

/** The observation ids of a team's generations, by generation id (an observation's id never changes: its merges keep the row's id). */
async function observationIdsOf(tx: RawTransaction, teamId: string, generationIds: string[]): Promise<string[]> {
  if (!generationIds.length) return [];
  const rows = await tx.query<{ observationId: string }>(Prisma.sql`
    SELECT DISTINCT observation_id AS "observationId" FROM generations WHERE team_id = ${teamId}::uuid AND id = ANY(${generationIds}::uuid[])`);
  return rows.map((row) => row.observationId);
}

/**
 * Takes the write lock of the generation `generationId` of the team (the one its merges take, by its
 * observation id) for the transaction, if the generation is stored: a score written on it after this reads
 * it as its last merge left it, and its next merge waits for the score (and relinks it).
 */
export async function lockGeneration(tx: RawTransaction, teamId: string, generationId: string): Promise<void> {
  const [observationId] = await observationIdsOf(tx, teamId, [generationId]);
  if (observationId !== undefined) await tx.query(Prisma.sql`SELECT pg_advisory_xact_lock(hashtextextended(${teamId} || ':' || ${observationId}, 0))::text`);
}

/** A score that names a trace and nothing in it: it judges the trace's first generation. */
const isTraceOnly = (score: ScoreDraft) => Boolean(score.traceId && !score.observationId && !score.generationId && !score.runId);
/** The advisory lock key of a trace (beside those of observation ids, in the same team's space). */
const traceLockKey = (traceId: string) => `trace:${traceId}`;

interface ScoreTarget {
  generationId: string | null;
  runId: string | null;
  traceId: string | null;
  observationId: string | null;
  promptId: string | null;
  version: number | null;
  environment: string | null;
}

/**
 * What each score judges, as far as it is known now: a generation of the team (by id, by observation
 * id, or a trace's first linked one), or a run of a prompt the caller reads. Unknown: stored unlinked.
 */
async function scoreTargets(tx: RawTransaction, caller: Caller, teamId: string, scores: ScoreDraft[]): Promise<ScoreTarget[]> {
  const generationIds = scores.flatMap((score) => (score.generationId ? [score.generationId] : []));
  const observationIds = scores.flatMap((score) => (score.observationId ? [score.observationId] : []));
  const traceIds = scores.flatMap((score) => (isTraceOnly(score) ? [score.traceId!] : []));
  const runIds = scores.flatMap((score) => (score.runId ? [score.runId] : []));
  type Row = { id: string; observationId: string; traceId: string | null; promptId: string | null; version: number | null; environment: string; startedAt: Date };
  // A linked generation is a target only when the caller may see its prompt (the one visibility rule);
  // an unlinked one belongs to the team alone.
  const { joins, visible } = promptVisibility(caller);
  const columns = Prisma.sql`g.id, g.observation_id AS "observationId", g.trace_id AS "traceId", g.prompt_id AS "promptId", g.version, g.environment, g.started_at AS "startedAt"`;
  const named =
    generationIds.length || observationIds.length
      ? await tx.query<Row>(Prisma.sql`
          SELECT ${columns} FROM generations g LEFT JOIN prompts p ON p.id = g.prompt_id ${joins}
           WHERE g.team_id = ${teamId}::uuid AND (g.prompt_id IS NULL OR ${visible})
             AND (g.id = ANY(${generationIds}::uuid[]) OR g.observation_id = ANY(${observationIds}::text[]))
           ORDER BY g.started_at DESC`)
      : [];
  // A trace's generation: its earliest one of a prompt the caller sees (writeIn's relink of waiting scores
  // chooses alike: change both together), one row a trace however many generations it has. Never one of no
  // prompt: that one may hold only updates so far, dropped if its create names none, the score then left
  // naming a generation gone (the relink looks for scores naming nothing but their trace).
  const firstOfTrace = traceIds.length
    ? await tx.query<Row>(Prisma.sql`
        SELECT DISTINCT ON (g.trace_id) ${columns} FROM generations g LEFT JOIN prompts p ON p.id = g.prompt_id ${joins}
         WHERE g.team_id = ${teamId}::uuid AND g.trace_id = ANY(${traceIds}::text[]) AND g.prompt_id IS NOT NULL AND ${visible}
         ORDER BY g.trace_id, g.started_at`)
    : [];
  const runs = runIds.length
    ? await tx.query<{ id: string; promptId: string; version: number }>(Prisma.sql`
        SELECT r.id, r.prompt_id AS "promptId", r.version FROM prompt_runs r JOIN prompts p ON p.id = r.prompt_id ${joins}
         WHERE r.id = ANY(${runIds}::uuid[]) AND p.team_id = ${teamId}::uuid AND ${visible}`)
    : [];
  // Looked up by key, not searched: a request holds thousands of scores. Read newest first, so the earliest
  // of an observation's rows (there is one, but for a moment of a merge's) is the one kept, as before.
  const byId = new Map(named.map((row) => [row.id, row]));
  const byObservation = new Map(named.map((row) => [row.observationId, row]));
  const byTrace = new Map(firstOfTrace.map((row) => [row.traceId, row]));
  const runById = new Map(runs.map((row) => [row.id, row]));
  const none: ScoreTarget = { generationId: null, runId: null, traceId: null, observationId: null, promptId: null, version: null, environment: null };
  const ofGeneration = (row: Row | undefined): ScoreTarget =>
    row ? { ...none, generationId: row.id, traceId: row.traceId, observationId: row.observationId, promptId: row.promptId, version: row.version, environment: row.environment } : none;
  const ofPrompt = (score: ScoreDraft, row: { promptId: string | null }) => score.promptId === undefined || row.promptId === score.promptId;
  return scores.map((score) => {
    if (score.runId) {
      const found = runById.get(score.runId);
      const run = found && ofPrompt(score, found) ? found : undefined;
      if (!run && score.mustExist) throw new DomainError("NOT_FOUND", INGEST_MSG.runNotFound);
      return run ? { ...none, runId: run.id, promptId: run.promptId, version: run.version } : none;
    }
    if (score.generationId) {
      const found = byId.get(score.generationId);
      const generation = found && ofPrompt(score, found) ? found : undefined;
      if (!generation && score.mustExist) throw new DomainError("NOT_FOUND", INGEST_MSG.generationNotFound);
      return ofGeneration(generation);
    }
    const generation = score.observationId ? byObservation.get(score.observationId) : score.traceId ? byTrace.get(score.traceId) : undefined;
    // A trace or span not seen (not sent yet, or of a generation the caller may not see) is stored
    // unlinked and linked when its generation comes: scores often arrive before the tracing
    // exporter's batch, and the answer tells nothing of generations the caller may not see.
    return ofGeneration(generation);
  });
}
