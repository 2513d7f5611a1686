// A prompt's production figures per version, read from the hourly rollups (never the generations
// themselves): counts, error rate, latency and time-to-first-token percentiles from the merged
// histograms, tokens, cost, and each score's mean or share; per chart bucket too. And two versions
// compared on each of them, with the interval, the test and the sentence of shared/compare.ts.
import { Prisma, sqlInstant, type DbOrTx } from "@promptly/db";
import {
  LATENCY_BUCKETS, PRODUCTION_DEFAULT_DAYS, PRODUCTION_MAX_DAYS, PRODUCTION_MSG, PRODUCTION_SCORES_MAX, SCORE_CATEGORIES_MAX, SCORE_OTHER_CATEGORY, compareMeans, compareProportions, percentileFromHist, summarize, verdict,
  type MeanComparison, type MeanSample, type ProductionComparison, type ProductionComparisonMetric, type ProductionFilters, type ProductionMetrics,
  type ProductionVersionMetrics, type ProportionComparison, type ScoreFigure,
} from "@promptly/shared";
import { fail } from "../../errors.ts";
import { categoryOfKey, foldedCategories } from "./score-categories.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface ProductionSpan {
  from: Date;
  to: Date;
}

/** The span the filters mean: `to` (default now) back to `from` (default 7 days before it). */
export function spanOf(filters: Pick<ProductionFilters, "from" | "to">, now: Date): ProductionSpan {
  const to = filters.to ?? now;
  const from = filters.from ?? new Date(to.getTime() - PRODUCTION_DEFAULT_DAYS * DAY);
  // PostgreSQL holds no year 0 nor before it, and an instant past 9999 is not ISO text it reads.
  if (![from, to].every((at) => at.getUTCFullYear() >= 1 && at.getUTCFullYear() <= 9999)) return fail("INVALID", PRODUCTION_MSG.rangeYears);
  if (!(from.getTime() < to.getTime())) return fail("INVALID", PRODUCTION_MSG.rangeOrder);
  if (to.getTime() - from.getTime() > PRODUCTION_MAX_DAYS * DAY) return fail("INVALID", PRODUCTION_MSG.rangeTooLong);
  return { from, to };
}


/**
 * The rollup hours a span covers: each hour row holds [hour, hour + 1h), so the UTC hour `from` falls in is
 * counted. That hour is computed here, not by date_trunc('hour', …), which truncates in the session's time
 * zone: in one offset by half an hour (Asia/Kolkata) an hour starts at :30 UTC, and the row `from` falls in was left out.
 */
function rollupWhere(alias: "r" | "s", promptId: string, span: ProductionSpan, filters: ProductionFilters, withModel: boolean): Prisma.Sql {
  const table = Prisma.raw(alias);
  const parts = [
    Prisma.sql`${table}.prompt_id = ${promptId}::uuid`,
    Prisma.sql`${table}.hour >= ${sqlInstant(new Date(Math.floor(span.from.getTime() / HOUR) * HOUR))}`,
    Prisma.sql`${table}.hour < ${sqlInstant(span.to)}`,
  ];
  if (filters.environment !== undefined) parts.push(Prisma.sql`${table}.environment = ${filters.environment}`);
  if (withModel && filters.model !== undefined) parts.push(Prisma.sql`${table}.model = ${filters.model}`);
  return Prisma.join(parts, " AND ");
}

/**
 * The whole UTC days inside a span, [first, end): read from generation_rollups_daily (each the sum of
 * its 24 hourly rows, kept by a trigger), the hours before and after them from generation_rollups.
 * Null when the span holds no whole day. Over 90 days that is about 90 rows per version, environment
 * and model instead of 2,160.
 */
function wholeDays(span: ProductionSpan): { first: Date; end: Date } | null {
  const first = Math.ceil(span.from.getTime() / DAY) * DAY;
  const end = Math.floor(span.to.getTime() / DAY) * DAY;
  return first < end ? { first: new Date(first), end: new Date(end) } : null;
}

