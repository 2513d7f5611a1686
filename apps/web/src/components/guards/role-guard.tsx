// Route guards. They mirror the server's rules for the interface; every procedure
// enforces the same rules on the server.
import { useEffect, type ReactNode } from "react";
import { Navigate } from "@tanstack/react-router";
import { ShieldAlert } from "lucide-react";
import { toast } from "sonner";
import { MSG, can, type PageAction } from "@promptly/shared";
import { OrganizationsLoadFailure } from "@/components/layout/workspace-gate";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Skeleton } from "@/components/ui/skeleton";
import { useMe, callerOf } from "@/hooks/use-me";
import { useWorkspace, accessIn } from "@/lib/workspace";

const ACCESS_DENIED_TITLE = "Access Denied";
const ACCESS_DENIED_MESSAGE = MSG.accessDeniedPage;
const TEAMS_ACCESS_DENIED_MESSAGE = MSG.accessDeniedTeams;

export function GuardSkeleton() {
  return (
    <div className="space-y-4" aria-busy="true" aria-label="Loading">
      <Skeleton className="h-8 w-48" />
      <Skeleton className="h-32 w-full" />
      <Skeleton className="h-32 w-full" />
    </div>
  );
}

function AccessDenied({ message = ACCESS_DENIED_MESSAGE }: { message?: string }) {
  return (
    <Alert variant="destructive">
      <ShieldAlert aria-hidden="true" />
      <AlertTitle>{ACCESS_DENIED_TITLE}</AlertTitle>
      <AlertDescription>{message}</AlertDescription>
    </Alert>
  );
}

export interface PageGuardProps {
  /** The page's action in the permission table. */
  page: PageAction;
  /** Where to send someone who may not enter; null shows the 'Access Denied' alert instead. */
  redirectTo?: "/" | null;
  children: ReactNode;
}

/**
 * A page the table grants by app role: skeleton while loading; a super user always passes; otherwise
 * redirect (default /) or 'Access Denied'.
 */
export function PageGuard({ page, redirectTo = "/", children }: PageGuardProps) {
  const { data: me, isPending } = useMe();
  const allowed = can(accessIn(me, null), page);
  const redirected = !isPending && !!me && !allowed && redirectTo !== null;
  // A redirect says why, as /teams does; the fixed id keeps strict mode from doubling it.
  useEffect(() => {
    if (redirected) toast.error(ACCESS_DENIED_TITLE, { id: "page-access-denied", description: ACCESS_DENIED_MESSAGE });
  }, [redirected]);
  // Signed out (e.g. while logging out): the protected area's own guard sends them to sign-in.
  if (isPending || !me) return <GuardSkeleton />;
  if (allowed) return <>{children}</>;
  if (redirectTo === null) return <AccessDenied />;
  return <Navigate to={redirectTo} replace />;
}

/** /teams: administrator, organization admin (of the active organization) or super user; others go to /. */
export function TeamsPageGuard({ children }: { children: ReactNode }) {
  const { data: me, isPending } = useMe();
  const { activeOrganization, organizationsLoading, organizationsError, organizationsFailure, retryOrganizations } = useWorkspace();
  const caller = callerOf(me);
  const allowedAnyway = can(accessIn(caller, null), "page.teams");
  // Administrators and super users need no organization to decide; others wait for the organization list.
  // Signed out (e.g. while logging out) decides nothing: the protected area's guard handles it.
  const decided = !isPending && !!me && (allowedAnyway || !organizationsLoading);
  // Without the organization list, an organization admin's right cannot be known (a failure, not a
  // denial), and the page, which shows the active organization's teams, has nothing true to show.
  const unknown = decided && organizationsError;
  const allowed = decided && can(accessIn(caller, activeOrganization), "page.teams");
  const denied = decided && !allowed && !unknown;

  useEffect(() => {
    // A fixed id keeps a double effect (strict mode) from showing two toasts.
    if (denied) toast.error(ACCESS_DENIED_TITLE, { id: "teams-access-denied", description: TEAMS_ACCESS_DENIED_MESSAGE });
  }, [denied]);

  if (!decided) return <GuardSkeleton />;
  if (unknown) return <OrganizationsLoadFailure heading="h1" error={organizationsFailure} onRetry={retryOrganizations} />;
  if (denied) return <Navigate to="/" replace />;
  return <>{children}</>;
}
