import { lazy, Suspense } from "react";
import { createRoute } from "@tanstack/react-router";
import { z } from "zod";
import { analyticsRangeSchema } from "@promptly/shared";
import { GuardSkeleton, PageGuard } from "@/components/guards/role-guard";
import { appLayoutRoute } from "../layouts.tsx";

// The page and its charting library load only here (started by the loader), so the main bundle does not carry them.
const loadAnalyticsPage = () => import("@/components/analytics/analytics-page");
const AnalyticsPage = lazy(() => loadAnalyticsPage().then((module) => ({ default: module.AnalyticsPage })));

const analyticsSearch = z.object({
  days: analyticsRangeSchema.optional().catch(undefined),
  teamId: z.string().optional().catch(undefined),
});

/** Analytics: usage and activity of the prompts each person may read, for all four roles. */
export const analyticsRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/analytics",
  validateSearch: analyticsSearch,
  staticData: { showsOrganizationsFailure: true },
  loader: async () => {
    await loadAnalyticsPage();
  },
  component: () => (
    <PageGuard page="page.analytics">
      <Suspense fallback={<GuardSkeleton />}>
        <AnalyticsPage />
      </Suspense>
    </PageGuard>
  ),
});
