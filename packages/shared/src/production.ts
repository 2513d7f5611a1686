// Production signals: what both sides need of generations and scores sent in from the teams' own code
// (OpenTelemetry, Langfuse SDKs, /api/v1): the latency buckets the hourly rollups count in, percentiles
// read back from them, and the limits and names of what is kept.

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
export const GENERATION_SOURCES = ["otel", "langfuse", "api"] as const;
export type GenerationSource = (typeof GENERATION_SOURCES)[number];

export const GENERATION_STATUSES = ["ok", "error"] as const;
export type GenerationStatus = (typeof GENERATION_STATUSES)[number];

export const SCORE_DATA_TYPES = ["numeric", "boolean", "categorical"] as const;
export type ScoreDataType = (typeof SCORE_DATA_TYPES)[number];

export const SCORE_SOURCES = ["api", "annotation", "eval"] as const;
export type ScoreSource = (typeof SCORE_SOURCES)[number];

/** The name of a person's thumbs up (1) or down (0) given in the app. */
export const THUMBS_SCORE_NAME = "thumbs";

/** A generation's input and output text, when the team keeps them, are cut to this many bytes each. */
export const GENERATION_TEXT_MAX_BYTES = 32 * 1024;

/** The environment of a generation or score that names none. */
export const DEFAULT_ENVIRONMENT = "default";
