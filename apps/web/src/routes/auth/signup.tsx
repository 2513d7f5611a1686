import { createRoute } from "@tanstack/react-router";
import { authLayoutRoute } from "../layouts.tsx";

export const signUpRoute = createRoute({
  getParentRoute: () => authLayoutRoute,
  path: "signup",
  component: () => <p>signup</p>,
});
