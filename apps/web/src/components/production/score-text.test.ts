import { describe, expect, it } from "vitest";
import type { ScoreFigure } from "@promptly/shared";
import { scoreText } from "./score-text.ts";

const boolean = (share: number | null, count: number): ScoreFigure => ({ name: "thumbs", dataType: "boolean", count, mean: null, share, categories: [] });

describe("a score's figure", () => {
  it.each([
    [999 / 1000, ">99% true (1,000 scored)"],
    [4 / 1000, "<1% true (1,000 scored)"],
    [1, "100% true (1,000 scored)"],
    [0, "0% true (1,000 scored)"],
    [0.5, "50% true (1,000 scored)"],
    [null, "– (1,000 scored)"],
  ])("a boolean share of %s reads %s", (share, text) => expect(scoreText(boolean(share, 1000))).toBe(text));

  it("a categorical score's shares read as rates do, never 100% or 0% when not all or none", () => {
    const figure: ScoreFigure = {
      name: "tone", dataType: "categorical", count: 1000, mean: null, share: null,
      categories: [{ value: "warm", count: 996 }, { value: "cold", count: 4 }],
    };
    expect(scoreText(figure)).toBe("warm >99%, cold <1% (1,000 scored)");
  });

  it("a numeric score reads its mean to two places", () => {
    expect(scoreText({ name: "accuracy", dataType: "numeric", count: 3, mean: 0.8333, share: null, categories: [] })).toBe("mean 0.83 (3 scored)");
  });
});
