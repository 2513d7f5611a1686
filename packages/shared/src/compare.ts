// Comparing two prompt versions that split production traffic: a difference of proportions (thumbs-up, error
// rate) or of means (latency, cost, a numeric score), its confidence interval and test, how much more data would
// settle it, and the one sentence the prompt page shows. Pure arithmetic with no dependencies: the distribution
// functions (normal, Student t, regularized incomplete beta and gamma) are implemented here.

// ---------------------------------------------------------------------------------------------------------------
// Special functions
// ---------------------------------------------------------------------------------------------------------------

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** ln Γ(x) for x > 0 (Lanczos, g = 7; about 15 significant digits). */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
  const z = x - 1;
  let sum = LANCZOS[0]!;
  for (let i = 1; i < LANCZOS.length; i++) sum += LANCZOS[i]! / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

const EPSILON = 1e-15;
const TINY = 1e-300;
const MAX_ITERATIONS = 1000;

/** The regularized lower incomplete gamma P(a, x) and its complement Q(a, x). */
function incompleteGamma(a: number, x: number): { p: number; q: number } {
  if (x <= 0) return { p: 0, q: 1 };
  const logPrefix = a * Math.log(x) - x - logGamma(a);
  if (x < a + 1) {
    // Series: converges fast below the mean.
    let term = 1 / a;
    let sum = term;
    for (let n = 1; n < MAX_ITERATIONS; n++) {
      term *= x / (a + n);
      sum += term;
      if (Math.abs(term) < Math.abs(sum) * EPSILON) break;
    }
    const p = sum * Math.exp(logPrefix);
    return { p, q: 1 - p };
  }
  // Continued fraction for Q (modified Lentz), accurate in the upper tail where 1 - P would lose every digit.
  let b = x + 1 - a;
  let c = 1 / TINY;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < MAX_ITERATIONS; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPSILON) break;
  }
  const q = Math.exp(logPrefix) * h;
  return { p: 1 - q, q };
}

/** The continued fraction of the incomplete beta function (modified Lentz). */
function betaContinuedFraction(a: number, b: number, x: number): number {
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  for (let m = 1; m < MAX_ITERATIONS; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPSILON) break;
  }
  return h;
}

/** The regularized incomplete beta function I_x(a, b), for a, b > 0 and 0 ≤ x ≤ 1. */
export function regularizedBeta(x: number, a: number, b: number): number {
  if (Number.isNaN(x) || Number.isNaN(a) || Number.isNaN(b)) return Number.NaN;
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const logFront = logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x);
  const front = Math.exp(logFront);
  // The fraction converges quickly only for x < (a + 1) / (a + b + 2); beyond it use I_x(a, b) = 1 - I_{1-x}(b, a).
  if (x < (a + 1) / (a + b + 2)) return (front * betaContinuedFraction(a, b, x)) / a;
  return 1 - (front * betaContinuedFraction(b, a, 1 - x)) / b;
}

/** P(Z ≤ z) for a standard normal Z, through erfc(t) = Q(1/2, t²); full double precision in both tails. */
export function normalCdf(z: number): number {
  if (Number.isNaN(z)) return Number.NaN;
  if (z === Infinity) return 1;
  if (z === -Infinity) return 0;
  const tail = 0.5 * incompleteGamma(0.5, (z * z) / 2).q; // P(Z > |z|)
  return z < 0 ? tail : 1 - tail;
}

/** The two-sided upper-tail probability P(|Z| ≥ |z|), without the cancellation of 2 * (1 - normalCdf(|z|)). */
function normalTwoSided(z: number): number {
  if (Number.isNaN(z)) return Number.NaN;
  if (!Number.isFinite(z)) return 0;
  return incompleteGamma(0.5, (z * z) / 2).q;
}

/** The z with P(Z ≤ z) = p: Acklam's rational approximation, polished by one Halley step on normalCdf. */
export function normalQuantile(p: number): number {
  if (Number.isNaN(p) || p < 0 || p > 1) return Number.NaN;
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  let x: number;
  if (p < low || p > 1 - low) {
    const q = Math.sqrt(-2 * Math.log(p < low ? p : 1 - p));
    const value =
      (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) /
      ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
    x = p < low ? value : -value;
  } else {
    const q = p - 0.5;
    const r = q * q;
    x =
      ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) /
      (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1);
  }
  // Halley's step takes the approximation's 1e-9 to machine precision.
  const e = normalCdf(x) - p;
  const u = e * Math.sqrt(2 * Math.PI) * Math.exp((x * x) / 2);
  return x - u / (1 + (x * u) / 2);
}