const ROLLUP_COLUMNS = Prisma.raw(`version, environment, model, generations, errors, latency_sum, latency_count, ttft_sum, ttft_count, latency_hist,
  ttft_hist, input_tokens, output_tokens, token_count, cost, cost_count, cost_sum_squares`);

/**
 * The generation rollup rows of a span as one set with an `hour` column (a day's row at its midnight),
 * for sums over the whole span or per day; per hour, the hourly rows alone.
 */
function generationRows(promptId: string, span: ProductionSpan, filters: ProductionFilters, withModel: boolean, days: { first: Date; end: Date } | null, extra: Prisma.Sql): Prisma.Sql {
  const hourly = Prisma.sql`SELECT r.hour, ${ROLLUP_COLUMNS} FROM generation_rollups r WHERE ${rollupWhere("r", promptId, span, filters, withModel)}${extra}`;
  if (!days) return hourly;
  const daily = [Prisma.sql`r.prompt_id = ${promptId}::uuid`, Prisma.sql`r.day >= ${sqlInstant(days.first)}`, Prisma.sql`r.day < ${sqlInstant(days.end)}`];
  if (filters.environment !== undefined) daily.push(Prisma.sql`r.environment = ${filters.environment}`);
  if (withModel && filters.model !== undefined) daily.push(Prisma.sql`r.model = ${filters.model}`);
  return Prisma.sql`${hourly} AND NOT (r.hour >= ${sqlInstant(days.first)} AND r.hour < ${sqlInstant(days.end)})
    UNION ALL
    SELECT r.day AS hour, ${ROLLUP_COLUMNS} FROM generation_rollups_daily r WHERE ${Prisma.join(daily, " AND ")}${extra}`;
}

/** Sums of one version (and bucket) of generation_rollups. */
interface GenerationSums {
  version: number;
  at: Date | null;
  generations: number;
  errors: number;
  latencySum: number;
  latencyCount: number;
  ttftSum: number;
  ttftCount: number;
  inputTokens: number;
  outputTokens: number;
  tokenCount: number;
  cost: number;
  costCount: number;
  costSumSquares: number;
  latencyHist: number[];
  ttftHist: number[];
}

const emptySums = (version: number, at: Date | null): GenerationSums => ({
  version, at, generations: 0, errors: 0, latencySum: 0, latencyCount: 0, ttftSum: 0, ttftCount: 0, inputTokens: 0, outputTokens: 0, tokenCount: 0, cost: 0, costCount: 0,
  costSumSquares: 0,
  latencyHist: [], ttftHist: [],
});

function addHist(into: number[], from: readonly number[]) {
  for (let i = 0; i < from.length; i++) into[i] = (into[i] ?? 0) + (from[i] ?? 0);
}

function addSums(into: GenerationSums, from: GenerationSums) {
  into.generations += from.generations;
  into.errors += from.errors;
  into.latencySum += from.latencySum;
  into.latencyCount += from.latencyCount;
  into.ttftSum += from.ttftSum;
  into.ttftCount += from.ttftCount;
  into.inputTokens += from.inputTokens;
  into.outputTokens += from.outputTokens;
  into.tokenCount += from.tokenCount;
  into.cost += from.cost;
  into.costCount += from.costCount;
  into.costSumSquares += from.costSumSquares;
  addHist(into.latencyHist, from.latencyHist);
  addHist(into.ttftHist, from.ttftHist);
}

/** Every histogram has this many counts (the last one the open bucket). */
const HIST_LENGTH = LATENCY_BUCKETS.length + 1;

/**
 * The sum of each position of a histogram column over the grouped rows, as one array: a SUM per
 * position reads each row once, where unnesting the arrays made 44 rows of each and grouped those
 * (about ten times slower over 90 days of hourly rollups). A shorter stored array reads as zeros.
 */
function histSums(column: "latency_hist" | "ttft_hist"): Prisma.Sql {
  const name = Prisma.raw(`r.${column}`);
  return Prisma.sql`ARRAY[${Prisma.join(Array.from({ length: HIST_LENGTH }, (_, i) => Prisma.sql`COALESCE(SUM(${name}[${Prisma.raw(String(i + 1))}]), 0)::float8`))}]`;
}

