import { createRoute, redirect } from "@tanstack/react-router";
import { chooseWorkspace } from "@/lib/workspace";
import { optionalString, searchOf } from "@/lib/search-params";
import { appLayoutRoute } from "../layouts.tsx";

type DashboardPath = "/";

/** `?organizationId=&teamId=` (a notification's link) makes them active, then the plain URL shows. */
const workspaceSearch = searchOf({ organizationId: optionalString, teamId: optionalString });

/** / shows the dashboard to whom the permission table grants its page. */
const dashboardAt = (path: DashboardPath) =>
  createRoute({
    getParentRoute: () => appLayoutRoute,
    path,
    validateSearch: workspaceSearch,
    beforeLoad: ({ search }) => {
      if (!search.organizationId) return;
      chooseWorkspace(search.organizationId, search.teamId);
      throw redirect({ to: path, search: {}, replace: true });
    },
    // The page says itself when the organizations fail to load (no toast repeats it).
    staticData: { showsOrganizationsFailure: true },
    // The page loads on first use, in parallel with the layout and the data.
  }).lazy(() => import("./dashboard.lazy.tsx").then((module) => module.dashboardLazyRoute));

export const dashboardRoute = dashboardAt("/");
