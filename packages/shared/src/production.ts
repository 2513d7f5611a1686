// Production signals: what both sides need of generations and scores sent in from the teams' own code
// (OpenTelemetry, Langfuse SDKs, /api/v1): the latency buckets the hourly rollups count in, percentiles
// read back from them, and the limits and names of what is kept, and the shapes tools send them in.
import { z } from "zod";
import { idSchema, plainText } from "./validation.ts";

/**
 * Upper bounds (ms, inclusive) of the latency buckets, log-spaced by a factor of √2 from 1 ms to 2^21 ms
 * (about 35 minutes); a latency above the last bound counts in one more, open bucket. A rollup's
 * histogram has LATENCY_BUCKETS.length + 1 counts. Fixed forever: stored rollups count in these.
 */
export const LATENCY_BUCKETS: readonly number[] = Object.freeze(
  Array.from({ length: 43 }, (_, i) => Math.round(2 ** (i / 2) * 1000) / 1000),
);

/** The bucket a latency of `ms` counts in (0-based; LATENCY_BUCKETS.length is the open last one). */
export function bucketOf(ms: number): number {
  if (!Number.isFinite(ms) || ms <= LATENCY_BUCKETS[0]!) return ms === Infinity ? LATENCY_BUCKETS.length : 0;
  let low = 0;
  let high = LATENCY_BUCKETS.length;
  // The first bound >= ms.
  while (low < high) {
    const middle = (low + high) >> 1;
    if (LATENCY_BUCKETS[middle]! >= ms) high = middle;
    else low = middle + 1;
  }
  return low;
}

/**
 * The q-quantile (0..1) of the latencies a histogram counted, interpolated geometrically inside its
 * bucket (the buckets are log-spaced); null when it counted nothing. The open last bucket answers its
 * lower bound. Accurate to the bucket's width (a factor of √2).
 */
export function percentileFromHist(hist: readonly number[], q: number): number | null {
  const total = hist.reduce((sum, count) => sum + Math.max(0, count), 0);
  if (total <= 0) return null;
  const rank = Math.min(Math.max(q, 0), 1) * total;
  let seen = 0;
  for (let i = 0; i < hist.length; i++) {
    const count = Math.max(0, hist[i] ?? 0);
    if (count === 0) continue;
    if (seen + count >= rank) {
      if (i >= LATENCY_BUCKETS.length) return LATENCY_BUCKETS[LATENCY_BUCKETS.length - 1]!;
      const upper = LATENCY_BUCKETS[i]!;
      const lower = i === 0 ? 0 : LATENCY_BUCKETS[i - 1]!;
      const within = (rank - seen) / count;
      if (lower === 0) return upper * within;
      return lower * (upper / lower) ** within;
    }
    seen += count;
  }
  return LATENCY_BUCKETS[LATENCY_BUCKETS.length - 1]!;
}

/** A histogram counting each of `values` (ms) in its bucket. */
export function histOf(values: Iterable<number>): number[] {
  const hist = new Array<number>(LATENCY_BUCKETS.length + 1).fill(0);
  for (const value of values) hist[bucketOf(value)]! += 1;
  return hist;
}

/** Where a generation came from. */
const GENERATION_SOURCES = ["otel", "langfuse", "api"] as const;
export type GenerationSource = (typeof GENERATION_SOURCES)[number];

const GENERATION_STATUSES = ["ok", "error"] as const;
export type GenerationStatus = (typeof GENERATION_STATUSES)[number];

const SCORE_DATA_TYPES = ["numeric", "boolean", "categorical"] as const;
export type ScoreDataType = (typeof SCORE_DATA_TYPES)[number];

const SCORE_SOURCES = ["api", "annotation", "eval"] as const;
export type ScoreSource = (typeof SCORE_SOURCES)[number];

/** The name of a person's thumbs up (1) or down (0) given in the app. */
export const THUMBS_SCORE_NAME = "thumbs";

