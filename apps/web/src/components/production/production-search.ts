// The Production tab's filters as the URL keeps them, and the span a range means. The span ends at the
// top of the next hour (the rollups are hourly), so the route's loader and the tab ask the same query
// within an hour and the loaded answer is the one shown.
import { PRODUCTION_RANGE_HOURS, type ProductionRange } from "@promptly/shared";

export const DEFAULT_PRODUCTION_RANGE: ProductionRange = "7d";
const HOUR = 3_600_000;

export interface ProductionSearch {
  prodRange?: ProductionRange;
  prodEnv?: string;
  prodModel?: string;
}

/** The instants a range covers, ending at the top of the hour after `now`. */
export function productionSpan(range: ProductionRange, now = Date.now()) {
  const to = new Date(Math.floor(now / HOUR) * HOUR + HOUR);
  return { from: new Date(to.getTime() - PRODUCTION_RANGE_HOURS[range] * HOUR), to };
}

/** production.metrics' input for the page's filters. */
export function productionMetricsQuery(promptId: string, search: ProductionSearch) {
  return { promptId, ...productionSpan(search.prodRange ?? DEFAULT_PRODUCTION_RANGE), environment: search.prodEnv, model: search.prodModel };
}
