// How a score's figure reads: a numeric score's mean, a boolean's share of true, a categorical's most
// frequent values; each with how many scored it.
import type { ScoreFigure } from "@promptly/shared";

const count = (n: number) => `${n.toLocaleString("en-US")} scored`;

export function scoreText(score: ScoreFigure): string {
  if (score.dataType === "numeric") return `mean ${score.mean === null ? "–" : Number(score.mean.toFixed(2))} (${count(score.count)})`;
  if (score.dataType === "boolean") return `${score.share === null ? "–" : `${Math.round(score.share * 100)}% true`} (${count(score.count)})`;
  const top = score.categories.slice(0, 3).map((category) => `${category.value} ${Math.round((category.count / Math.max(1, score.count)) * 100)}%`);
  return `${top.join(", ")} (${count(score.count)})`;
}
