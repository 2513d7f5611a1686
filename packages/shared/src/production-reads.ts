// Reading production signals: the figures per prompt version (from the hourly rollups), a comparison of
// two versions, and the generations themselves. The web's Production tab, the tRPC procedures and
// REST /api/v1 share these inputs and answers.
import { z } from "zod";
import type { CsvCell } from "./csv.ts";
import { idSchema, plainText } from "./validation.ts";


/** Without `from`, the figures cover this many days up to `to` (or now). */
export const PRODUCTION_DEFAULT_DAYS = 7;
/** The longest span one request covers. */
export const PRODUCTION_MAX_DAYS = 366;

export const PRODUCTION_MSG = {
  rangeOrder: "'from' must be before 'to'",
  rangeTooLong: `The range covers at most ${PRODUCTION_MAX_DAYS} days`,
  rangeYears: "'from' and 'to' must fall in the years 1 to 9999",
  sameVersions: "Choose two different versions to compare",
  versionsOrLabel: "Compare two versions (a and b) or a split label, not both",
  notSplit: (label: string) => `The label '${label}' is not split between two versions`,
  generationNotFound: "Generation not found",
  empty: "No production data yet",
} as const;

const environmentSchema = plainText().trim().min(1).max(100);
const modelSchema = plainText().trim().min(1).max(200);
const instant = z.coerce.date();

/** The filters every figure takes: a time span (ISO instants; default the last 7 days), an environment, a model. */
const productionFilters = z.object({
  from: instant.optional(),
  to: instant.optional(),
  environment: environmentSchema.optional(),
  /** The generations' model; the scores have no model, so their figures ignore it. */
  model: modelSchema.optional(),
});
export type ProductionFilters = z.output<typeof productionFilters>;

const productionBuckets = ["hour", "day"] as const;

export const productionMetricsInput = productionFilters.extend({
  promptId: idSchema,
  /** The charts' bucket; by default hours for spans up to two days, else days. */
  bucket: z.enum(productionBuckets).optional(),
});

export const productionCompareInput = productionFilters.extend({
  promptId: idSchema,
  /** Two versions: `a` is the baseline, `b` the candidate. */
  a: z.number().int().min(1).optional(),
  b: z.number().int().min(1).optional(),
  /** Or a split label: its version (the baseline) against its candidate. */
  label: plainText().trim().min(1).max(64).optional(),
});

/** The largest page of generations a read gives (the app's list and export, the REST list). */
export const GENERATIONS_PAGE_MAX = 200;

export const productionGenerationsInput = productionFilters.extend({
  promptId: idSchema,
  version: z.number().int().min(1).optional(),
  status: z.enum(["ok", "error"]).optional(),
  cursor: z.string().max(500).optional(),
  limit: z.number().int().min(1).max(GENERATIONS_PAGE_MAX).optional(),
});

export const productionGenerationInput = z.object({ promptId: idSchema, id: idSchema });

// ---- answers ----

const int = z.number().int();
/** A figure with nothing to compute it from (no generation with a latency, say) is null. */
const figure = z.number().nullable();

/**
 * The most score series an answer carries per version (a comparison: per pair), the most counted first;
 * the rest are counted in `scoresOmitted`. A key can send any number of score names.
 */
export const PRODUCTION_SCORES_MAX = 100;
/** The most values a categorical score's figure lists, the most counted first; the rest are summed as one SCORE_OTHER_CATEGORY entry. */
export const SCORE_CATEGORIES_MAX = 50;
/**
 * The value a figure's entry summing its less frequent values shows (that entry alone is marked `other: true`),
 * so the shares still add up to 1. A value sent as "(other)" is a value like any other: listed as itself.
 */
export const SCORE_OTHER_CATEGORY = "(other)";

const scoreFigure = z.object({
  name: z.string(),
  dataType: z.enum(["numeric", "boolean", "categorical"]),
  count: int,
  /** Numeric scores: the mean value. */
  mean: figure,
  /** Boolean scores: the share of true (0 to 1). */
  share: figure,
  /** Boolean and categorical scores: each value's count, most frequent first; past SCORE_CATEGORIES_MAX, the rest summed as "(other)", last. */
  categories: z
    .array(
      z.object({
        value: z.string(),
        count: int,
        other: z
          .literal(true)
          .optional()
          .describe(`Only on the last entry that sums the values not listed, whose value is "${SCORE_OTHER_CATEGORY}" (a value sent as "${SCORE_OTHER_CATEGORY}" is listed as itself, without it)`),
      }),
    )
    .describe(
      `Yes/no and categorical scores: each value's count, the most counted first, at most ${SCORE_CATEGORIES_MAX}; ` +
        `the counts of the other values summed in one last entry marked other: true, so the counts add up to count. Numeric scores: none`,
    ),
});
export type ScoreFigure = z.infer<typeof scoreFigure>;

