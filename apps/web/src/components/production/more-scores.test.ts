import { describe, expect, it } from "vitest";
import { moreScoresText } from "./more-scores.ts";

describe("a generation's scores beyond those listed", () => {
  it.each([
    [1, false, "1 more score"],
    [15, false, "15 more scores"],
    [1000, false, "1,000 more scores"],
    [1000, true, "1,000+ more scores"],
  ])("%s (capped: %s) read %j", (moreScores, moreScoresCapped, text) => expect(moreScoresText({ moreScores, moreScoresCapped })).toBe(text));
});
