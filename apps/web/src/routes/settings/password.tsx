import { createRoute } from "@tanstack/react-router";
import { settingsLayoutRoute } from "../layouts.tsx";

export const settingsPasswordRoute = createRoute({
  getParentRoute: () => settingsLayoutRoute,
  path: "password",
  component: () => <p>password</p>,
});
