import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { SettingsSkeleton } from "@/components/settings/settings-skeleton";
import { api } from "@/lib/trpc";
import { settingsLayoutRoute } from "../layouts.tsx";

export const settingsNotificationsRoute = createRoute({
  getParentRoute: () => settingsLayoutRoute,
  path: "notifications",
  loader: () => api.profile.notificationPreferences.ensureData(),
  pendingComponent: SettingsSkeleton,
  component: lazyRouteComponent(() => import("@/components/settings/settings-pages"), "NotificationsPage"),
});
