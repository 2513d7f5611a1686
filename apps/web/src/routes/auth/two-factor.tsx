import { createRoute } from "@tanstack/react-router";
import { authLayoutRoute } from "../layouts.tsx";

export const twoFactorRoute = createRoute({
  getParentRoute: () => authLayoutRoute,
  path: "two-factor",
  component: () => <p>two-factor</p>,
});
