import { createLazyRoute } from "@tanstack/react-router";
import { PageGuard } from "@/components/guards/role-guard";
import { OrganizationsPage } from "@/components/organizations/organizations-page";

export const organizationsLazyRoute = createLazyRoute("/app/organizations")({
  component: () => (
    <PageGuard page="page.organizations">
      <OrganizationsPage />
    </PageGuard>
  ),
});
