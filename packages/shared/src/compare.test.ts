import { describe, expect, it } from "vitest";
import {
  compareMeans,
  compareProportions,
  differenceDecimals,
  logGamma,
  normalCdf,
  normalQuantile,
  regularizedBeta,
  roughCount,
  studentTCdf,
  studentTQuantile,
  summarize,
  verdict,
  type MeanSample,
} from "./compare.ts";

// Expected values below are scipy.stats 1.17 (norm, t, special.betainc, ttest_ind, ttest_ind_from_stats,
// chi2_contingency) or the published example they come from, written out to the digits shown.

/** A small seeded generator (mulberry32), so the simulated comparisons are the same on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function bernoulli(random: () => number, rate: number, n: number): { successes: number; total: number } {
  let successes = 0;
  for (let i = 0; i < n; i++) if (random() < rate) successes++;
  return { successes, total: n };
}

/** Normal draws (Box–Muller) gathered as an hourly rollup gathers them: count, sum, sum of squares. */
function normalRollup(random: () => number, mean: number, sd: number, n: number): MeanSample {
  let sum = 0;
  let sumSquares = 0;
  for (let i = 0; i < n; i++) {
    const x = mean + sd * Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    sum += x;
    sumSquares += x * x;
  }
  return summarize({ count: n, sum, sumSquares });
}

describe("distribution functions", () => {
  it("logGamma matches known values", () => {
    expect(logGamma(1)).toBeCloseTo(0, 13);
    expect(logGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 13);
    expect(logGamma(10)).toBeCloseTo(Math.log(362880), 12);
  });

  it.each([
    [1.96, 0.9750021048517795],
    [0.5, 0.6914624612740131],
    [0, 0.5],
    [-3.5, 0.00023262907903552502],
  ])("normalCdf(%d) = %d", (z, expected) => {
    expect(normalCdf(z)).toBeCloseTo(expected, 14);
  });

  it("normalCdf keeps its relative precision far in the lower tail", () => {
    expect(normalCdf(-8) / 6.22096057427174e-16).toBeCloseTo(1, 10);
  });

  it.each([
    [0.975, 1.959963984540054],
    [0.8, 0.8416212335729143],
    [0.01, -2.3263478740408408],
    [1e-10, -6.361340902404056],
    [0.5, 0],
  ])("normalQuantile(%d) = %d", (p, expected) => {
    expect(normalQuantile(p)).toBeCloseTo(expected, 12);
  });

  it("normalQuantile inverts normalCdf and answers the edges", () => {
    for (const p of [0.001, 0.02425, 0.3, 0.7, 0.97575, 0.999]) expect(normalCdf(normalQuantile(p))).toBeCloseTo(p, 14);
    expect(normalQuantile(0)).toBe(-Infinity);
    expect(normalQuantile(1)).toBe(Infinity);
    expect(normalQuantile(1.5)).toBeNaN();
  });

  it.each([
    [0.4, 2.5, 3.5, 0.4869041915261176],
    [0.9, 0.5, 5, 0.9999974294103009],
  ])("regularizedBeta(%d; %d, %d) = %d", (x, a, b, expected) => {
    expect(regularizedBeta(x, a, b)).toBeCloseTo(expected, 13);
  });

  it.each([
    [2.0, 10, 0.9633059826146299],
    [-1.5, 7.3, 0.08778154640154305],
    [0.3, 1, 0.5927735790777423],
    [4, 250, 0.9999582648992706],
  ])("studentTCdf(%d, df %d) = %d", (t, df, expected) => {
    expect(studentTCdf(t, df)).toBeCloseTo(expected, 13);
  });

  it.each([
    [0.975, 10, 2.228138851986274],
    [0.975, 1, 12.706204736174694],
    [0.995, 3.7, 4.8692522532278275],
    [0.05, 25, -1.708140761251899],
  ])("studentTQuantile(%d, df %d) = %d", (p, df, expected) => {
    expect(studentTQuantile(p, df)).toBeCloseTo(expected, 10);
  });

  it("the t distribution tends to the normal as df grows", () => {
    expect(studentTQuantile(0.975, 1e7)).toBeCloseTo(1.959963984540054, 6);
    expect(studentTQuantile(0.975, Infinity)).toBeCloseTo(1.959963984540054, 12);
  });
});

