import { createRoute } from "@tanstack/react-router";
import { appLayoutRoute } from "../layouts.tsx";

export const organizationsRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/organizations",
  component: () => <p>/organizations</p>,
});
