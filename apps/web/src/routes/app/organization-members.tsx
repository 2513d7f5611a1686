import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { api } from "@/lib/trpc";
import { appLayoutRoute } from "../layouts.tsx";

const OrganizationMembersPage = lazyRouteComponent(
  () => import("@/components/organizations/organization-members-page"),
  "OrganizationMembersPage",
);

/** /organizations/{organizationId}/members: super users and that organization's admins. */
export const organizationMembersRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/organizations/$organizationId/members",
  loader: async ({ params: { organizationId } }) => {
    // Refusals (not a member, not an admin) are the page's to show, not the application's error screen.
    const organization = await api.organizations.get.ensureData({ organizationId }).catch(() => null);
    if (organization?.isAdmin) await api.organizationMembers.list.ensureData({ organizationId }).catch(() => undefined);
  },
  component: function OrganizationMembersRouteComponent() {
    const { organizationId } = organizationMembersRoute.useParams();
    return <OrganizationMembersPage organizationId={organizationId} />;
  },
});
