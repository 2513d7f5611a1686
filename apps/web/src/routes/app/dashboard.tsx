import { createRoute, redirect } from "@tanstack/react-router";
import { prefetchDashboard } from "@/components/dashboard/dashboard-reads";
import { chooseWorkspace, loadWorkspace } from "@/lib/workspace";
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
    // The figures and prompts are asked for as soon as the active organization and team are known (the
    // layout's read of them, shared), not after the page's code has loaded and rendered.
    loader: async () => prefetchDashboard(await loadWorkspace()),
    // The page says itself when the organizations fail to load (no toast repeats it).
    staticData: { showsOrganizationsFailure: true },
    // The page loads on first use, in parallel with the layout and the data.
  }).lazy(() => import("./dashboard.lazy.tsx").then((module) => module.dashboardLazyRoute));

export const dashboardRoute = dashboardAt("/");
