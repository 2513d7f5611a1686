import { createRoute } from "@tanstack/react-router";
import { appLayoutRoute } from "../layouts.tsx";

/** /, /prompts, /bookmarks and /analytics show the dashboard (spec 2). */
const dashboardAt = (path: "/" | "/prompts" | "/bookmarks" | "/analytics") =>
  createRoute({
    getParentRoute: () => appLayoutRoute,
    path,
    component: () => <h1>Dashboard</h1>,
  });

export const dashboardRoute = dashboardAt("/");
export const promptsRoute = dashboardAt("/prompts");
export const bookmarksRoute = dashboardAt("/bookmarks");
export const analyticsRoute = dashboardAt("/analytics");
