import { createRoute } from "@tanstack/react-router";
import { settingsLayoutRoute } from "../layouts.tsx";

/** /settings shows the profile screen (spec 2). */
export const settingsIndexRoute = createRoute({
  getParentRoute: () => settingsLayoutRoute,
  path: "/",
  component: () => <p>settings</p>,
});
