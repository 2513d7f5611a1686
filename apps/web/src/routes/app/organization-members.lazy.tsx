import { createLazyRoute } from "@tanstack/react-router";
import { PageGuard } from "@/components/guards/role-guard";
import { OrganizationMembersPage } from "@/components/organizations/organization-members-page";

export const organizationMembersLazyRoute = createLazyRoute("/app/organizations/$organizationId/members")({
  component: function OrganizationMembersRouteComponent() {
    const { organizationId } = organizationMembersLazyRoute.useParams();
    return (
      <PageGuard page="page.organizations">
        <OrganizationMembersPage organizationId={organizationId} />
      </PageGuard>
    );
  },
});
