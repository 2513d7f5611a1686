import { createLazyRoute } from "@tanstack/react-router";
import { AnalyticsPage } from "@/components/analytics/analytics-page";
import { PageGuard } from "@/components/guards/role-guard";

export const analyticsLazyRoute = createLazyRoute("/app/analytics")({
  component: () => (
    <PageGuard page="page.analytics">
      <AnalyticsPage />
    </PageGuard>
  ),
});
