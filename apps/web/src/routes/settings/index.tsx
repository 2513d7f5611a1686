import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { SettingsRouteLoadFailure } from "@/components/layout/load-failure";
import { SettingsSkeleton } from "@/components/settings/settings-skeleton";
import { api } from "@/lib/trpc";
import { settingsLayoutRoute } from "../layouts.tsx";

/** /settings shows the profile screen. */
export const settingsIndexRoute = createRoute({
  getParentRoute: () => settingsLayoutRoute,
  path: "/",
  loader: () => api.profile.get.ensureData(),
  pendingComponent: SettingsSkeleton,
  errorComponent: SettingsRouteLoadFailure,
  component: lazyRouteComponent(() => import("@/components/settings/settings-pages"), "ProfilePage"),
});
