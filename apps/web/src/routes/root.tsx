// Root route: loads the auth state once (refreshed on sign-in/out). Owned by the app shell.
import { createRootRoute, Outlet } from "@tanstack/react-router";

export const rootRoute = createRootRoute({
  component: () => <Outlet />,
});
