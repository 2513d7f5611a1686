import { describe, expect, it } from "vitest";
import { formatCost, formatMs, formatRate, formatTokens } from "./run-format.ts";

describe("a run's figures", () => {
  it.each([
    [null, "–"],
    [0, "0 ms"],
    [849.6, "850 ms"],
    [1_240, "1.2 s"],
    [12_400, "12 s"],
  ])("time %s reads %s", (ms, text) => expect(formatMs(ms)).toBe(text));

  it.each([
    [null, "–"],
    [0, "$0"],
    [0.00000225, "$0.0000023"],
    [0.0123, "$0.012"],
    [1.256, "$1.26"],
  ])("cost %s reads %s", (dollars, text) => expect(formatCost(dollars)).toBe(text));

  it("tokens read in / out, rounded, '–' where unknown", () => {
    expect(formatTokens(3, 1234)).toBe("3 / 1,234");
    expect(formatTokens(2.5, null)).toBe("3 / –");
  });

  it.each([
    [0, "0%"],
    [1 / 3, "33%"],
    [0.004, "<1%"],
    [0.01, "1%"],
    [0.99, "99%"],
    [0.996, ">99%"],
    [0.999, ">99%"],
    [1, "100%"],
  ])("rate %s reads %s", (rate, text) => expect(formatRate(rate)).toBe(text));
});
