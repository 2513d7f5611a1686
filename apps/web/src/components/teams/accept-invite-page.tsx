// /auth/accept-invite?id=…: shows the team, organization and role of an invitation.
// An anonymous visitor is asked to sign in (and comes back here afterwards) or to sign up from the
// invitation (which accepts it in the same step: InvitedSignUpForm); the invited
// person accepts with one click; someone signed in with another address is told so, and may sign out
// and continue with the invited address (back on this page, signed out) or go to the dashboard.
import { useState, type ReactNode } from "react";
import { Link, useNavigate } from "@tanstack/react-router";
import { AlertCircle, MailCheck } from "lucide-react";
import { toast } from "sonner";
import { displayName, MSG, TEAM_MSG, TEAM_ROLE_LABELS, ORGANIZATION_ROLE_LABELS, type OrganizationRole, type TeamRole, can, pageAccessOf } from "@promptly/shared";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { useMe } from "@/hooks/use-me";
import { trpc } from "@/lib/trpc";
import { ACTIVE_ORGANIZATION_KEY, ACTIVE_TEAM_KEY, clearWorkspaceSelection } from "@/lib/workspace";

/** Where sign-in and sign-up send the visitor back to. */
/** The invitation's page; with the emailed link's token when there is one, so a way back keeps it. */
export const acceptInvitePath = (id: string, token?: string) =>
  `/auth/accept-invite?id=${encodeURIComponent(id)}${token ? `&token=${encodeURIComponent(token)}` : ""}`;
const withRedirect = (path: string, id: string, token?: string) => `${path}?redirect=${encodeURIComponent(acceptInvitePath(id, token))}`;

/** The auth area's layout centres the card; this only keeps every state the same width. */
function Frame({ children }: { children: ReactNode }) {
  return <div className="flex w-full justify-center">{children}</div>;
}

function NotFound({ signedIn }: { signedIn: boolean }) {
  return (
    <Frame>
      <Card className="w-full">
        <CardHeader>
          <CardTitle level={1}>Team invitation</CardTitle>
        </CardHeader>
        <CardContent>
          <Alert variant="destructive">
            <AlertCircle aria-hidden="true" />
            <AlertDescription>{MSG.inviteNotFound}</AlertDescription>
          </Alert>
        </CardContent>
        <CardFooter>
          <Button asChild variant="outline">
            {signedIn ? <Link to="/">Go to the dashboard</Link> : <a href="/auth/signin">Sign In</a>}
          </Button>
        </CardFooter>
      </Card>
    </Frame>
  );
}