/** Drops the zero counts past the last counted bucket, as the figures expect a histogram to end. */
function trimmed(hist: number[]): number[] {
  let end = hist.length;
  while (end > 0 && !(hist[end - 1]! > 0)) end -= 1;
  return hist.slice(0, end);
}

/**
 * The rollups' sums per version and chart bucket (`bucket` null: the whole span in one), their
 * histograms merged bucket by bucket in the database, all in one statement.
 */
async function generationSums(db: DbOrTx, promptId: string, span: ProductionSpan, filters: ProductionFilters, bucket: "hour" | "day" | null, versions?: readonly number[]) {
  const extra = versions ? Prisma.sql` AND r.version IN (${Prisma.join([...versions])})` : Prisma.empty;
  const rollups = generationRows(promptId, span, filters, true, bucket === "hour" ? null : wholeDays(span), extra);
  // date_bin from a UTC midnight: UTC days and hours, without date_trunc's time-zone work on each row.
  const at = bucket ? Prisma.sql`date_bin(${bucket === "day" ? "1 day" : "1 hour"}::interval, r.hour, TIMESTAMPTZ '2000-01-01 00:00:00+00')` : Prisma.sql`NULL::timestamptz`;
  const rows = await db.$queryRaw<(Omit<GenerationSums, "latencyHist" | "ttftHist"> & { latencyHist: number[]; ttftHist: number[] })[]>`
    SELECT r.version, ${at} AS at, SUM(r.generations)::float8 AS generations, SUM(r.errors)::float8 AS errors,
           COALESCE(SUM(r.latency_sum), 0)::float8 AS "latencySum", SUM(r.latency_count)::float8 AS "latencyCount",
           COALESCE(SUM(r.ttft_sum), 0)::float8 AS "ttftSum", SUM(r.ttft_count)::float8 AS "ttftCount",
           COALESCE(SUM(r.input_tokens), 0)::float8 AS "inputTokens", COALESCE(SUM(r.output_tokens), 0)::float8 AS "outputTokens",
           -- A row summed before token_count was kept (null) counts its every generation, as it did.
           SUM(coalesce(r.token_count, r.generations))::float8 AS "tokenCount",
           COALESCE(SUM(r.cost), 0)::float8 AS cost, SUM(r.cost_count)::float8 AS "costCount", COALESCE(SUM(r.cost_sum_squares), 0)::float8 AS "costSumSquares",
           ${histSums("latency_hist")} AS "latencyHist", ${histSums("ttft_hist")} AS "ttftHist"
    FROM (${rollups}) r
    GROUP BY 1, 2`;
  return rows.map((row): GenerationSums => ({ ...row, latencyHist: trimmed(row.latencyHist), ttftHist: trimmed(row.ttftHist) }));
}

/** Sums of one version, score name and data type of score_rollups, with each value's count and the fold's (the rest, summed). */
interface ScoreSums {
  version: number;
  name: string;
  dataType: ScoreFigure["dataType"];
  count: number;
  sum: number;
  sumSquares: number;
  categories: Map<string, number>;
  folded: number;
}

type ScoreRow = Omit<ScoreSums, "categories" | "folded"> & { series: number; typed: boolean };

/** One score series' key: its version, data type and name. */
const seriesKey = (version: number, dataType: string, name: string) => `${version}\n${dataType}\n${name}`;

/**
 * The scores' sums per version, name and data type (they carry no model: the model filter does not apply),
 * of the PRODUCTION_SCORES_MAX most counted series only: a key can send any number of names. A name sent
 * with two types is two series: a yes/no "quality" and a numeric one never add into one sum.
 * `per: "version"` ranks each version's series by its own count (the figures); `per: "pair"` ranks the
 * yes/no and numeric series by their count in both versions together and gives both versions' sums of each
 * (a comparison: one side left out would read as never scored). Each row carries how many series were
 * ranked (its version's, or the pair's) and whether its name was sent with more than one type.
 */
