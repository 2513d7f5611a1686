import { lazy, Suspense } from "react";
import { createRoute, redirect } from "@tanstack/react-router";
import { z } from "zod";
import { ROUTE_ROLES } from "@promptly/shared";
import { GuardSkeleton, RoleGuard } from "@/components/guards/role-guard";
import { chooseWorkspace } from "@/lib/workspace";
import { appLayoutRoute } from "../layouts.tsx";

type DashboardPath = "/";

// Loaded on first use (started by the loader, in parallel with the layout), to keep the initial download small.
const loadDashboardPage = () => import("@/components/dashboard/dashboard-page");
const DashboardPage = lazy(() => loadDashboardPage().then((module) => ({ default: module.DashboardPage })));

/** `?organizationId=&teamId=` (a notification's link, issue 16) makes them active, then the plain URL shows. */
const workspaceSearch = z.object({
  organizationId: z.string().optional().catch(undefined),
  teamId: z.string().optional().catch(undefined),
});

/** / shows the dashboard (spec 2) with its route-table roles. */
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
      <RoleGuard allowed={ROUTE_ROLES[path]}>
        <Suspense fallback={<GuardSkeleton />}>
          <DashboardPage />
        </Suspense>
      </RoleGuard>
    ),
  });

export const dashboardRoute = dashboardAt("/");
