import { createRoute, redirect } from "@tanstack/react-router";
import { optionalBoolean, optionalString, searchOf } from "@/lib/search-params";
import { chooseWorkspace, loadWorkspace } from "@/lib/workspace";
import { appLayoutRoute } from "../layouts.tsx";

/**
 * `?organizationId=&teamId=` makes that team active (a prompt's Use in code links here), then the plain
 * URL shows; `newKey` opens its API keys' Create API key.
 */
const teamsSearch = searchOf({ organizationId: optionalString, teamId: optionalString, newKey: optionalBoolean });

/** /teams: administrators, organization admins, team admins (of a team of the active organization) and super users. */
export const teamsRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/teams",
  validateSearch: teamsSearch,
  beforeLoad: ({ search }) => {
    if (!search.organizationId) return;
    chooseWorkspace(search.organizationId, search.teamId);
    throw redirect({ to: "/teams", search: search.newKey ? { newKey: true } : {}, replace: true });
  },
  // The page says itself when the organizations fail to load (no toast repeats it).
  staticData: { showsOrganizationsFailure: true },
  loader: () => loadWorkspace({ teamDetails: true }),
}).lazy(() => import("./teams.lazy.tsx").then((module) => module.teamsLazyRoute));
