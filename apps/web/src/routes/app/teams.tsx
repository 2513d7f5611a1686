import { createRoute } from "@tanstack/react-router";
import { TeamsPageGuard } from "@/components/guards/role-guard";
import { TeamsPage } from "@/components/teams/teams-page";
import { appLayoutRoute } from "../layouts.tsx";

/** /teams: administrators, organization admins and super users (spec 2); others go to / with a toast. */
export const teamsRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/teams",
  component: () => (
    <TeamsPageGuard>
      <TeamsPage />
    </TeamsPageGuard>
  ),
});
