import { lazy, Suspense } from "react";
import { createRoute, redirect } from "@tanstack/react-router";
import { z } from "zod";
import { GuardSkeleton, PageGuard } from "@/components/guards/role-guard";
import { chooseWorkspace } from "@/lib/workspace";
import { appLayoutRoute } from "../layouts.tsx";

type DashboardPath = "/";

// Loaded on first use (started by the loader, in parallel with the layout), to keep the initial download small.
const loadDashboardPage = () => import("@/components/dashboard/dashboard-page");
const DashboardPage = lazy(() => loadDashboardPage().then((module) => ({ default: module.DashboardPage })));

/** `?organizationId=&teamId=` (a notification's link) makes them active, then the plain URL shows. */
const workspaceSearch = z.object({
  organizationId: z.string().optional().catch(undefined),
  teamId: z.string().optional().catch(undefined),
});

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
    loader: async () => {
      await loadDashboardPage();
    },
    component: () => (
      <PageGuard page="page.dashboard">
        <Suspense fallback={<GuardSkeleton />}>
          <DashboardPage />
        </Suspense>
      </PageGuard>
    ),
  });

export const dashboardRoute = dashboardAt("/");
