import { createLazyRoute } from "@tanstack/react-router";
import { DashboardPage } from "@/components/dashboard/dashboard-page";
import { PageGuard } from "@/components/guards/role-guard";

export const dashboardLazyRoute = createLazyRoute("/app/")({
  // The denial's redirect goes here: a dashboard someone may not open says why in place.
  component: () => (
    <PageGuard page="page.dashboard" redirectTo={null}>
      <DashboardPage />
    </PageGuard>
  ),
});