/** P(T ≤ t) for Student's t with df degrees of freedom (df > 0, not necessarily whole). */
export function studentTCdf(t: number, df: number): number {
  if (Number.isNaN(t) || !(df > 0)) return Number.NaN;
  if (t === Infinity) return 1;
  if (t === -Infinity) return 0;
  if (df === Infinity) return normalCdf(t);
  const tail = 0.5 * regularizedBeta(df / (df + t * t), df / 2, 0.5); // P(T > |t|)
  return t < 0 ? tail : 1 - tail;
}

/** The two-sided upper-tail probability P(|T| ≥ |t|). */
function studentTTwoSided(t: number, df: number): number {
  if (Number.isNaN(t) || !(df > 0)) return Number.NaN;
  if (!Number.isFinite(t)) return 0;
  if (df === Infinity) return normalTwoSided(t);
  return regularizedBeta(df / (df + t * t), df / 2, 0.5);
}

/** The t with P(T ≤ t) = p for Student's t with df degrees of freedom: bracketing, then bisection to the last bit. */
export function studentTQuantile(p: number, df: number): number {
  if (Number.isNaN(p) || p < 0 || p > 1 || !(df > 0)) return Number.NaN;
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  if (p === 0.5) return 0;
  if (df === Infinity) return normalQuantile(p);
  // Solve in the upper half and mirror: the t distribution is symmetric.
  const upper = Math.max(p, 1 - p);
  let lo = 0;
  let hi = Math.max(1, normalQuantile(upper));
  while (studentTCdf(hi, df) < upper && hi < 1e300) {
    lo = hi;
    hi *= 2;
  }
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (mid === lo || mid === hi) break;
    if (studentTCdf(mid, df) < upper) lo = mid;
    else hi = mid;
  }
  const x = (lo + hi) / 2;
  return p < 0.5 ? -x : x;
}

// ---------------------------------------------------------------------------------------------------------------
// Comparisons
// ---------------------------------------------------------------------------------------------------------------

/** The power that `moreNeeded` plans for: an 80% chance of detecting the difference observed so far. */
const PLANNING_POWER = 0.8;

export interface ProportionSample {
  successes: number;
  total: number;
}

export interface CompareOptions {
  /** Two-sided confidence level of the interval; the test's significance level is 1 - confidence. Default 0.95. */
  confidence?: number;
}

export interface ProportionComparison {
  kind: "proportion";
  confidence: number;
  a: { n: number; rate: number };
  b: { n: number; rate: number };
  /** rate(B) - rate(A), as a fraction (0.061 is 6.1 percentage points). */
  difference: number;
  /** Newcombe's hybrid score interval of the difference. */
  lower: number;
  upper: number;
  /** Pooled two-proportion z statistic (positive when B is higher). */
  z: number;
  pValue: number;
  /** p < 1 - confidence and the interval excludes zero (the two agree except at the very edge). */
  significant: boolean;
  /** More observations in all, split in the current ratio, to detect the observed difference with 80% power; null when it is 0, already significant, or undefined. */
  moreNeeded: number | null;
}

function wilson(successes: number, total: number, z: number): { lower: number; upper: number } {
  const p = successes / total;
  const z2 = z * z;
  const denominator = 1 + z2 / total;
  const centre = (p + z2 / (2 * total)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / total + z2 / (4 * total * total));
  return { lower: Math.max(0, centre - half), upper: Math.min(1, centre + half) };
}

/**
 * More observations (both sides together, split in the current ratio) for a two-sided test at level alpha to detect
 * `difference` with 80% power, given each side's per-observation variance: N = (z_{1-α/2} + z_power)² (vA/fA + vB/fB) / d².
 */
function moreForPower(difference: number, varianceA: number, varianceB: number, nA: number, nB: number, alpha: number): number | null {
  const total = nA + nB;
  if (!(difference !== 0) || !(nA > 0) || !(nB > 0) || !Number.isFinite(varianceA) || !Number.isFinite(varianceB)) return null;
  const zSum = normalQuantile(1 - alpha / 2) + normalQuantile(PLANNING_POWER);
  const needed = (zSum * zSum * (varianceA / (nA / total) + varianceB / (nB / total))) / (difference * difference);
  // Not significant yet means more data is needed, even where the planning formula already counts enough.
  return Math.max(1, Math.ceil(needed - total));
}

function checkConfidence(confidence: number): void {
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`confidence must be between 0 and 1, got ${confidence}`);
}