/** A generation's input and output text, when the team keeps them, are cut to this many bytes each. */
export const GENERATION_TEXT_MAX_BYTES = 32 * 1024;

/** The environment of a generation or score that names none. */
export const DEFAULT_ENVIRONMENT = "default";

// ---- What tools send in ---------------------------------------------------------------------------


/** Refusals of what tools send in, in their own words. */
export const INGEST_MSG = {
  notOtlp: "The body is not an OTLP ExportTraceServiceRequest",
  unsupportedType: "Send OTLP traces as application/json or application/x-protobuf",
  badId: (what: string) => `A span's ${what} must be hex (trace id 16 bytes, span id 8 bytes)`,
  badTime: "A span's start time is missing or not a time",
  tooDeep: "The request body is nested too deeply",
  tooManyNodes: (max: number) => `The request holds more than ${max.toLocaleString("en")} spans, attributes and values: send its spans in smaller batches`,
  scoreTarget: "Name what the score judges: generationId, traceId or runId",
  booleanValue: "A boolean score's value is true or false (or 1 or 0)",
  categoricalValue: "A categorical score's value is a string",
  numericValue: "A numeric score's value is a finite number",
  reservedScoreId: (prefix: string) => `A score id may not start with "${prefix}": those are online evaluation's`,
  runNotFound: "Run not found",
  generationNotFound: "Generation not found",
  teamNotFound: "The key's team no longer exists",
} as const;

const shortText = (max: number) => z.string().max(max);
const looseDate = z.union([z.string(), z.date(), z.number()]).transform((value, ctx) => {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) {
    ctx.addIssue({ code: "custom", message: "Not a date" });
    return z.NEVER;
  }
  return date;
});
const nullish = <T extends z.ZodType>(schema: T) => schema.nullish().transform((value) => value ?? undefined);
const numberMap = z.record(z.string(), z.unknown());

/** A Langfuse score's value and type as sent (v3 `score-create`, POST /api/public/scores). */
export const langfuseScoreBody = z.object({
  id: nullish(shortText(200)),
  traceId: nullish(shortText(200)),
  observationId: nullish(shortText(200)),
  sessionId: nullish(shortText(200)),
  name: z.string().trim().min(1).max(200),
  value: z.union([z.number(), z.string().max(1000), z.boolean()]),
  comment: nullish(shortText(5000)),
  dataType: nullish(z.enum(["NUMERIC", "BOOLEAN", "CATEGORICAL"])),
  environment: nullish(shortText(100)),
});
export type LangfuseScoreBody = z.output<typeof langfuseScoreBody>;

/** A Langfuse v3 generation's body (`generation-create` and `generation-update`: any field, merged by id). */
export const langfuseGenerationBody = z.object({
  id: z.string().min(1).max(200),
  traceId: nullish(shortText(200)),
  name: nullish(z.string()),
  startTime: nullish(looseDate),
  endTime: nullish(looseDate),
  completionStartTime: nullish(looseDate),
  model: nullish(shortText(200)),
  input: z.unknown().optional(),
  output: z.unknown().optional(),
  level: nullish(z.enum(["DEBUG", "DEFAULT", "WARNING", "ERROR"])),
  statusMessage: nullish(z.string()),
  environment: nullish(shortText(100)),
  usage: nullish(numberMap),
  usageDetails: nullish(numberMap),
  costDetails: nullish(numberMap),
  promptName: nullish(shortText(500)),
  promptVersion: nullish(z.number().int().min(1).max(2 ** 31 - 1)),
});
export type LangfuseGenerationBody = z.output<typeof langfuseGenerationBody>;

/** A Langfuse v3 trace's body (`trace-create`, an upsert): what its generations inherit. */
export const langfuseTraceBody = z.object({
  id: z.string().min(1).max(200),
  userId: nullish(shortText(500)),
  sessionId: nullish(shortText(500)),
  environment: nullish(shortText(100)),
});

