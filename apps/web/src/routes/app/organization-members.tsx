import { accessIn } from "@/lib/workspace";
import { can } from "@promptly/shared";
import { createRoute } from "@tanstack/react-router";
import { api } from "@/lib/trpc";
import { appLayoutRoute } from "../layouts.tsx";

/**
 * /organizations/{organizationId}/members: the same guard as /organizations, super users only.
 * (The API also lets that organization's admins manage its members, e.g. from internal tooling.)
 */
export const organizationMembersRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/organizations/$organizationId/members",
  loader: async ({ params: { organizationId } }) => {
    const me = await api.auth.me.ensureData();
    if (!can(accessIn(me, null), "page.organizations")) return;
    // A missing organization or a failed load shows on the page, not as the application's error screen.
    await Promise.all([
      api.organizations.get.ensureData({ organizationId }),
      api.organizationMembers.list.ensureData({ organizationId }),
      api.organizationInvites.listPending.ensureData({ organizationId }),
    ]).catch(() => undefined);
  },
}).lazy(() => import("./organization-members.lazy.tsx").then((module) => module.organizationMembersLazyRoute));