function checkCount(value: number, name: string): void {
  if (!Number.isInteger(value) || value < 0) throw new RangeError(`${name} must be a whole number ≥ 0, got ${value}`);
}

/**
 * B versus A on a rate. The interval is Newcombe's hybrid score interval (his method 10: Wilson intervals of each
 * rate, combined), which keeps its coverage for small samples and rates near 0 or 1 (error rates) where the Wald
 * interval does not. The test is the pooled two-proportion z test (the same as a 2×2 chi-square without
 * continuity correction).
 */
export function compareProportions(a: ProportionSample, b: ProportionSample, options: CompareOptions = {}): ProportionComparison {
  const confidence = options.confidence ?? 0.95;
  checkConfidence(confidence);
  for (const [sample, side] of [[a, "A"], [b, "B"]] as const) {
    checkCount(sample.total, `${side}.total`);
    checkCount(sample.successes, `${side}.successes`);
    if (sample.successes > sample.total) throw new RangeError(`${side}.successes (${sample.successes}) exceeds ${side}.total (${sample.total})`);
  }
  const alpha = 1 - confidence;
  const rateA = a.total > 0 ? a.successes / a.total : Number.NaN;
  const rateB = b.total > 0 ? b.successes / b.total : Number.NaN;
  const base = { kind: "proportion" as const, confidence, a: { n: a.total, rate: rateA }, b: { n: b.total, rate: rateB } };
  if (a.total === 0 || b.total === 0) {
    return { ...base, difference: Number.NaN, lower: Number.NaN, upper: Number.NaN, z: Number.NaN, pValue: Number.NaN, significant: false, moreNeeded: null };
  }
  const difference = rateB - rateA;
  const zCrit = normalQuantile(1 - alpha / 2);
  const wa = wilson(a.successes, a.total, zCrit);
  const wb = wilson(b.successes, b.total, zCrit);
  const lower = difference - Math.sqrt((rateB - wb.lower) ** 2 + (wa.upper - rateA) ** 2);
  const upper = difference + Math.sqrt((wb.upper - rateB) ** 2 + (rateA - wa.lower) ** 2);
  const pooled = (a.successes + b.successes) / (a.total + b.total);
  const se0 = Math.sqrt(pooled * (1 - pooled) * (1 / a.total + 1 / b.total));
  // Both rates 0 or both 1: no spread at all, so no evidence of a difference.
  const z = se0 > 0 ? difference / se0 : 0;
  const pValue = se0 > 0 ? normalTwoSided(z) : 1;
  const significant = pValue < alpha && (lower > 0 || upper < 0);
  const moreNeeded = significant ? null : moreForPower(difference, rateA * (1 - rateA), rateB * (1 - rateB), a.total, b.total, alpha);
  return { ...base, difference, lower, upper, z, pValue, significant, moreNeeded };
}

export interface MeanSample {
  n: number;
  mean: number;
  /** Sample variance (divided by n - 1). */
  variance: number;
}

export interface MeanComparison {
  kind: "mean";
  confidence: number;
  a: { n: number; mean: number };
  b: { n: number; mean: number };
  /** mean(B) - mean(A), in the metric's units. */
  difference: number;
  standardError: number;
  /** Welch interval of the difference (t quantile with the Welch–Satterthwaite degrees of freedom). */
  lower: number;
  upper: number;
  /** Welch's t statistic (positive when B is higher). */
  t: number;
  df: number;
  pValue: number;
  significant: boolean;
  /** As for proportions: more observations in all, split in the current ratio, for 80% power at the observed difference. */
  moreNeeded: number | null;
}

/** Count, mean and sample variance from the running sums an hourly rollup keeps. */
export function summarize(rollup: { count: number; sum: number; sumSquares: number }): MeanSample {
  const { count, sum, sumSquares } = rollup;
  if (!(count > 0)) return { n: 0, mean: Number.NaN, variance: Number.NaN };
  const mean = sum / count;
  if (count < 2) return { n: count, mean, variance: Number.NaN };
  // sumSquares - sum²/n cancels digits when the mean dwarfs the spread (about 1e7 to 1 before it matters) and can
  // dip just below zero from rounding when every value is equal.
  const variance = Math.max(0, (sumSquares - (sum * sum) / count) / (count - 1));
  return { n: count, mean, variance };
}

