// /signin and /signup, the addresses people type: they lead to the auth pages, keeping the query.
import { createRoute, redirect } from "@tanstack/react-router";
import { rootRoute } from "../root.tsx";

export const signInShortRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/signin",
  beforeLoad: ({ location }) => {
    throw redirect({ href: `/auth/signin${location.searchStr}`, replace: true });
  },
});

export const signUpShortRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/signup",
  beforeLoad: ({ location }) => {
    throw redirect({ href: `/auth/signup${location.searchStr}`, replace: true });
  },
});
