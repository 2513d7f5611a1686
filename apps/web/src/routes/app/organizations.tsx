import { accessIn } from "@/lib/workspace";
import { can } from "@promptly/shared";
import { createRoute } from "@tanstack/react-router";
import { api } from "@/lib/trpc";
import { appLayoutRoute } from "../layouts.tsx";

/** /organizations: super users only (the server refuses everyone else's changes as well). */
export const organizationsRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/organizations",
  // The page says itself when the organizations fail to load (no toast repeats it).
  staticData: { showsOrganizationsFailure: true },
  loader: async () => {
    const me = await api.auth.me.ensureData();
    // A failed list shows on the page itself, not as the application's error screen.
    if (can(accessIn(me, null), "page.organizations")) await api.organizations.list.ensureData().catch(() => undefined);
  },
}).lazy(() => import("./organizations.lazy.tsx").then((module) => module.organizationsLazyRoute));