/** B versus A on a mean: Welch's unequal-variance t test and interval, from summary statistics. */
export function compareMeans(a: MeanSample, b: MeanSample, options: CompareOptions = {}): MeanComparison {
  const confidence = options.confidence ?? 0.95;
  checkConfidence(confidence);
  checkCount(a.n, "A.n");
  checkCount(b.n, "B.n");
  const alpha = 1 - confidence;
  const base = { kind: "mean" as const, confidence, a: { n: a.n, mean: a.mean }, b: { n: b.n, mean: b.mean } };
  const difference = b.mean - a.mean;
  if (a.n < 2 || b.n < 2 || !Number.isFinite(difference) || !(a.variance >= 0) || !(b.variance >= 0)) {
    const nan = Number.NaN;
    return { ...base, difference, standardError: nan, lower: nan, upper: nan, t: nan, df: nan, pValue: nan, significant: false, moreNeeded: null };
  }
  const va = a.variance / a.n;
  const vb = b.variance / b.n;
  const standardError = Math.sqrt(va + vb);
  if (standardError === 0) {
    // Every value on each side is the same: any difference is exact.
    const df = a.n + b.n - 2;
    const exact = difference !== 0;
    const t = exact ? Math.sign(difference) * Infinity : 0;
    return { ...base, difference, standardError, lower: difference, upper: difference, t, df, pValue: exact ? 0 : 1, significant: exact, moreNeeded: null };
  }
  const df = (va + vb) ** 2 / (va ** 2 / (a.n - 1) + vb ** 2 / (b.n - 1));
  const t = difference / standardError;
  const pValue = studentTTwoSided(t, df);
  const half = studentTQuantile(1 - alpha / 2, df) * standardError;
  const significant = pValue < alpha;
  const moreNeeded = significant ? null : moreForPower(difference, a.variance, b.variance, a.n, b.n, alpha);
  return { ...base, difference, standardError, lower: difference - half, upper: difference + half, t, df, pValue, significant, moreNeeded };
}

// ---------------------------------------------------------------------------------------------------------------
// The sentence
// ---------------------------------------------------------------------------------------------------------------

/** Below this many scored generations on either side, no verdict is given. */
const MINIMUM_SCORED_PER_VERSION = 30;

export interface VerdictInput {
  /** The metric's name as people read it: "thumbs-up", "latency". */
  metric: string;
  /** How each version is named in the sentence: "v7", "v8". */
  labelA: string;
  labelB: string;
  comparison: ProportionComparison | MeanComparison;
  /** Latency, error rate, cost: the version with the smaller value is the better one. */
  lowerIsBetter?: boolean;
  /** Unit written after a difference of means ("ms", "tokens"); proportions are always in percentage points. */
  unit?: string;
  /** Decimals for a difference of means; by default from the interval's width (see differenceDecimals). */
  decimals?: number;
  minimumPerVersion?: number;
  /**
   * What the counts are of: a score's "scored generations" (the default; "… vs … scored"), or "generations" for latency,
   * cost, errors ("… vs … generations"), as "about N more …" and the counts after the interval say.
   */
  counted?: "scored generations" | "generations";
}

const countFormat = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/** "1,204": counts always with thousands separators, whatever the reader's locale. */
function formatCount(n: number): string {
  return countFormat.format(n);
}