async function scoreRows(db: DbOrTx, where: Prisma.Sql, per: "version" | "pair"): Promise<ScoreRow[]> {
  const partition = per === "version" ? Prisma.sql`PARTITION BY version` : Prisma.empty;
  // A comparison compares no categorical series (it has no one figure to compare): they are neither ranked nor counted.
  const compared = per === "version" ? Prisma.empty : Prisma.sql`WHERE "dataType" <> 'categorical'`;
  return db.$queryRaw<ScoreRow[]>`
    WITH sums AS (
      SELECT s.version, s.name, s.data_type AS "dataType", SUM(s.count)::float8 AS count,
             COALESCE(SUM(s.sum), 0)::float8 AS sum, COALESCE(SUM(s.sum_squares), 0)::float8 AS "sumSquares"
      FROM score_rollups s
      WHERE ${where}
      GROUP BY 1, 2, 3),
    types AS (SELECT name, count(DISTINCT "dataType") > 1 AS typed FROM sums GROUP BY name),
    ranked AS (
      SELECT weighted.*, dense_rank() OVER (${partition} ORDER BY weight DESC, name, "dataType") AS rank
      FROM (SELECT sums.*, SUM(count) OVER (PARTITION BY ${per === "version" ? Prisma.sql`version, ` : Prisma.empty}name, "dataType") AS weight FROM sums ${compared}) weighted)
    SELECT r.version, r.name, r."dataType", r.count, r.sum, r."sumSquares", r.series::int AS series, t.typed
    FROM (SELECT ranked.*, max(rank) OVER (${partition}) AS series FROM ranked) r JOIN types t USING (name)
    WHERE r.rank <= ${PRODUCTION_SCORES_MAX}`;
}

/**
 * The rollup keys' counts of the yes/no and categorical series of `rows`, summed over the span and folded
 * (score-categories.ts): the SCORE_CATEGORIES_MAX most counted values of each series, and the fold (with what
 * the rollups already folded), so the shares still add up to 1.
 */
async function categoryCounts(db: DbOrTx, where: Prisma.Sql, rows: readonly ScoreRow[]) {
  const counted = rows.filter((row) => row.dataType !== "numeric");
  if (!counted.length) return [];
  const entries = Prisma.sql`
    SELECT s.version, s.name, s.data_type, c.key, c.value
      FROM score_rollups s CROSS JOIN LATERAL jsonb_each_text(COALESCE(s.categories, '{}'::jsonb)) AS c(key, value)
     WHERE ${where}
       AND (s.version, s.name, s.data_type) IN (
         SELECT * FROM unnest(${counted.map((row) => row.version)}::int[], ${counted.map((row) => row.name)}::text[], ${counted.map((row) => row.dataType)}::text[])
       )`;
  return db.$queryRaw<{ version: number; name: string; dataType: string; key: string; count: number }[]>`
    SELECT version, name, "dataType", k AS key, n::float8 AS count
      FROM (${foldedCategories(entries, { max: SCORE_CATEGORIES_MAX, series: ["version", "name", "dataType"] })}) folded`;
}

function scoreWhere(promptId: string, span: ProductionSpan, filters: ProductionFilters, versions?: readonly number[]): Prisma.Sql {
  return Prisma.sql`${rollupWhere("s", promptId, span, filters, false)}${versions ? Prisma.sql` AND s.version IN (${Prisma.join([...versions])})` : Prisma.empty}`;
}

