// Root route: loads the auth state once (the query cache keeps it fresh), the not-found page and the
// application's error fallback. Owned by the app shell.
import { useEffect, useRef } from "react";
import { createRootRoute, Outlet } from "@tanstack/react-router";
import { toast } from "sonner";
import { ErrorFallback } from "@/components/layout/error-fallback";
import { FocusHeadingOnNavigate } from "@/components/layout/focus-heading";
import { RootNotFoundPage } from "@/components/layout/not-found";
import { ensureMe, useMe } from "@/hooks/use-me";

/**
 * `?__throw=1` on any URL makes the root route fail before anything else loads, so the end-to-end suite can show the error fallback
 * in the production build. Harmless: it only renders the fallback with this fixed message.
 */
const TEST_ERROR_PARAM = "__throw";
const TEST_ERROR_MESSAGE = "Test error requested with ?__throw=1";

export const rootRoute = createRootRoute({
  beforeLoad: ({ search }) => {
    if ((search as Record<string, unknown>)[TEST_ERROR_PARAM] !== undefined) throw new Error(TEST_ERROR_MESSAGE);
  },
  loader: () => ensureMe(),
  component: RootComponent,
  notFoundComponent: RootNotFoundPage,
  errorComponent: ErrorFallback,
});

function RootComponent() {
  return (
    <>
      <RoleAssignedNotice />
      <FocusHeadingOnNavigate />
      <Outlet />
    </>
  );
}

/** A person without a stored role gets 'user' on their first request; when that just happened, say so once. */
function RoleAssignedNotice() {
  const { data: me } = useMe();
  const shownFor = useRef<string | null>(null);
  useEffect(() => {
    if (!me?.roleCreated || shownFor.current === me.user.id) return;
    shownFor.current = me.user.id;
    toast("Access level set", { id: `role-created-${me.user.id}`, description: "You've been assigned the user role" });
  }, [me]);
  return null;
}
