import { createRoute } from "@tanstack/react-router";
import { loadWorkspace } from "@/lib/workspace";
import { appLayoutRoute } from "../layouts.tsx";

/** /teams: administrators, organization admins, team admins (of a team of the active organization) and super users. */
export const teamsRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/teams",
  // The page says itself when the organizations fail to load (no toast repeats it).
  staticData: { showsOrganizationsFailure: true },
  loader: () => loadWorkspace({ teamDetails: true }),
}).lazy(() => import("./teams.lazy.tsx").then((module) => module.teamsLazyRoute));
