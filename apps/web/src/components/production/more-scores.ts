// How many scores a generation has beyond those listed (its newest), as its list and its dialog say it:
// counted up to GENERATION_MORE_SCORES_COUNTED, so past it the count is a floor ("1,000+ more scores").
import type { GenerationItem } from "@promptly/shared";
import { plural } from "../../lib/plural.ts";

/** "1 more score", "15 more scores", "1,000+ more scores" (moreScoresCapped); for a generation with some (its callers show nothing for none). */
export function moreScoresText({ moreScores, moreScoresCapped }: Pick<GenerationItem, "moreScores" | "moreScoresCapped">): string {
  return moreScoresCapped ? `${moreScores.toLocaleString("en-US")}+ more scores` : plural(moreScores, "more score");
}
