// Route guards. They mirror the server's rules for the interface; every procedure
// enforces the same rules on the server.
import type { ReactNode } from "react";
import { ShieldAlert } from "lucide-react";
import { MSG, PAGE_REQUIREMENTS, can, pageAccessOf, type PageAction } from "@promptly/shared";
import { LoadFailure } from "@/components/layout/load-failure";
import { OrganizationsLoadFailure } from "@/components/layout/workspace-gate";
import { Skeleton } from "@/components/ui/skeleton";
import { useMe, callerOf } from "@/hooks/use-me";
import { useWorkspace, accessIn } from "@/lib/workspace";

export function GuardSkeleton() {
  return (
    <div className="space-y-4" aria-busy="true" aria-label="Loading">
      <Skeleton className="h-8 w-48" />
      <Skeleton className="h-32 w-full" />
      <Skeleton className="h-32 w-full" />
    </div>
  );
}

/** A page someone may not open, in place of it: why, who may, and whom to ask. */
function AccessDenied({ page }: { page: PageAction }) {
  return (
    <section aria-labelledby="access-denied-heading" data-testid="access-denied" className="mx-auto grid max-w-xl justify-items-center gap-3 rounded-lg border border-dashed border-destructive/40 p-8 text-center">
      <ShieldAlert aria-hidden="true" className="size-10 text-destructive" />
      <h1 id="access-denied-heading" className="text-xl font-semibold">
        Access Denied
      </h1>
      <p>{page === "page.teams" ? MSG.accessDeniedTeams : MSG.accessDeniedPage}</p>
      <p className="text-sm text-muted-foreground">{PAGE_REQUIREMENTS[page]}</p>
    </section>
  );
}

export interface PageGuardProps {
  /** The page's action in the permission table. */
  page: PageAction;
  children: ReactNode;
}

/**
 * A page of the main area, granted by the permission table from the app role, the role in the active
 * organization and the strongest role in its teams: a skeleton while what decides is loading; a super
 * user always passes; someone who may not open it reads why on the page (never a silent redirect).
 * What the app role grants needs no organization list; a failed list is a failure, not a denial.
 */
export function PageGuard({ page, children }: PageGuardProps) {
  const { data: me, isPending } = useMe();
  const {
    activeOrganization, organizationsLoading, organizationsError, organizationsFailure, organizationsRetrying, retryOrganizations,
    teams, teamsLoading, teamsError, teamsFailure, teamsRetrying, retryTeams,
  } = useWorkspace();
  const caller = callerOf(me);
  // Signed out (e.g. while logging out): the protected area's own guard sends them to sign-in.
  if (isPending || !me) return <GuardSkeleton />;
  if (can(accessIn(caller, null), page)) return <>{children}</>;
  if (organizationsLoading) return <GuardSkeleton />;
  if (organizationsError) return <OrganizationsLoadFailure heading="h1" error={organizationsFailure} retrying={organizationsRetrying} onRetry={retryOrganizations} />;
  if (can(accessIn(caller, activeOrganization), page)) return <>{children}</>;
  if (teamsLoading) return <GuardSkeleton />;
  if (teamsError) return <LoadFailure heading="h1" title="The teams could not be loaded" error={teamsFailure} retrying={teamsRetrying} onRetry={retryTeams} />;
  if (can(pageAccessOf(caller, activeOrganization, teams), page)) return <>{children}</>;
  return <AccessDenied page={page} />;
}
