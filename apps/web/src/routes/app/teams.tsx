import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { PageGuard } from "@/components/guards/role-guard";
import { loadWorkspace } from "@/lib/workspace";
import { appLayoutRoute } from "../layouts.tsx";

const TeamsPage = lazyRouteComponent(() => import("@/components/teams/teams-page"), "TeamsPage");

/** /teams: administrators, organization admins, team admins (of a team of the active organization) and super users. */
export const teamsRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/teams",
  // The page says itself when the organizations fail to load (no toast repeats it).
  staticData: { showsOrganizationsFailure: true },
  loader: () => loadWorkspace({ teamDetails: true }),
  component: () => (
    <PageGuard page="page.teams">
      <TeamsPage />
    </PageGuard>
  ),
});
