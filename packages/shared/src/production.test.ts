import { describe, expect, it } from "vitest";
import { LATENCY_BUCKETS, bucketOf, histOf, percentileFromHist } from "./production.ts";

describe("latency buckets", () => {
  it("are log-spaced by √2 from 1 ms and rising", () => {
    expect(LATENCY_BUCKETS[0]).toBe(1);
    expect(LATENCY_BUCKETS[2]).toBe(2);
    expect(LATENCY_BUCKETS.at(-1)).toBe(2 ** 21);
    for (let i = 1; i < LATENCY_BUCKETS.length; i++) expect(LATENCY_BUCKETS[i]!).toBeGreaterThan(LATENCY_BUCKETS[i - 1]!);
  });

  it("count a latency in the first bucket whose bound holds it", () => {
    expect(bucketOf(0)).toBe(0);
    expect(bucketOf(1)).toBe(0);
    expect(bucketOf(1.2)).toBe(1);
    expect(bucketOf(2)).toBe(2);
    expect(bucketOf(1000)).toBe(20); // 2^(20/2) = 1024
    expect(bucketOf(2 ** 21)).toBe(42);
    expect(bucketOf(2 ** 21 + 1)).toBe(43);
    expect(bucketOf(Infinity)).toBe(43);
    expect(bucketOf(Number.NaN)).toBe(0);
  });

  it("give percentiles within a bucket's width", () => {
    const values = Array.from({ length: 1000 }, (_, i) => 50 + i); // 50..1049 ms
    const hist = histOf(values);
    const p50 = percentileFromHist(hist, 0.5)!;
    const p95 = percentileFromHist(hist, 0.95)!;
    expect(p50 / 549.5).toBeGreaterThan(1 / Math.SQRT2);
    expect(p50 / 549.5).toBeLessThan(Math.SQRT2);
    expect(p95 / 999.5).toBeGreaterThan(1 / Math.SQRT2);
    expect(p95 / 999.5).toBeLessThan(Math.SQRT2);
    expect(percentileFromHist(new Array(44).fill(0), 0.5)).toBeNull();
    expect(percentileFromHist([], 0.5)).toBeNull();
  });
});
