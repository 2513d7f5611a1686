import { createRoute } from "@tanstack/react-router";
import { appLayoutRoute } from "../layouts.tsx";

export const teamsRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/teams",
  component: () => <p>/teams</p>,
});