const versionFigures = {
  generations: int,
  errors: int,
  /** errors / generations (0 to 1). */
  errorRate: figure,
  latencyP50Ms: figure,
  latencyP95Ms: figure,
  latencyMeanMs: figure,
  ttftP50Ms: figure,
  inputTokens: int,
  outputTokens: int,
  /** Tokens (input + output) per generation. */
  meanTokens: figure,
  /** USD over the span, and per generation. */
  cost: z.number(),
  meanCost: figure,
};

const productionVersionMetrics = z.object({
  version: int,
  ...versionFigures,
  scores: z.array(scoreFigure),
  /** How many score series of the version are not in `scores` (it carries the PRODUCTION_SCORES_MAX most counted). */
  scoresOmitted: int,
});
export type ProductionVersionMetrics = z.infer<typeof productionVersionMetrics>;

const productionSeriesPoint = z.object({
  at: z.iso.datetime(),
  generations: int,
  errors: int,
  latencyP50Ms: figure,
  latencyP95Ms: figure,
  cost: z.number(),
});

export const productionMetrics = z.object({
  from: z.iso.datetime(),
  to: z.iso.datetime(),
  bucket: z.enum(productionBuckets),
  /** The environments and models seen over the span (for the filters), sorted. */
  environments: z.array(z.string()),
  models: z.array(z.string()),
  versions: z.array(productionVersionMetrics),
  /** True when a model filter is set: the scores carry no model, so their figures are of every model's generations. */
  scoresAllModels: z.boolean(),
  /** Per version, each bucket of the span that has generations, oldest first. */
  series: z.array(z.object({ version: int, points: z.array(productionSeriesPoint) })),
});
export type ProductionMetrics = z.infer<typeof productionMetrics>;

/** REST's metrics answer: the span and the figures per version. */
export const runtimeProductionMetrics = z.object({
  from: z.iso.datetime(),
  to: z.iso.datetime(),
  environment: z.string().nullable(),
  versions: z.array(productionVersionMetrics.omit({ meanTokens: true, latencyMeanMs: true, meanCost: true, errors: true })),
  /** True when a model is asked for: the scores carry no model, so their figures are of every model's generations. */
  scoresAllModels: z.boolean(),
});

/** GET /api/v1/prompts/{name}/metrics: the span (default the last 7 days) and an environment. */
export const runtimeProductionMetricsQuery = z.object({
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  environment: environmentSchema.optional(),
  model: modelSchema
    .optional()
    .describe("The generations' model: filters the generation figures. Scores carry no model, so they are not filtered by it (the answer says so with scoresAllModels)"),
});

const productionComparisonMetric = z.object({
  /** "error rate", "latency", "cost", or a score's name. */
  metric: z.string(),
  kind: z.enum(["proportion", "mean"]),
  lowerIsBetter: z.boolean(),
  unit: z.string().nullable(),
  a: z.object({ n: int, value: figure }),
  b: z.object({ n: int, value: figure }),
  /** b - a, with its confidence interval (null when it cannot be computed yet). */
  difference: figure,
  lower: figure,
  upper: figure,
  pValue: figure,
  significant: z.boolean(),
  /** The sentence the page shows. */
  verdict: z.string(),
  /** How the figure was measured when it is not exact (latency's spread from the histogram). */
  note: z.string().nullable(),
});
export type ProductionComparisonMetric = z.infer<typeof productionComparisonMetric>;

export const productionComparison = z.object({
  a: int,
  b: int,
  label: z.string().nullable(),
  confidence: z.number(),
  /** When the two versions are a current split's that began inside the span: its start, where the comparison starts too. */
  since: z.iso.datetime().nullable(),
  metrics: z.array(productionComparisonMetric),
  /** How many score series of the two versions are not compared (the PRODUCTION_SCORES_MAX most counted are). */
  scoresOmitted: int,
});
export type ProductionComparison = z.infer<typeof productionComparison>;

const generationScore = z.object({
  id: z.string(),
  name: z.string(),
  dataType: z.enum(["numeric", "boolean", "categorical"]),
  value: z.number().nullable(),
  stringValue: z.string().nullable(),
  comment: z.string().nullable(),
  source: z.string(),
  createdAt: z.iso.datetime(),
});

/**
 * The most scores a generation is listed with, its newest: online evaluation's 20 assertions and a team's
 * thumbs and API scores fit, and a page stays bounded when a generation has received hundreds of thousands.
 */
export const GENERATION_SCORES_MAX = 50;
/**
 * The most scores beyond those listed a generation's `moreScores` counts: counting every one of a generation
 * flooded with a million would read a million rows on each page. Past it, `moreScoresCapped` says there are more.
 */
export const GENERATION_MORE_SCORES_COUNTED = 1_000;

