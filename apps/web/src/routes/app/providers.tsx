import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { PageGuard } from "@/components/guards/role-guard";
import { loadWorkspace } from "@/lib/workspace";
import { appLayoutRoute } from "../layouts.tsx";

const ProvidersPage = lazyRouteComponent(() => import("@/components/providers/providers-page"), "ProvidersPage");

/** /providers: the active organization's model provider connections and prices, for its admins and super users; the server refuses others too. */
export const providersRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/providers",
  // The page says itself when the organizations fail to load (no toast repeats it).
  staticData: { showsOrganizationsFailure: true },
  loader: () => loadWorkspace(),
  component: () => (
    <PageGuard page="page.providers">
      <ProvidersPage />
    </PageGuard>
  ),
});
