// Layout routes: the public auth area, the protected main area and the settings area.
import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { rootRoute } from "./root.tsx";
import { AuthLayout } from "@/components/auth/auth-layout";
import { redirectSignedIn } from "@/components/auth/redirect-signed-in";
import { AppLayoutSkeleton } from "@/components/layout/app-layout-skeleton";
import { requireSession } from "@/components/guards/require-session";
import { loadWorkspace } from "@/lib/workspace";

/** /auth/*: public; a signed-in user is sent to / (from sign-in, sign-up and forgot-password). */
export const authLayoutRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/auth",
  beforeLoad: redirectSignedIn,
  component: AuthLayout,
});

/** The main layout (sidebar, header) of every protected page; pathless. */
export const appLayoutRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: "app",
  beforeLoad: requireSession,
  // The header's organization switcher and team selector.
  loader: () => loadWorkspace(),
  pendingComponent: AppLayoutSkeleton,
  // Loaded on first use, in parallel with the route's data, to keep the initial download small.
  component: lazyRouteComponent(() => import("@/components/layout/app-layout"), "AppLayout"),
});

/** /settings/*: protected, with its own header. */
export const settingsLayoutRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/settings",
  beforeLoad: requireSession,
  // Loaded on first use, like the main layout (its header's menus are not needed before).
  component: lazyRouteComponent(() => import("@/components/settings/settings-layout"), "SettingsLayout"),
});
