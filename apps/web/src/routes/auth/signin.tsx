import { createRoute } from "@tanstack/react-router";
import { authLayoutRoute } from "../layouts.tsx";

export const signInRoute = createRoute({
  getParentRoute: () => authLayoutRoute,
  path: "signin",
  component: () => <p>signin</p>,
});
