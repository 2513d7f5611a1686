import { createRoute } from "@tanstack/react-router";
import { authLayoutRoute } from "../layouts.tsx";

export const confirmEmailRoute = createRoute({
  getParentRoute: () => authLayoutRoute,
  path: "confirm-email",
  component: () => <p>confirm-email</p>,
});
