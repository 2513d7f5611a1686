import { createRoute } from "@tanstack/react-router";
import { settingsLayoutRoute } from "../layouts.tsx";

export const settingsDebugRoute = createRoute({
  getParentRoute: () => settingsLayoutRoute,
  path: "debug",
  component: () => <p>debug</p>,
});
