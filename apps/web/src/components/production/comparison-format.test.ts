import { describe, expect, it } from "vitest";
import type { RouterOutputs } from "@promptly/api";
import { comparisonIntervalText, comparisonValueText } from "./comparison-format.ts";

type Metric = RouterOutputs["production"]["compare"]["metrics"][number];

const metric = (figures: Pick<Metric, "kind" | "unit" | "a" | "b" | "lower" | "upper">): Metric => ({
  metric: "figure", lowerIsBetter: true, difference: null, pValue: null, significant: true, verdict: "", note: null, ...figures,
});

describe("a comparison's figures", () => {
  it("reads costs of fractions of a cent in dollars, the interval too", () => {
    const cost = metric({ kind: "mean", unit: "USD", a: { n: 500, value: 0.00123 }, b: { n: 500, value: 0.00125 }, lower: 0.0000052, upper: 0.000034 });
    expect([comparisonValueText(cost, "a"), comparisonValueText(cost, "b")]).toEqual(["$0.0012", "$0.0013"]);
    expect(comparisonIntervalText(cost)).toBe("+$0.0000052 to +$0.000034");
    expect(comparisonIntervalText({ ...cost, lower: -0.0000052 })).toBe("-$0.0000052 to +$0.000034");
  });

  it("reads rates in whole percent, with the decimals that tell two close ones apart", () => {
    const errors = metric({ kind: "proportion", unit: null, a: { n: 1_000_000, value: 0.001 }, b: { n: 1_000_000, value: 0.0013 }, lower: 0.000209, upper: 0.000391 });
    expect([comparisonValueText(errors, "a"), comparisonValueText(errors, "b")]).toEqual(["0.10%", "0.13%"]);
    expect(comparisonIntervalText(errors)).toBe("+0.02 to +0.04 points");
    const thumbs = metric({ kind: "proportion", unit: null, a: { n: 40, value: 0.5 }, b: { n: 50, value: 0.96 }, lower: 0.3, upper: 0.6 });
    expect([comparisonValueText(thumbs, "a"), comparisonValueText(thumbs, "b")]).toEqual(["50%", "96%"]);
    expect(comparisonIntervalText(thumbs)).toBe("+30.0 to +60.0 points");
    // A small rate beside none: not 0% against 0%.
    const rare = metric({ kind: "proportion", unit: null, a: { n: 1000, value: 0.004 }, b: { n: 1000, value: 0 }, lower: -0.01, upper: 0.002 });
    expect([comparisonValueText(rare, "a"), comparisonValueText(rare, "b")]).toEqual(["0.4%", "0.0%"]);
  });

  it("reads latencies in ms and other means with their unit", () => {
    const latency = metric({ kind: "mean", unit: "ms", a: { n: 40, value: 1050 }, b: { n: 50, value: 510 }, lower: -700.4, upper: -380.2 });
    expect([comparisonValueText(latency, "a"), comparisonValueText(latency, "b")]).toEqual(["1.1 s", "510 ms"]);
    expect(comparisonIntervalText(latency)).toBe("-700 to -380 ms");
    expect(comparisonIntervalText({ ...latency, lower: -144_706.81, upper: -100_000 })).toBe("-144,707 to -100,000 ms");
  });
});
