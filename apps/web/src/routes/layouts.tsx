// Layout routes: the public auth area, the protected main area and the settings area.
import { createRoute, Outlet } from "@tanstack/react-router";
import { rootRoute } from "./root.tsx";

/** /auth/*: public; a signed-in user is sent to /. */
export const authLayoutRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/auth",
  component: () => <Outlet />,
});

/** The main layout (sidebar, header) of every protected page; pathless. */
export const appLayoutRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: "app",
  component: () => <Outlet />,
});

/** /settings/*: protected, with its own header. */
export const settingsLayoutRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/settings",
  component: () => <Outlet />,
});
