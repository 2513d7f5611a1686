import { createLazyRoute } from "@tanstack/react-router";
import { DashboardPage } from "@/components/dashboard/dashboard-page";
import { PageGuard } from "@/components/guards/role-guard";

export const dashboardLazyRoute = createLazyRoute("/app/")({
  component: () => (
    <PageGuard page="page.dashboard">
      <DashboardPage />
    </PageGuard>
  ),
});