const generationItem = z.object({
  id: z.string(),
  version: int.nullable(),
  model: z.string().nullable(),
  startedAt: z.iso.datetime(),
  latencyMs: figure,
  ttftMs: figure,
  tokens: z.object({ input: int.nullable(), output: int.nullable() }),
  cost: figure,
  status: z.enum(["ok", "error"]),
  error: z.string().nullable(),
  traceId: z.string().nullable(),
  observationId: z.string(),
  userRef: z.string().nullable(),
  sessionRef: z.string().nullable(),
  environment: z.string(),
  /** Its newest scores (at most GENERATION_SCORES_MAX), oldest first. */
  scores: z.array(generationScore),
  /** How many scores it has beyond those listed, counted up to GENERATION_MORE_SCORES_COUNTED. */
  moreScores: int.describe(
    `How many scores the generation has beyond those listed (its newest ${GENERATION_SCORES_MAX}), counted up to ${GENERATION_MORE_SCORES_COUNTED.toLocaleString("en-US")}: see moreScoresCapped`,
  ),
  /** True when it has more than GENERATION_MORE_SCORES_COUNTED beyond those listed: `moreScores` is then that many, a lower bound. */
  moreScoresCapped: z
    .boolean()
    .describe(`True when the generation has more than ${GENERATION_MORE_SCORES_COUNTED.toLocaleString("en-US")} scores beyond those listed: moreScores is then ${GENERATION_MORE_SCORES_COUNTED.toLocaleString("en-US")}, the most counted`),
});
export type GenerationItem = z.infer<typeof generationItem>;

export const generationPage = z.object({ items: z.array(generationItem), nextCursor: z.string().nullable() });
export type GenerationPage = z.infer<typeof generationPage>;

/**
 * One generation with its text, when its team keeps it (else both null) and the caller may read it
 * (`textReadable`: the team's members and organization admins; else both null too).
 */
const generationDetail = generationItem.extend({ input: z.string().nullable(), output: z.string().nullable(), textKept: z.boolean(), textReadable: z.boolean() });
export type GenerationDetail = z.infer<typeof generationDetail>;

/** One generation as the app shows it to a person: with their own thumbs on it (up or down, and its comment), if they gave one. */
export const generationForPerson = generationDetail.extend({ ownThumbs: z.object({ up: z.boolean(), comment: z.string().nullable() }).nullable() });

const PRODUCTION_EXPORT_FORMATS = ["json", "csv", "jsonl"] as const;

/** GET /api/v1/prompts/{name}/generations: filters, a page (newest first) or an export of the whole span. */
export const runtimeGenerationsQuery = z.object({
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  environment: environmentSchema.optional(),
  model: modelSchema.optional(),
  version: z.coerce.number().int().min(1).max(2 ** 31 - 1).optional(),
  status: z.enum(["ok", "error"]).optional(),
  cursor: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(GENERATIONS_PAGE_MAX).optional(),
  /** json (default): a page; csv or jsonl: every generation of the span, newest first, streamed (at most 100,000). */
  format: z.enum(PRODUCTION_EXPORT_FORMATS).optional(),
});

/** The most rows one export writes. */
export const PRODUCTION_EXPORT_LIMIT = 100_000;

/** The columns of a generations export in CSV (REST /api/v1 and the Production tab's download alike). */
export const GENERATION_CSV_HEADER = [
  "id", "version", "model", "startedAt", "latencyMs", "ttftMs", "inputTokens", "outputTokens", "cost", "status", "error",
  "traceId", "observationId", "userRef", "sessionRef", "environment", "scores",
];

/** One generation as a row under GENERATION_CSV_HEADER; scores as `name=value` pairs separated by "; ". */
export const generationCsvRow = (item: GenerationItem): CsvCell[] => [
  item.id, item.version, item.model, item.startedAt, item.latencyMs, item.ttftMs, item.tokens.input, item.tokens.output, item.cost, item.status, item.error,
  item.traceId, item.observationId, item.userRef, item.sessionRef, item.environment,
  item.scores.map((score) => `${score.name}=${score.stringValue ?? score.value ?? ""}`).join("; "),
];

/** Generations as JSON Lines: each the item a page gives, one a line. */
export const generationJsonLines = (items: GenerationItem[]) => items.map((item) => `${JSON.stringify(item)}\n`).join("");

/**
 * A generations export's file name (the app's download and REST's Content-Disposition): the prompt's name
 * made safe, each run of other characters than letters of either case, digits, '.', '_' and '-' one '_'
 * ("Support-Bot", "a/b" to "a_b"), then `-generations.csv` or `.jsonl`.
 */
export const generationExportFileName = (promptName: string, format: "csv" | "jsonl") => `${promptName.replace(/[^A-Za-z0-9._-]+/g, "_")}-generations.${format}`;
