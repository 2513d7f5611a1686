import { createRoute } from "@tanstack/react-router";
import { authLayoutRoute } from "../layouts.tsx";

export const magicLinkRoute = createRoute({
  getParentRoute: () => authLayoutRoute,
  path: "magic-link",
  component: () => <p>magic-link</p>,
});
