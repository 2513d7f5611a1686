import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { settingsLayoutRoute } from "../layouts.tsx";

export const settingsPasswordRoute = createRoute({
  getParentRoute: () => settingsLayoutRoute,
  path: "password",
  component: lazyRouteComponent(() => import("@/components/settings/settings-pages"), "PasswordPage"),
});