/** The envelope of Langfuse's batch ingestion: each event's own id, type, time and body. */
export const langfuseIngestionInput = z.object({
  batch: z
    .array(z.object({ id: z.string().min(1).max(200), type: z.string().max(100), timestamp: nullish(z.string()), body: z.record(z.string(), z.unknown()) }))
    .max(10_000),
});

/** POST /api/v1/scores: a score on a generation (by id), on a trace's generation, or on a run. */
export const runtimeScoreInput = z
  .object({
    generationId: idSchema.optional().describe("A generation's id (as Promptly lists them)"),
    traceId: z.string().trim().min(1).max(200).optional().describe("A trace id: the score judges that trace's generation"),
    observationId: z.string().trim().min(1).max(200).optional().describe("With traceId: the span (observation) id of the generation"),
    runId: idSchema.optional().describe("A run's id (a playground or API run)"),
    name: plainText().trim().min(1).max(200),
    value: z.union([z.number(), z.boolean(), z.string().max(1000)]),
    dataType: z.enum(SCORE_DATA_TYPES).optional().describe("Inferred from the value when left out"),
    comment: z.string().max(5000).optional(),
    id: z.string().trim().min(1).max(200).optional().describe("Your id for the score: sending it again changes nothing"),
  })
  .refine((input) => input.generationId || input.traceId || input.observationId || input.runId, { message: INGEST_MSG.scoreTarget, path: ["generationId"] });
export type RuntimeScoreInput = z.output<typeof runtimeScoreInput>;

export const runtimeScoreAnswer = z.object({ id: z.string(), linked: z.boolean().describe("Whether it was linked to a prompt version") });

/** A score's value stored: numeric in `value`, boolean as 1/0 with 'True'/'False', categorical in `stringValue`; or why not. */
export function scoreValueOf(value: number | string | boolean, dataType?: ScoreDataType | "NUMERIC" | "BOOLEAN" | "CATEGORICAL" | null):
  { ok: true; dataType: ScoreDataType; value: number | null; stringValue: string | null } | { ok: false; message: string } {
  const type = (dataType?.toLowerCase() as ScoreDataType | undefined) ?? (typeof value === "boolean" ? "boolean" : typeof value === "string" ? "categorical" : "numeric");
  if (type === "boolean") {
    const yes = value === true || value === 1 || value === "True" || value === "true";
    const no = value === false || value === 0 || value === "False" || value === "false";
    if (!yes && !no) return { ok: false, message: INGEST_MSG.booleanValue };
    return { ok: true, dataType: type, value: yes ? 1 : 0, stringValue: yes ? "True" : "False" };
  }
  if (type === "categorical") {
    if (typeof value !== "string") return { ok: false, message: INGEST_MSG.categoricalValue };
    return { ok: true, dataType: type, value: null, stringValue: value };
  }
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof number !== "number" || !Number.isFinite(number)) return { ok: false, message: INGEST_MSG.numericValue };
  return { ok: true, dataType: type, value: number, stringValue: null };
}

/** What a person's thumbs judges: one generation or one run of the prompt. */
const thumbsTarget = z.object({ promptId: idSchema, generationId: idSchema.optional(), runId: idSchema.optional() });
const oneTarget = (input: z.infer<typeof thumbsTarget>) => (input.generationId ? 1 : 0) + (input.runId ? 1 : 0) === 1;

/** A person's thumbs up or down in the app, on a generation or a run: their one thumbs there, a second replacing the first (its comment too). */
export const createScoreInput = thumbsTarget
  .extend({ up: z.boolean(), comment: z.string().trim().max(2000).optional() })
  .refine(oneTarget, { message: INGEST_MSG.scoreTarget, path: ["generationId"] });

/** A person removes their own thumbs from a generation or a run. */
export const removeScoreInput = thumbsTarget.refine(oneTarget, { message: INGEST_MSG.scoreTarget, path: ["generationId"] });

/** The largest OTLP request or Langfuse ingestion batch read (Langfuse's own server takes 4.5 MB). */
export const LANGFUSE_INGESTION_MAX_BYTES = "5mb";