const signedFormats = new Map<number, Intl.NumberFormat>();
const signedFormat = (decimals: number) => {
  let format = signedFormats.get(decimals);
  if (!format) signedFormats.set(decimals, (format = new Intl.NumberFormat("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals })));
  return format;
};

/** A signed number: "+6.1", "-0.4", "0.0" (a zero that rounds from either side has no sign), "-203,975" (thousands grouped, as counts are). */
function formatSigned(value: number, decimals: number): string {
  const rounded = Math.abs(value).toFixed(decimals);
  const text = signedFormat(decimals).format(Number(rounded));
  if (Number(rounded) === 0) return text;
  return `${value < 0 ? "-" : "+"}${text}`;
}

function formatPercent(fraction: number): string {
  return `${Number((fraction * 100).toFixed(2))}%`;
}

/** About N: rounded up to two significant digits, so the estimate never understates what is left. */
export function roughCount(n: number): number {
  if (!(n > 0)) return 0;
  const step = 10 ** Math.max(0, Math.floor(Math.log10(n)) - 1);
  return Math.ceil(n / step) * step;
}

/**
 * More observations in all, split as the two sides are split now, for the smaller side to reach `minimum`
 * (at 10,000 against 5, about 50,000 more, not 25). With a side at 0 the split is unknown: each side's own shortfall.
 */
function shortfallOf(nA: number, nB: number, minimum: number): number {
  const smaller = Math.min(nA, nB);
  if (smaller >= minimum) return 0;
  if (smaller === 0) return Math.max(0, minimum - nA) + Math.max(0, minimum - nB);
  return Math.ceil((minimum * (nA + nB)) / smaller - (nA + nB));
}

function autoDecimals(halfWidth: number): number {
  if (!(halfWidth > 0) || !Number.isFinite(halfWidth)) return 2;
  return Math.min(6, Math.max(0, 1 - Math.floor(Math.log10(halfWidth))));
}

/** The most decimals a difference is shown with: of percentage points, and of a mean's unit. */
const MAX_POINT_DECIMALS = 4;
const MAX_MEAN_DECIMALS = 6;

/**
 * Decimals for a difference and its interval as shown (percentage points for rates, the unit for means):
 * one for points and two significant digits of the half-width for means, then more (up to a cap) until the
 * interval's ends read apart from each other and from 0: 0.10% against 0.13% of a million each is -0.04
 * to -0.02 points, not 0.0 to 0.0.
 */
export function differenceDecimals(kind: "proportion" | "mean", lower: number, upper: number): number {
  const scale = kind === "proportion" ? 100 : 1;
  const [low, high] = [lower * scale, upper * scale];
  let decimals = kind === "proportion" ? 1 : autoDecimals((high - low) / 2);
  if (!Number.isFinite(low) || !Number.isFinite(high)) return decimals;
  const cap = Math.max(decimals, kind === "proportion" ? MAX_POINT_DECIMALS : MAX_MEAN_DECIMALS);
  const readsAsZero = (value: number) => value !== 0 && Number(value.toFixed(decimals)) === 0;
  const unclear = () => readsAsZero(low) || readsAsZero(high) || (low !== high && low.toFixed(decimals) === high.toFixed(decimals));
  while (decimals < cap && unclear()) decimals += 1;
  return decimals;
}

/**
 * The sentence the prompt page shows for one metric, such as
 * "v8 is better on thumbs-up (+6.1 points, 95% CI +2.3 to +9.9, 1,204 vs 11,380 scored)", or
 * "not enough data yet: about 1,300 more scored generations"; for what every generation reports (latency, errors)
 * "… 4,800 vs 5,000 generations)". The difference and interval are the better version minus the other, and the
 * counts are in that order too.
 */
export function verdict(input: VerdictInput): string {
  const { metric, labelA, labelB, comparison, lowerIsBetter = false, unit, counted = "scored generations" } = input;
  // Two per side at the least: a variance needs two values.
  const minimum = Math.max(2, input.minimumPerVersion ?? MINIMUM_SCORED_PER_VERSION);
  const nA = comparison.a.n;
  const nB = comparison.b.n;
  const shortfall = shortfallOf(nA, nB, minimum);
  const countedShort = counted === "generations" ? "generations" : "scored";
  if (shortfall > 0 || !comparison.significant) {
    const more = Math.max(shortfall, comparison.moreNeeded ?? 0);
    if (more > 0) return `not enough data yet: about ${formatCount(roughCount(more))} more ${counted}`;
  }

  const isProportion = comparison.kind === "proportion";
  const scale = isProportion ? 100 : 1;
  const decimals = !isProportion && input.decimals !== undefined ? input.decimals : differenceDecimals(comparison.kind, comparison.lower, comparison.upper);
  const suffix = isProportion ? " points" : unit ? ` ${unit}` : "";
  const level = formatPercent(comparison.confidence);

  if (!comparison.significant) {
    // Enough data and not one more would help: the observed difference is exactly zero.
    const interval = `${formatSigned(comparison.lower * scale, decimals)} to ${formatSigned(comparison.upper * scale, decimals)}`;
    return `no difference on ${metric} so far (${level} CI ${interval}${suffix}, ${formatCount(nA)} vs ${formatCount(nB)} ${countedShort})`;
  }

  const bHigher = comparison.difference > 0;
  const bBetter = lowerIsBetter ? !bHigher : bHigher;
  // Express everything as (better - other).
  const sign = bBetter ? 1 : -1;
  const difference = sign * comparison.difference * scale;
  const low = (bBetter ? comparison.lower : -comparison.upper) * scale;
  const high = (bBetter ? comparison.upper : -comparison.lower) * scale;
  const [better, nBetter, nOther] = bBetter ? [labelB, nB, nA] : [labelA, nA, nB];
  return (
    `${better} is better on ${metric} (${formatSigned(difference, decimals)}${suffix}, ${level} CI ` +
    `${formatSigned(low, decimals)} to ${formatSigned(high, decimals)}, ${formatCount(nBetter)} vs ${formatCount(nOther)} ${countedShort})`
  );
}
