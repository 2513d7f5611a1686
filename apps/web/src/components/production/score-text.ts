// How a score's figure reads: a numeric score's mean, a boolean's share of true, a categorical's most
// frequent values; each with how many scored it.
import type { ScoreFigure } from "@promptly/shared";
import { formatRate } from "../runs/run-format.ts";

const count = (n: number) => `${n.toLocaleString("en-US")} scored`;

export function scoreText(score: ScoreFigure): string {
  if (score.dataType === "numeric") return `mean ${score.mean === null ? "–" : Number(score.mean.toFixed(2))} (${count(score.count)})`;
  if (score.dataType === "boolean") return `${score.share === null ? "–" : `${formatRate(score.share)} true`} (${count(score.count)})`;
  const top = score.categories.slice(0, 3).map((category) => `${category.value} ${formatRate(category.count / Math.max(1, score.count))}`);
  return `${top.join(", ")} (${count(score.count)})`;
}
