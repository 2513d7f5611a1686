import { createRoute } from "@tanstack/react-router";
import { settingsLayoutRoute } from "../layouts.tsx";

export const settingsSecurityRoute = createRoute({
  getParentRoute: () => settingsLayoutRoute,
  path: "security",
  component: () => <p>security</p>,
});
