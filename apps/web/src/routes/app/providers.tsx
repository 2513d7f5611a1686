import { createRoute } from "@tanstack/react-router";
import { loadWorkspace } from "@/lib/workspace";
import { appLayoutRoute } from "../layouts.tsx";

/** /providers: the active organization's model provider connections and prices, for its admins and super users; the server refuses others too. */
export const providersRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/providers",
  // The page says itself when the organizations fail to load (no toast repeats it).
  staticData: { showsOrganizationsFailure: true },
  loader: () => loadWorkspace(),
}).lazy(() => import("./providers.lazy.tsx").then((module) => module.providersLazyRoute));