describe("compareProportions", () => {
  it("matches Newcombe's worked example (56/70 vs 48/80) and the 2×2 chi-square without correction", () => {
    const result = compareProportions({ successes: 56, total: 70 }, { successes: 48, total: 80 });
    expect(result.difference).toBeCloseTo(-0.2, 12);
    // Newcombe (1998), method 10, for A - B: 0.0524 to 0.3339.
    expect(result.lower).toBeCloseTo(-0.333872654036906, 10);
    expect(result.upper).toBeCloseTo(-0.052431472402365065, 10);
    expect(result.z).toBeCloseTo(-2.6501719512585336, 10);
    expect(result.z ** 2).toBeCloseTo(7.023411371237456, 9); // chi-square
    expect(result.pValue).toBeCloseTo(0.008045081368196585, 12);
    expect(result.significant).toBe(true);
    expect(result.moreNeeded).toBeNull();
  });

  it("estimates how many more observations, in the current split, detect the observed difference with 80% power", () => {
    const result = compareProportions({ successes: 120, total: 400 }, { successes: 138, total: 400 });
    expect(result.z).toBeCloseTo(1.3614697687969972, 10);
    expect(result.pValue).toBeCloseTo(0.17336528088076097, 10);
    expect(result.significant).toBe(false);
    // (z_0.975 + z_0.8)² (pA qA / 0.5 + pB qB / 0.5) / d² = 3379.67 in all, 800 of them already seen.
    expect(result.moreNeeded).toBe(2580);
  });

  it("has nothing to plan for when the rates are equal, and no spread when both are 0", () => {
    expect(compareProportions({ successes: 30, total: 100 }, { successes: 60, total: 200 }).moreNeeded).toBeNull();
    const none = compareProportions({ successes: 0, total: 500 }, { successes: 0, total: 500 });
    expect(none).toMatchObject({ difference: 0, z: 0, pValue: 1, significant: false, moreNeeded: null });
    expect(none.lower).toBeLessThan(0);
    expect(none.upper).toBeGreaterThan(0);
  });

  it("answers an empty side without a verdict and refuses impossible counts", () => {
    expect(compareProportions({ successes: 0, total: 0 }, { successes: 3, total: 9 })).toMatchObject({ significant: false, moreNeeded: null });
    expect(() => compareProportions({ successes: 5, total: 4 }, { successes: 1, total: 2 })).toThrow(RangeError);
    expect(() => compareProportions({ successes: 1, total: 4 }, { successes: 1, total: 2 }, { confidence: 1 })).toThrow(RangeError);
  });

  it("finds a real difference in seeded traffic (30% vs 36%, 5,000 each)", () => {
    const random = seeded(7);
    const result = compareProportions(bernoulli(random, 0.3, 5000), bernoulli(random, 0.36, 5000));
    expect(result.significant).toBe(true);
    expect(result.lower).toBeGreaterThan(0);
    expect(result.lower).toBeLessThan(0.06);
    expect(result.upper).toBeGreaterThan(0.06);
  });

  it("finds none between two versions with the same rate (30%, 20,000 each)", () => {
    const random = seeded(11);
    const result = compareProportions(bernoulli(random, 0.3, 20000), bernoulli(random, 0.3, 20000));
    expect(result.significant).toBe(false);
    expect(result.lower).toBeLessThan(0);
    expect(result.upper).toBeGreaterThan(0);
  });

  it("calls about 5% of same-rate comparisons significant, and its interval covers the true difference about 95% of the time", () => {
    const random = seeded(2026);
    let significant = 0;
    let covered = 0;
    const runs = 400;
    for (let i = 0; i < runs; i++) {
      const result = compareProportions(bernoulli(random, 0.08, 300), bernoulli(random, 0.08, 900));
      if (result.significant) significant++;
      if (result.lower <= 0 && result.upper >= 0) covered++;
    }
    expect(significant / runs).toBeLessThan(0.09);
    expect(covered / runs).toBeGreaterThan(0.91);
  });
});

