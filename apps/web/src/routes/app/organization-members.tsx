import { createRoute } from "@tanstack/react-router";
import { appLayoutRoute } from "../layouts.tsx";

export const organizationMembersRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/organizations/$organizationId/members",
  component: () => <p>/organizations/$organizationId/members</p>,
});
