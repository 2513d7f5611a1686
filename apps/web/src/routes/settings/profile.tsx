import { createRoute } from "@tanstack/react-router";
import { settingsLayoutRoute } from "../layouts.tsx";

export const settingsProfileRoute = createRoute({
  getParentRoute: () => settingsLayoutRoute,
  path: "profile",
  component: () => <p>profile</p>,
});
