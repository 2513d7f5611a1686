import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { SettingsSkeleton } from "@/components/settings/settings-skeleton";
import { api } from "@/lib/trpc";
import { settingsLayoutRoute } from "../layouts.tsx";

export const settingsProfileRoute = createRoute({
  getParentRoute: () => settingsLayoutRoute,
  path: "profile",
  loader: () => api.profile.get.ensureData(),
  pendingComponent: SettingsSkeleton,
  component: lazyRouteComponent(() => import("@/components/settings/settings-pages"), "ProfilePage"),
});
