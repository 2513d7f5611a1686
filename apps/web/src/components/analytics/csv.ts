// The Analytics table as CSV: the same rows and numbers the page shows, one column per day of the range.
import type { RouterOutputs } from "@promptly/api";
import { csvText } from "@promptly/shared";

type Overview = RouterOutputs["analytics"]["overview"];

export function analyticsCsv(overview: Overview, prompts: Overview["prompts"]): string {
  const head = ["Prompt", "Title", "Team", "Fetches", "Last fetched", "Production version", "Rating", "Ratings", "Bookmarks", ...overview.days];
  const rows = prompts.map((p) => [
    p.name, p.title, p.teamName, p.fetches, p.lastFetched, p.productionVersion,
    p.ratingCount ? p.ratingAverage.toFixed(1) : null, p.ratingCount, p.bookmarks, ...p.daily,
  ]);
  return csvText([head, ...rows]);
}