describe("summarize", () => {
  it("turns a rollup's count, sum and sum of squares into n, mean and sample variance", () => {
    // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, sample variance 32 / 7.
    expect(summarize({ count: 8, sum: 40, sumSquares: 232 })).toEqual({ n: 8, mean: 5, variance: 32 / 7 });
    expect(summarize({ count: 3, sum: 3000, sumSquares: 3_000_000 })).toEqual({ n: 3, mean: 1000, variance: 0 });
    expect(summarize({ count: 1, sum: 4, sumSquares: 16 }).variance).toBeNaN();
    expect(summarize({ count: 0, sum: 0, sumSquares: 0 }).n).toBe(0);
  });
});

describe("compareMeans", () => {
  it("matches Welch's worked example from raw data (t -2.46, df 24.99, p 0.021)", () => {
    // A1 and A2 of the textbook example, fed through the rollup sums.
    const a = summarize({ count: 15, sum: 312.3, sumSquares: 6612.23 });
    const b = summarize({ count: 15, sum: 344.8, sumSquares: 7979.18 });
    const result = compareMeans(b, a); // A1 - A2, as the example states it
    expect(result.t).toBeCloseTo(-2.455356398286006, 9);
    expect(result.df).toBeCloseTo(24.988529290231416, 8);
    expect(result.pValue).toBeCloseTo(0.021378001462866992, 10);
    expect(result.significant).toBe(true);
  });

  it("matches scipy's ttest_ind_from_stats and the t interval of the difference", () => {
    const result = compareMeans({ n: 12, mean: 20.5, variance: 4.2 ** 2 }, { n: 20, mean: 17.1, variance: 2.1 ** 2 });
    expect(result.difference).toBeCloseTo(-3.4, 12);
    expect(result.t).toBeCloseTo(-2.6149978099968028, 10);
    expect(result.df).toBeCloseTo(14.360436420314324, 10);
    expect(result.pValue).toBeCloseTo(0.020046012251744308, 10);
    expect(result.lower).toBeCloseTo(-6.182082939871108, 9);
    expect(result.upper).toBeCloseTo(-0.6179170601288884, 9);
  });

  it("keeps a tiny p-value's precision", () => {
    const result = compareMeans({ n: 2000, mean: 100, variance: 400 }, { n: 2000, mean: 105, variance: 400 });
    expect(result.t).toBeCloseTo(7.905694150420948, 10);
    expect(result.pValue / 3.4193257544772032e-15).toBeCloseTo(1, 4);
  });

  it("finds a real difference in seeded latencies (100 vs 105 ms, sd 20, 2,000 each) and none between equal ones", () => {
    const random = seeded(3);
    const real = compareMeans(normalRollup(random, 100, 20, 2000), normalRollup(random, 105, 20, 2000));
    expect(real.significant).toBe(true);
    expect(real.lower).toBeLessThan(5);
    expect(real.upper).toBeGreaterThan(5);
    const same = compareMeans(normalRollup(random, 100, 20, 20000), normalRollup(random, 100, 20, 20000));
    expect(same.significant).toBe(false);
    expect(same.moreNeeded).toBeGreaterThan(0);
  });

  it("plans more data with the same formula as proportions", () => {
    const result = compareMeans({ n: 100, mean: 10, variance: 25 }, { n: 300, mean: 11, variance: 36 });
    expect(result.significant).toBe(false);
    // (1.959964 + 0.841621)² (25 / 0.25 + 36 / 0.75) / 1² = 1161.6, 400 already seen.
    expect(result.moreNeeded).toBe(762);
  });

  it("treats constant sides as exact and too-small sides as no answer", () => {
    expect(compareMeans({ n: 5, mean: 1, variance: 0 }, { n: 5, mean: 2, variance: 0 })).toMatchObject({ significant: true, pValue: 0, lower: 1, upper: 1 });
    expect(compareMeans({ n: 5, mean: 1, variance: 0 }, { n: 5, mean: 1, variance: 0 })).toMatchObject({ significant: false, pValue: 1 });
    expect(compareMeans({ n: 1, mean: 1, variance: Number.NaN }, { n: 5, mean: 2, variance: 1 })).toMatchObject({ significant: false, moreNeeded: null });
  });
});

