// Pages that live inside the active organization (dashboard, prompt lists, the editor) wait for it,
// say so when the organizations could not be loaded, and tell someone without one what to do next:
// a super user (on a fresh install, the first account) creates the first organization and then a
// team; anyone else is invited.
import { useState, type ReactNode } from "react";
import { Link, useNavigate } from "@tanstack/react-router";
import { Building2, Mail, Plus } from "lucide-react";
import { ORGANIZATION_MSG, ORGANIZATION_ROLE_LABELS, TEAM_ROLE_LABELS, can, type OrganizationRole, type TeamRole } from "@promptly/shared";
import { CreateOrganizationDialog } from "@/components/organizations/create-organization-dialog";
import { CopyButton } from "@/components/prompts/page/copy-button";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { useMe } from "@/hooks/use-me";
import { trpc } from "@/lib/trpc";
import { accessIn, useWorkspace, type Workspace } from "@/lib/workspace";
import { LoadFailure, type LoadFailureProps } from "./load-failure.tsx";

type ActiveOrganization = NonNullable<Workspace["activeOrganization"]>;

export function WorkspaceGate({ children }: { children: (organization: ActiveOrganization) => ReactNode }) {
  const { activeOrganization, organizationsLoading, organizationsError, organizationsFailure, organizationsRetrying, retryOrganizations } = useWorkspace();
  if (activeOrganization) return <>{children(activeOrganization)}</>;
  if (organizationsLoading) return <Skeleton className="h-40 w-full" aria-label="Loading" />;
  if (organizationsError) return <OrganizationsLoadFailure error={organizationsFailure} retrying={organizationsRetrying} onRetry={retryOrganizations} />;
  return <NoOrganization />;
}

/** The organization list failed: the spec's words ('Error loading organizations'), on the page, with Try again. */
export function OrganizationsLoadFailure(props: Pick<LoadFailureProps, "error" | "retrying" | "onRetry" | "heading">) {
  return <LoadFailure title={ORGANIZATION_MSG.loadErrorTitle} description={ORGANIZATION_MSG.loadErrorDescription} {...props} />;
}

/** A super user's way out: create the organization, then (on the Teams page) its first team. */
function CreateFirstOrganization() {
  const [creating, setCreating] = useState(false);
  const { setActiveOrganizationId } = useWorkspace();
  const navigate = useNavigate();
  return (
    <>
      <p className="text-sm text-muted-foreground">
        As a super user you can create the first organization, then a team in it; invite colleagues from the Teams page.
      </p>
      <Button onClick={() => setCreating(true)}>
        <Plus aria-hidden="true" />
        Create an organization
      </Button>
      <CreateOrganizationDialog
        open={creating}
        onOpenChange={setCreating}
        onCreated={(organization) => {
          setActiveOrganizationId(organization.id);
          // Next step: the Teams page, whose 'Create First Team' makes the team prompts go into.
          void navigate({ to: "/teams" });
        }}
      />
    </>
  );
}

const roleLabel = (kind: "team" | "organization", role: string) =>
  kind === "team" ? TEAM_ROLE_LABELS[role as TeamRole] : ORGANIZATION_ROLE_LABELS[role as OrganizationRole];

/**
 * Only a super user creates organizations, so someone else gets in by invitation: who may send one, and
 * the address to give them (the invitation must go to it), ready to copy.
 */
function AskForAnInvitation({ email }: { email: string | undefined }) {
  return (
    <div className="grid w-full justify-items-center gap-3">
      <p className="text-sm text-muted-foreground">
        Only a super user can create an organization. To join one, ask an organization admin or a team admin of it (or a
        super user) to invite you: the invitation comes by email, and its link brings you straight in.
      </p>
      {email && (
        <div className="flex w-full max-w-full flex-wrap items-center justify-center gap-2 rounded-md bg-muted p-3 text-sm">
          <span className="text-muted-foreground">Your address to give them:</span>
          <span data-testid="own-address" className="min-w-0 break-all font-medium">
            {email}
          </span>
          <CopyButton text={email} label="Copy your address" />
        </div>
      )}
    </div>
  );
}

/** Someone in no organization: how to get into one, and the invitations already waiting for them. */
function NoOrganization() {
  const invites = trpc.invites.mine.useQuery();
  const { data: me } = useMe();
  const mayCreate = can(accessIn(me, null), "organization.create");
  return (
    <section aria-labelledby="no-organization-heading" className="mx-auto grid max-w-xl justify-items-center gap-3 rounded-lg border border-dashed border-border p-8 text-center">
      <Building2 aria-hidden="true" className="size-10 text-muted-foreground" />
      <h2 id="no-organization-heading" className="text-lg font-semibold">
        You are not in an organization yet
      </h2>
      <p className="text-sm text-muted-foreground">
        Prompts are shared inside an organization&apos;s teams: New Prompt needs a team to put the prompt in.
      </p>
      {mayCreate ? (
        <CreateFirstOrganization />
      ) : (
        <AskForAnInvitation email={me?.user.email} />
      )}
      {invites.data && invites.data.length > 0 && (
        <div className="grid w-full gap-2 pt-2 text-left">
          <h3 className="text-sm font-medium">Invitations waiting for you</h3>
          <ul className="grid gap-2">
            {invites.data.map((invite) => (
              <li key={invite.id} className="flex flex-wrap items-center gap-3 rounded-md border border-border p-3 text-sm">
                <Mail aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
                <span className="min-w-0 flex-1 break-words">
                  {invite.teamName ? `${invite.teamName} in ${invite.organizationName}` : invite.organizationName} · {roleLabel(invite.kind, invite.role)}
                </span>
                <Button asChild size="sm">
                  <Link to="/auth/accept-invite" search={{ id: invite.id }} aria-label={`Open the invitation to ${invite.teamName ?? invite.organizationName}`}>
                    Open invitation
                  </Link>
                </Button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