/** The figures' score series per version (each version's most counted), with their values' counts, and how many each version left out. */
async function versionScoreSums(db: DbOrTx, promptId: string, span: ProductionSpan, filters: ProductionFilters) {
  const where = scoreWhere(promptId, span, filters);
  const rows = await scoreRows(db, where, "version");
  const sums = new Map<string, ScoreSums>();
  const omitted = new Map<number, number>();
  for (const { series, typed: _typed, ...row } of rows) {
    sums.set(seriesKey(row.version, row.dataType, row.name), { ...row, categories: new Map(), folded: 0 });
    omitted.set(row.version, Math.max(0, series - PRODUCTION_SCORES_MAX));
  }
  for (const row of await categoryCounts(db, where, rows)) {
    const series = sums.get(seriesKey(row.version, row.dataType, row.name));
    const value = categoryOfKey(row.key);
    if (!series) continue;
    if (value === null) series.folded = row.count;
    else series.categories.set(value, row.count);
  }
  return { scores: [...sums.values()], omitted };
}

const ratio = (part: number, whole: number) => (whole > 0 ? part / whole : null);
const percentile = (hist: readonly number[], q: number) => (hist.some((n) => n > 0) ? percentileFromHist([...hist], q) : null);

function scoreFigure(sums: ScoreSums): ScoreFigure {
  const categories: ScoreFigure["categories"] = [...sums.categories]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || a.value.localeCompare(b.value));
  // The rest of the values, summed, come last whatever their count, marked: they are no value of their own
  // (a value sent as SCORE_OTHER_CATEGORY is listed as itself, unmarked).
  if (sums.folded !== 0) categories.push({ value: SCORE_OTHER_CATEGORY, count: sums.folded, other: true });
  return {
    name: sums.name,
    dataType: sums.dataType,
    count: sums.count,
    mean: sums.dataType === "numeric" ? ratio(sums.sum, sums.count) : null,
    // Boolean scores are stored as 1 and 0: their sum counts the trues.
    share: sums.dataType === "boolean" ? ratio(sums.sum, sums.count) : null,
    categories: sums.dataType === "numeric" ? [] : categories,
  };
}

function versionFigures(sums: GenerationSums, scores: readonly ScoreSums[], scoresOmitted: number): ProductionVersionMetrics {
  return {
    version: sums.version,
    generations: sums.generations,
    errors: sums.errors,
    errorRate: ratio(sums.errors, sums.generations),
    latencyP50Ms: percentile(sums.latencyHist, 0.5),
    latencyP95Ms: percentile(sums.latencyHist, 0.95),
    latencyMeanMs: ratio(sums.latencySum, sums.latencyCount),
    ttftP50Ms: percentile(sums.ttftHist, 0.5),
    inputTokens: sums.inputTokens,
    outputTokens: sums.outputTokens,
    // Over the generations whose usage is known: one that reported none did not use 0 tokens.
    meanTokens: ratio(sums.inputTokens + sums.outputTokens, sums.tokenCount),
    cost: sums.cost,
    // Over the generations whose cost is known: one with no price for its model is not free.
    meanCost: ratio(sums.cost, sums.costCount),
    // A name sent with two types is two figures, side by side (by name, then type).
    scores: scores.map(scoreFigure).sort((a, b) => a.name.localeCompare(b.name) || a.dataType.localeCompare(b.dataType)),
    scoresOmitted,
  };
}

/** Per version, newest first: generation sums merged over buckets, with the versions that have only scores too. */
function totalsByVersion(buckets: GenerationSums[], scores: readonly ScoreSums[]): GenerationSums[] {
  const totals = new Map<number, GenerationSums>();
  for (const sums of buckets) {
    const total = totals.get(sums.version) ?? emptySums(sums.version, null);
    addSums(total, sums);
    totals.set(sums.version, total);
  }
  for (const score of scores) if (!totals.has(score.version)) totals.set(score.version, emptySums(score.version, null));
  return [...totals.values()].sort((a, b) => b.version - a.version);
}

/** The items per key, each list in the items' order: one pass, where a filter per key reads them all once per key. */
function groupBy<T, K>(items: readonly T[], keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const group = groups.get(keyOf(item));
    if (group) group.push(item);
    else groups.set(keyOf(item), [item]);
  }
  return groups;
}

/** The chart bucket a span gets by default: hours up to two days, else days. */
const defaultBucket = (span: ProductionSpan): "hour" | "day" => (span.to.getTime() - span.from.getTime() <= 2 * DAY ? "hour" : "day");

