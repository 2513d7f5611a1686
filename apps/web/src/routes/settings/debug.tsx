import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { settingsLayoutRoute } from "../layouts.tsx";

/** The Auth Debugger: any settings user; its content only in development builds. */
export const settingsDebugRoute = createRoute({
  getParentRoute: () => settingsLayoutRoute,
  path: "debug",
  component: lazyRouteComponent(() => import("@/components/settings/settings-pages"), "DebugPage"),
});