describe("verdict", () => {
  it("names the better version with the difference in points, the interval and both counts", () => {
    const comparison = compareProportions({ successes: 6374, total: 11380 }, { successes: 748, total: 1204 });
    expect(verdict({ metric: "thumbs-up", labelA: "v7", labelB: "v8", comparison })).toBe(
      "v8 is better on thumbs-up (+6.1 points, 95% CI +3.2 to +9.0, 1,204 vs 11,380 scored)",
    );
  });

  it("turns the sentence around when the first version is the better one", () => {
    const comparison = compareProportions({ successes: 748, total: 1204 }, { successes: 6374, total: 11380 });
    expect(verdict({ metric: "thumbs-up", labelA: "v7", labelB: "v8", comparison })).toBe(
      "v7 is better on thumbs-up (+6.1 points, 95% CI +3.2 to +9.0, 1,204 vs 11,380 scored)",
    );
  });

  it("prefers the lower value where lower is better, with units for means", () => {
    const comparison = compareMeans({ n: 5000, mean: 840, variance: 300 ** 2 }, { n: 4800, mean: 720, variance: 280 ** 2 });
    expect(verdict({ metric: "latency", labelA: "v7", labelB: "v8", comparison, lowerIsBetter: true, unit: "ms", counted: "generations" })).toBe(
      "v8 is better on latency (-120 ms, 95% CI -131 to -109, 4,800 vs 5,000 generations)",
    );
    const slow = compareMeans({ n: 5000, mean: 840_000, variance: 300_000 ** 2 }, { n: 4800, mean: 636_025, variance: 280_000 ** 2 });
    expect(verdict({ metric: "latency", labelA: "v7", labelB: "v8", comparison: slow, lowerIsBetter: true, unit: "ms", counted: "generations" })).toMatch(
      /^v8 is better on latency \(-203,975 ms, 95% CI -215,\d{3} to -192,\d{3}, 4,800 vs 5,000 generations\)$/,
    );
    const errors = compareProportions({ successes: 40, total: 2000 }, { successes: 70, total: 2000 });
    expect(verdict({ metric: "error rate", labelA: "v7", labelB: "v8", comparison: errors, lowerIsBetter: true, counted: "generations" })).toBe(
      "v7 is better on error rate (-1.5 points, 95% CI -2.5 to -0.5, 2,000 vs 2,000 generations)",
    );
  });

  it("shows as many decimals as the interval needs to read apart from 0 and from itself", () => {
    // 0.10% against 0.13% errors over a million generations each: -0.03 points, 95% CI -0.0391 to -0.0209.
    const errors = compareProportions({ successes: 1000, total: 1_000_000 }, { successes: 1300, total: 1_000_000 });
    expect(errors.significant).toBe(true);
    expect(verdict({ metric: "error rate", labelA: "v7", labelB: "v8", comparison: errors, lowerIsBetter: true, counted: "generations" })).toBe(
      "v7 is better on error rate (-0.03 points, 95% CI -0.04 to -0.02, 1,000,000 vs 1,000,000 generations)",
    );
    expect(differenceDecimals("proportion", errors.lower, errors.upper)).toBe(2);
    // Ends that 1 decimal reads as the same number, and one it reads as 0.
    expect(differenceDecimals("proportion", 0.0112, 0.0114)).toBe(2);
    expect(differenceDecimals("proportion", -0.00004, 0.05)).toBe(3);
    // Capped: points to 4 decimals, means to 6.
    expect(differenceDecimals("proportion", 1e-12, 2e-12)).toBe(4);
    expect(differenceDecimals("mean", 1e-12, 2e-12)).toBe(6);
    // A mean's two significant digits of the half-width already read apart.
    expect(differenceDecimals("mean", -131.2, -108.8)).toBe(0);
  });

  it("says how much more data is needed when the difference is not significant", () => {
    const comparison = compareProportions({ successes: 120, total: 400 }, { successes: 138, total: 400 });
    expect(verdict({ metric: "thumbs-up", labelA: "v7", labelB: "v8", comparison })).toBe("not enough data yet: about 2,600 more scored generations");
  });

  it("asks for the minimum sample on each side before any verdict, in all at the current split", () => {
    const comparison = compareProportions({ successes: 2, total: 20 }, { successes: 20, total: 25 });
    expect(comparison.significant).toBe(true);
    // 45 now, 20 of them A's: 67.5 in all give A its 30, so 23 more.
    expect(verdict({ metric: "thumbs-up", labelA: "v7", labelB: "v8", comparison })).toBe("not enough data yet: about 23 more scored generations");
    // 10,000 against 5: B reaches 30 after 60,030 in all, 50,025 more (rounded up to two digits).
    const lopsided = compareProportions({ successes: 5000, total: 10_000 }, { successes: 5, total: 5 });
    expect(verdict({ metric: "thumbs-up", labelA: "v7", labelB: "v8", comparison: lopsided })).toBe("not enough data yet: about 51,000 more scored generations");
    // With nothing on one side the split is unknown: each side's own shortfall.
    const empty = compareProportions({ successes: 10, total: 20 }, { successes: 0, total: 0 });
    expect(verdict({ metric: "thumbs-up", labelA: "v7", labelB: "v8", comparison: empty })).toBe("not enough data yet: about 40 more scored generations");
  });

  it("counts generations, not scored ones, for what every generation reports", () => {
    const comparison = compareMeans({ n: 10_000, mean: 800, variance: 20 ** 2 }, { n: 5, mean: 700, variance: 20 ** 2 });
    expect(comparison.significant).toBe(true);
    expect(verdict({ metric: "latency", labelA: "v7", labelB: "v8", comparison, lowerIsBetter: true, unit: "ms", counted: "generations" })).toBe(
      "not enough data yet: about 51,000 more generations",
    );
  });

  it("reports no difference when the rates are exactly equal on plenty of data", () => {
    const comparison = compareProportions({ successes: 300, total: 1000 }, { successes: 600, total: 2000 });
    expect(verdict({ metric: "thumbs-up", labelA: "v7", labelB: "v8", comparison })).toBe(
      "no difference on thumbs-up so far (95% CI -3.5 to +3.4 points, 1,000 vs 2,000 scored)",
    );
    // Of what every generation reports, the counts are of generations.
    expect(verdict({ metric: "error rate", labelA: "v7", labelB: "v8", comparison, lowerIsBetter: true, counted: "generations" })).toBe(
      "no difference on error rate so far (95% CI -3.5 to +3.4 points, 1,000 vs 2,000 generations)",
    );
  });

  it("rounds the estimate up to two significant digits", () => {
    expect([roughCount(7), roughCount(87), roughCount(1234), roughCount(1200), roughCount(12_345), roughCount(0)]).toEqual([7, 87, 1300, 1200, 13_000, 0]);
  });
});
