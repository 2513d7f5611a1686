import { createRoute } from "@tanstack/react-router";
import { ANALYTICS_RANGES } from "@promptly/shared";
import { optionalOneOf, optionalString, searchOf } from "@/lib/search-params";
import { appLayoutRoute } from "../layouts.tsx";

const analyticsSearch = searchOf({ days: optionalOneOf(ANALYTICS_RANGES), teamId: optionalString });

/** Analytics: usage and activity of the prompts each person may read, for all four roles. */
export const analyticsRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/analytics",
  validateSearch: analyticsSearch,
  staticData: { showsOrganizationsFailure: true },
  // The page and its charting library load only here, so the first page does not carry them.
}).lazy(() => import("./analytics.lazy.tsx").then((module) => module.analyticsLazyRoute));
