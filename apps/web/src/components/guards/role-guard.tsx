// Route guards. They mirror the server's rules for the interface; every procedure
// enforces the same rules on the server.
import { useEffect, type ReactNode } from "react";
import { useNavigate } from "@tanstack/react-router";
import { ShieldAlert } from "lucide-react";
import { toast } from "sonner";
import { MSG, PAGE_REQUIREMENTS, TOAST_DURATION_MS, can, pageAccessOf, type PageAction } from "@promptly/shared";
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

const ACCESS_DENIED_TITLE = "Access Denied";

/** The refusal in the spec's words: team management has its own sentence, every other page the general one. */
const deniedMessage = (page: PageAction) => (page === "page.teams" ? MSG.accessDeniedTeams : MSG.accessDeniedPage);

/** A page someone may not open, in place of it (only where no redirect is set): why, who may, and whom to ask. */
function AccessDenied({ page }: { page: PageAction }) {
  return (
    <section aria-labelledby="access-denied-heading" data-testid="access-denied" className="mx-auto grid max-w-xl justify-items-center gap-3 rounded-lg border border-dashed border-destructive/40 p-8 text-center">
      <ShieldAlert aria-hidden="true" className="size-10 text-destructive" />
      <h1 id="access-denied-heading" className="text-xl font-semibold">
        {ACCESS_DENIED_TITLE}
      </h1>
      <p>{deniedMessage(page)}</p>
      <p className="text-sm text-muted-foreground">{PAGE_REQUIREMENTS[page]}</p>
    </section>
  );
}

/**
 * Someone who may not open the page is sent to `to`, and the toast says why: 'Access Denied', the
 * spec's sentence, then on a second line who may open it and whom to ask. Two lines take longer to
 * read than a one-line toast, so it stays twice as long. The fixed id keeps strict mode's double
 * effect from showing it twice.
 */
function DeniedRedirect({ page, to }: { page: PageAction; to: "/" }) {
  const navigate = useNavigate();
  useEffect(() => {
    toast.error(ACCESS_DENIED_TITLE, {
      id: "page-access-denied",
      duration: TOAST_DURATION_MS * 2,
      description: (
        <>
          <span className="block">{deniedMessage(page)}</span>
          <span className="mt-1 block">{PAGE_REQUIREMENTS[page]}</span>
        </>
      ),
    });
    void navigate({ to, replace: true });
  }, [page, to, navigate]);
  return <GuardSkeleton />;
}

export interface PageGuardProps {
  /** The page's action in the permission table. */
  page: PageAction;
  /** Where someone who may not open the page is sent (the default, /); null says why in place instead. */
  redirectTo?: "/" | null;
  children: ReactNode;
}

/**
 * A page of the main area, granted by the permission table from the app role, the role in the active
 * organization and the strongest role in its teams: a skeleton while what decides is loading; a super
 * user always passes; someone who may not open it is redirected (default /) with a toast saying why,
 * or, where no redirect is set, reads why on the page.
 * What the app role grants needs no organization list; a failed list is a failure, not a denial.
 */
export function PageGuard({ page, redirectTo = "/", children }: PageGuardProps) {
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
  return redirectTo === null ? <AccessDenied page={page} /> : <DeniedRedirect page={page} to={redirectTo} />;
}