export function AcceptInvitePage({ id, token }: { id: string | undefined; token?: string }) {
  const { data: me, isPending: meLoading } = useMe();
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const [failure, setFailure] = useState<{ title: string | null; message: string } | null>(null);
  const invite = trpc.invites.get.useQuery({ id: id ?? "" }, { enabled: !!id, retry: false });

  const accept = trpc.invites.accept.useMutation({
    async onSuccess(result) {
      toast.success("Invitation accepted", { description: `You are now a member of ${result.teamName ?? result.organizationName}.` });
      // The team (or organization) just joined becomes the active one.
      localStorage.setItem(ACTIVE_ORGANIZATION_KEY, result.organizationId);
      if (result.teamId) localStorage.setItem(ACTIVE_TEAM_KEY, result.teamId);
      else localStorage.removeItem(ACTIVE_TEAM_KEY);
      await Promise.all([utils.organizations.list.invalidate(), utils.teams.list.invalidate(), utils.invites.mine.invalidate()]);
      // The Teams page for whoever may open it now: by app role, or by the role just accepted.
      const joined = result.teamId
        ? pageAccessOf(me, { myRole: null }, [{ myRole: result.role as TeamRole }])
        : pageAccessOf(me, { myRole: result.role as OrganizationRole }, []);
      await navigate({ to: can(joined, "page.teams") ? "/teams" : "/" });
    },
    onError(error) {
      // Shown once, on the page (no toast repeating it). A refusal in the spec's words ('This
      // invitation was sent to a different email address', ...) stands alone; anything unexpected is
      // 'Failed to add you to the team' with the reason.
      const refused = error.data && error.data.httpStatus >= 400 && error.data.httpStatus < 500;
      setFailure({ title: refused ? null : TEAM_MSG.failedToJoinTeam, message: error.message });
    },
  });
  const signOut = trpc.auth.signOut.useMutation({
    onSuccess() {
      clearWorkspaceSelection();
      // Back to this invitation, signed out: it offers Sign In and Sign Up, both returning here to
      // accept. A full load drops every cached answer of the previous account.
      window.location.assign(acceptInvitePath(id ?? "", token));
    },
    onError() {
      toast.error("Error logging out", { description: "Please try again" });
    },
  });

  if (!id) return <NotFound signedIn={!!me} />;
  if (invite.isPending || meLoading) {
    return (
      <Frame>
        <Card className="w-full" aria-busy="true" aria-label="Loading invitation">
          <CardHeader>
            <Skeleton className="h-6 w-40" />
            <Skeleton className="h-4 w-64" />
          </CardHeader>
          <CardContent>
            <Skeleton className="h-9 w-full" />
          </CardContent>
        </Card>
      </Frame>
    );
  }
  if (invite.isError) return <NotFound signedIn={!!me} />;

  const summary = invite.data;
  const role = summary.kind === "team" ? TEAM_ROLE_LABELS[summary.role as TeamRole] : ORGANIZATION_ROLE_LABELS[summary.role as OrganizationRole];
  return (
    <Frame>
      <Card className="w-full" data-testid="accept-invite">
        <CardHeader>
          <MailCheck aria-hidden="true" className="size-8 text-muted-foreground" />
          <CardTitle level={1}>{summary.teamName ? "Team invitation" : "Organization invitation"}</CardTitle>
          <CardDescription>
            {summary.teamName ? (
              <>
                You have been invited to join the team <strong data-testid="invite-team">{summary.teamName}</strong> in{" "}
              </>
            ) : (
              "You have been invited to join the organization "
            )}
            <strong data-testid="invite-organization">{summary.organizationName}</strong> as{" "}
            <strong data-testid="invite-role">{role}</strong>.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-3 text-sm">
          <p className="text-muted-foreground">
            Sent to <span className="font-medium text-foreground">{summary.email}</span>
          </p>
          {!me && <p>Sign in or create an account with this email address to accept the invitation.</p>}
          {me && summary.emailMatches === false && (
            <Alert variant="destructive">
              <AlertCircle aria-hidden="true" />
              <AlertTitle>{MSG.inviteWrongEmail}</AlertTitle>
              <AlertDescription className="wrap-anywhere">
                You are signed in as {displayName(me.profile.fullName, me.user.email)} ({me.user.email}). To accept it, sign out and continue
                with the invited address; or go to the dashboard and keep working as you are.
              </AlertDescription>
            </Alert>
          )}
          {failure && (
            <Alert variant="destructive" data-testid="accept-invite-error">
              <AlertCircle aria-hidden="true" />
              {failure.title && <AlertTitle>{failure.title}</AlertTitle>}
              <AlertDescription>{failure.message}</AlertDescription>
            </Alert>
          )}
        </CardContent>
        <CardFooter className="flex flex-wrap gap-2">
          {!me && (
            <>
              <Button asChild>
                <a href={withRedirect("/auth/signin", id, token)}>Sign In</a>
              </Button>
              <Button asChild variant="outline">
                {/* With the emailed link's token: sign up and join in one step; without it (the id alone proves
                    nothing), the usual sign-up, whose confirmation brings them back here. */}
                <a href={token ? `/auth/signup?invite=${encodeURIComponent(id)}&token=${encodeURIComponent(token)}` : withRedirect("/auth/signup", id)}>
                  Sign Up
                </a>
              </Button>
            </>
          )}
          {me && summary.emailMatches && (
            <Button onClick={() => accept.mutate({ id })} disabled={accept.isPending}>
              {accept.isPending ? "Accepting..." : "Accept Invitation"}
            </Button>
          )}
          {me && summary.emailMatches === false && (
            <>
              <Button onClick={() => signOut.mutate()} disabled={signOut.isPending}>
                {signOut.isPending ? "Logging out..." : "Sign out and continue"}
              </Button>
              <Button asChild variant="outline">
                <Link to="/">Go to the dashboard</Link>
              </Button>
            </>
          )}
        </CardFooter>
      </Card>
    </Frame>
  );
}