/** The prompt's figures per version over the span, and per chart bucket for the charts. */
export async function productionMetrics(
  db: DbOrTx,
  promptId: string,
  filters: ProductionFilters & { bucket?: "hour" | "day" },
  now: Date,
): Promise<ProductionMetrics> {
  const span = spanOf(filters, now);
  const bucket = filters.bucket ?? defaultBucket(span);
  const [buckets, { scores, omitted }, seen] = await Promise.all([
    generationSums(db, promptId, span, filters, bucket),
    versionScoreSums(db, promptId, span, filters),
    // Every environment and model of the span, from one pass over its rows.
    db.$queryRaw<{ environment: string; model: string }[]>`
      SELECT DISTINCT r.environment, r.model FROM (${generationRows(promptId, span, {}, false, wholeDays(span), Prisma.empty)}) r`,
  ]);
  const scoresOf = groupBy(scores, (score) => score.version);
  const bucketsOf = groupBy(buckets, (sums) => sums.version);
  const versions = totalsByVersion(buckets, scores).map((total) => versionFigures(total, scoresOf.get(total.version) ?? [], omitted.get(total.version) ?? 0));
  const series = versions.map(({ version }) => ({
    version,
    points: (bucketsOf.get(version) ?? [])
      .filter((sums) => sums.at)
      .sort((a, b) => a.at!.getTime() - b.at!.getTime())
      .map((sums) => ({
        at: sums.at!.toISOString(),
        generations: sums.generations,
        errors: sums.errors,
        latencyP50Ms: percentile(sums.latencyHist, 0.5),
        latencyP95Ms: percentile(sums.latencyHist, 0.95),
        cost: sums.cost,
      })),
  }));
  const sorted = (kind: "environment" | "model") => [...new Set(seen.map((row) => row[kind]).filter((value) => value !== ""))].sort();
  return {
    from: span.from.toISOString(), to: span.to.toISOString(), bucket, environments: sorted("environment"), models: sorted("model"), versions,
    // The scores carry no model: with a model asked for, they are still every model's, and the answer says so.
    scoresAllModels: filters.model !== undefined, series,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Comparing two versions
// ---------------------------------------------------------------------------------------------------------------

/** A histogram bucket's bounds; the open last bucket is taken as one more step of √2, as the others are wide. */
function bucketBounds(i: number): { lower: number; upper: number } {
  const lower = i === 0 ? 0 : LATENCY_BUCKETS[i - 1]!;
  return { lower, upper: LATENCY_BUCKETS[i] ?? lower * Math.SQRT2 };
}

/** A histogram bucket's typical value: the geometric middle of its bounds (the last, open bucket: its lower bound). */
function bucketValue(i: number): number {
  const { lower, upper } = bucketBounds(i);
  if (i >= LATENCY_BUCKETS.length) return lower;
  return lower > 0 ? Math.sqrt(lower * upper) : upper / 2;
}

/**
 * A latency (total, or to the first token) as a mean sample: the exact mean of the rollups' sums, and
 * the spread estimated from the merged histogram (the rollups keep no sum of squares of latencies): the
 * spread of the buckets' values, plus the spread within each bucket (width²/12, as if uniform in it). The
 * latter keeps the estimate above zero, so values sharing one bucket never read as an exact difference.
 */
function timeSample(count: number, sum: number, hist: readonly number[]): MeanSample {
  if (!(count > 0)) return { n: 0, mean: Number.NaN, variance: Number.NaN };
  const mean = sum / count;
  const counted = hist.reduce((total, n) => total + n, 0);
  if (counted < 2) return { n: count, mean, variance: Number.NaN };
  const histMean = hist.reduce((total, n, i) => total + n * bucketValue(i), 0) / counted;
  const squares = hist.reduce((total, n, i) => {
    const { lower, upper } = bucketBounds(i);
    return total + n * ((bucketValue(i) - histMean) ** 2 + (upper - lower) ** 2 / 12);
  }, 0);
  return { n: count, mean, variance: squares / (counted - 1) };
}

const latencySample = (sums: GenerationSums) => timeSample(sums.latencyCount, sums.latencySum, sums.latencyHist);
const ttftSample = (sums: GenerationSums) => timeSample(sums.ttftCount, sums.ttftSum, sums.ttftHist);

const nullable = (value: number) => (Number.isFinite(value) ? value : null);

function metricOf(
  comparison: ProportionComparison | MeanComparison,
  labels: { a: string; b: string },
  metric: string,
  options: { lowerIsBetter: boolean; unit: string | null; note?: string; minimumPerVersion?: number; counted?: "scored generations" | "generations" },
): ProductionComparisonMetric {
  const value = (side: ProportionComparison["a"] | MeanComparison["a"]) => nullable("rate" in side ? side.rate : side.mean);
  return {
    metric,
    kind: comparison.kind,
    lowerIsBetter: options.lowerIsBetter,
    unit: options.unit,
    a: { n: comparison.a.n, value: value(comparison.a) },
    b: { n: comparison.b.n, value: value(comparison.b) },
    difference: nullable(comparison.difference),
    lower: nullable(comparison.lower),
    upper: nullable(comparison.upper),
    pValue: nullable(comparison.pValue),
    significant: comparison.significant,
    verdict: verdict({
      metric, labelA: labels.a, labelB: labels.b, comparison, lowerIsBetter: options.lowerIsBetter, unit: options.unit ?? undefined, minimumPerVersion: options.minimumPerVersion,
      counted: options.counted,
    }),
    note: options.note ?? null,
  };
}

/** The two versions a comparison names: both given, or a split label's version and candidate. */
async function comparedVersions(db: DbOrTx, promptId: string, input: { a?: number; b?: number; label?: string }): Promise<{ a: number; b: number; label: string | null }> {
  if (input.label !== undefined) {
    if (input.a !== undefined || input.b !== undefined) return fail("INVALID", PRODUCTION_MSG.versionsOrLabel);
    const [label] = await db.$queryRaw<{ version: number; candidate: number | null }[]>`
      SELECT l.version, l.candidate_version AS candidate FROM prompt_labels l WHERE l.prompt_id = ${promptId}::uuid AND l.name = ${input.label}`;
    if (!label || label.candidate === null) return fail("INVALID", PRODUCTION_MSG.notSplit(input.label));
    return { a: label.version, b: label.candidate, label: input.label };
  }
  if (input.a === undefined || input.b === undefined || input.a === input.b) return fail("INVALID", PRODUCTION_MSG.sameVersions);
  return { a: input.a, b: input.b, label: null };
}

/**
 * When versions a and b began to share a label's traffic: the start of the current splits between them
 * (the earliest, when two labels split them), or null when no label splits them now.
 */
async function splitStart(db: DbOrTx, promptId: string, a: number, b: number): Promise<Date | null> {
  const [row] = await db.$queryRaw<{ since: Date | null }[]>`
    SELECT MIN(l.moved_at) AS since FROM prompt_labels l
    WHERE l.prompt_id = ${promptId}::uuid AND ((l.version = ${a} AND l.candidate_version = ${b}) OR (l.version = ${b} AND l.candidate_version = ${a}))`;
  return row?.since ?? null;
}

/**
 * Version b against version a on every figure both can be compared on: the error rate, mean latency,
 * mean time to first token and mean cost of the generations, and each score (a boolean's share of true, a numeric's mean). Each with its
 * interval and sentence. The two sides of a current split are compared since it began, when that is inside the span.
 */
export async function compareProductionVersions(
  db: DbOrTx,
  promptId: string,
  input: ProductionFilters & { a?: number; b?: number; label?: string },
  now: Date,
): Promise<ProductionComparison> {
  const range = spanOf(input, now);
  const { a, b, label } = await comparedVersions(db, promptId, input);
  // A current split's two sides are compared from its start (from the rollup hour it falls in): before it, one of
  // them served alone, to another time's traffic.
  const began = await splitStart(db, promptId, a, b);
  const since = began && began > range.from && began < range.to ? began : null;
  const span = since ? { from: since, to: range.to } : range;
  const [buckets, scores] = await Promise.all([generationSums(db, promptId, span, input, null, [a, b]), scoreRows(db, scoreWhere(promptId, span, input, [a, b]), "pair")]);
  const sumsOf = (version: number) => buckets.find((sums) => sums.version === version) ?? emptySums(version, null);
  const [sa, sb] = [sumsOf(a), sumsOf(b)];
  const labels = { a: `v${a}`, b: `v${b}` };
  const metrics: ProductionComparisonMetric[] = [
    metricOf(compareProportions({ successes: sa.errors, total: sa.generations }, { successes: sb.errors, total: sb.generations }), labels, "error rate", { lowerIsBetter: true, unit: null, counted: "generations" }),
    metricOf(compareMeans(latencySample(sa), latencySample(sb)), labels, "latency", {
      lowerIsBetter: true, unit: "ms", counted: "generations", note: "The spread of latencies is estimated from the histogram's buckets",
    }),
  ];
  // Streamed generations only report a first token: compared when either version has one.
  if (sa.ttftCount + sb.ttftCount > 0) {
    metrics.push(
      metricOf(compareMeans(ttftSample(sa), ttftSample(sb)), labels, "time to first token", {
        lowerIsBetter: true, unit: "ms", counted: "generations", note: "The spread of times to first token is estimated from the histogram's buckets",
      }),
    );
  }
  // Cost per generation, over the generations whose cost is known: the rollups keep its sum of squares, so the spread is exact.
  if (sa.costCount + sb.costCount > 0) {
    const costSample = (sums: GenerationSums) => summarize({ count: sums.costCount, sum: sums.cost, sumSquares: sums.costSumSquares });
    metrics.push(metricOf(compareMeans(costSample(sa), costSample(sb)), labels, "cost per generation", { lowerIsBetter: true, unit: "USD", counted: "generations" }));
  }
  // Each score series of a name and data type is compared with the same series of the other version, never a
  // yes/no score with a numeric one of the same name: a name the two versions scored with two types is compared
  // per type, each named with its type. The pair's most counted series are compared (scoreRows), each looked
  // up by its key: a key can send any number of names.
  const bySeries = new Map(scores.map((score) => [seriesKey(score.version, score.dataType, score.name), score]));
  const series = [...new Map(scores.map((score) => [`${score.dataType}\n${score.name}`, score])).values()].sort(
    (x, y) => x.name.localeCompare(y.name) || x.dataType.localeCompare(y.dataType),
  );
  for (const { name, dataType, typed } of series) {
    const [scoreA, scoreB] = [bySeries.get(seriesKey(a, dataType, name)), bySeries.get(seriesKey(b, dataType, name))];
    const side = (score: ScoreRow | undefined) => ({ count: score?.count ?? 0, sum: score?.sum ?? 0, sumSquares: score?.sumSquares ?? 0 });
    // Rows summed before the rollups were kept per data type may hold both types' values (a numeric 5 in a
    // yes/no row), and one of them taken away since leaves a count below zero: such a side is read within
    // what a share can be (0 to its count of true, a count of at least 0) rather than failing the comparison.
    const proportion = (score: ScoreRow | undefined) => {
      const total = Math.max(0, side(score).count);
      return { successes: Math.min(total, Math.max(0, Math.round(side(score).sum))), total };
    };
    const comparison =
      dataType === "boolean" ? compareProportions(proportion(scoreA), proportion(scoreB)) : compareMeans(summarize(side(scoreA)), summarize(side(scoreB)));
    metrics.push(metricOf(comparison, labels, typed ? `${name} (${dataType})` : name, { lowerIsBetter: false, unit: null }));
  }
  const scoresOmitted = Math.max(0, (scores[0]?.series ?? 0) - PRODUCTION_SCORES_MAX);
  return { a, b, label, confidence: 0.95, since: since?.toISOString() ?? null, metrics, scoresOmitted };
}
