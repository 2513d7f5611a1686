import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { SettingsRouteLoadFailure } from "@/components/layout/load-failure";
import { SettingsSkeleton } from "@/components/settings/settings-skeleton";
import { api } from "@/lib/trpc";
import { settingsLayoutRoute } from "../layouts.tsx";

export const settingsSecurityRoute = createRoute({
  getParentRoute: () => settingsLayoutRoute,
  path: "security",
  loader: () => api.security.overview.ensureData(),
  pendingComponent: SettingsSkeleton,
  errorComponent: SettingsRouteLoadFailure,
  component: lazyRouteComponent(() => import("@/components/settings/settings-pages"), "SecurityPage"),
});
