// The Teams page (/teams): header with refresh, the active organization and 'New Team'; the
// carousel of team cards ('No Teams Created Yet' / 'Create First Team' when there are none); for the
// selected team its members, the invite panel, pending invitations, its reviews, its API keys, rename and
// delete. Controls that change a team appear at team admin level only; the server enforces the same rules.
import { useState } from "react";
import { Pencil, Plus, RefreshCw, Trash2, UserPlus, Users } from "lucide-react";
import { can, TEAM_MSG, TEAM_ROLE_LABELS } from "@promptly/shared";
import { LoadFailure } from "@/components/layout/load-failure";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton, SkeletonRows } from "@/components/ui/skeleton";
import { useMe } from "@/hooks/use-me";
import { trpc } from "@/lib/trpc";
import { cn } from "@/lib/utils";
import { accessIn, useWorkspace } from "@/lib/workspace";
import { TeamReviewsCard } from "@/components/reviews/team-reviews-card";
import { ProductionTextCard } from "./production-text-card.tsx";
import { DefaultConnectionCard } from "./default-connection-card.tsx";
import { ApiKeysCard } from "./api-keys/api-keys-card.tsx";
import { WebhooksCard } from "./webhooks/webhooks-card.tsx";
import { CreateTeamDialog } from "./create-team-dialog.tsx";
import { DeleteTeamDialog } from "./delete-team-dialog.tsx";
import { InvitePanel } from "./invite-panel.tsx";
import { PendingInvites } from "./pending-invites.tsx";
import { RenameTeamDialog } from "./rename-team-dialog.tsx";
import { TeamCarousel } from "./team-carousel.tsx";
import { OrganizationsLoadFailure } from "@/components/layout/workspace-gate";
import { TeamMembersTable } from "./team-members-table.tsx";
import type { Team } from "./team-types.ts";

export function TeamsPage() {
  const { data: me } = useMe();
  const {
    activeOrganization, organizationsLoading, organizationsError, organizationsFailure, organizationsRetrying, retryOrganizations,
    teams, teamsLoading, teamsError, teamsFailure, teamsRetrying, retryTeams, activeTeam, setActiveTeamId,
  } = useWorkspace();
  const utils = trpc.useUtils();
  const [creating, setCreating] = useState(false);
  const [refreshing, setRefreshing] = useState(false);
  // Whether there is an active organization is unknown while its list loads or has failed: the header
  // then says nothing of it and offers no New Team.
  const organizationKnown = !organizationsLoading && !organizationsError;
  const mayCreate = organizationKnown && can(accessIn(me, activeOrganization), "team.create");

  const refresh = async () => {
    setRefreshing(true);
    try {
      await Promise.all([utils.teams.list.invalidate(), utils.teamMembers.list.invalidate(), utils.invites.listPending.invalidate(), utils.apiKeys.list.invalidate(), utils.changeRequests.list.invalidate()]);
    } finally {
      setRefreshing(false);
    }
  };

  return (
    <div className="mx-auto grid w-full max-w-6xl grid-cols-1 gap-6">
      <header className="flex flex-wrap items-center gap-3">
        <div className="min-w-0 flex-1">
          <div className="flex items-center gap-2">
            <h1 className="text-2xl font-semibold tracking-tight">Teams</h1>
            <Button variant="ghost" size="icon" aria-label="Refresh teams" onClick={() => void refresh()} disabled={refreshing}>
              <RefreshCw aria-hidden="true" className={cn(refreshing && "animate-spin")} />
            </Button>
          </div>
          {(activeOrganization || organizationKnown) && (
            <p className="text-sm wrap-anywhere text-muted-foreground" data-testid="teams-organization">
              {activeOrganization ? activeOrganization.name : "No active organization"}
            </p>
          )}
        </div>
        {mayCreate && (
          <Button onClick={() => setCreating(true)} disabled={!activeOrganization}>
            <Plus aria-hidden="true" />
            New Team
          </Button>
        )}
      </header>

      {teamsLoading ? (
        <div className="flex gap-3" aria-busy="true" aria-label="Loading teams">
          <Skeleton className="h-20 w-48" />
          <Skeleton className="h-20 w-48" />
          <Skeleton className="h-20 w-48" />
        </div>
      ) : organizationsError ? (
        // Without the organizations there are no teams to show, and none to deny: say what failed.
        <OrganizationsLoadFailure error={organizationsFailure} retrying={organizationsRetrying} onRetry={retryOrganizations} />
      ) : teamsError ? (
        <LoadFailure title="The teams could not be loaded" error={teamsFailure} retrying={teamsRetrying} onRetry={retryTeams} />
      ) : teams.length === 0 ? (
        <Card className="items-center text-center">
          <CardHeader className="items-center">
            <Users aria-hidden="true" className="mx-auto size-10 text-muted-foreground" />
            <CardTitle>No Teams Created Yet</CardTitle>
            <CardDescription>Teams group the people who share prompts in {activeOrganization?.name ?? "an organization"}.</CardDescription>
          </CardHeader>
          {mayCreate && (
            <CardContent>
              <Button onClick={() => setCreating(true)} disabled={!activeOrganization}>
                <Plus aria-hidden="true" />
                Create First Team
              </Button>
            </CardContent>
          )}
        </Card>
      ) : (
        <>
          <TeamCarousel teams={teams} selectedId={activeTeam?.id ?? null} onSelect={(team) => setActiveTeamId(team.id)} />
          {activeTeam && <TeamDetails key={activeTeam.id} team={activeTeam} />}
        </>
      )}

      <CreateTeamDialog open={creating} onOpenChange={setCreating} />
    </div>
  );
}

function TeamDetails({ team }: { team: Team }) {
  const { data: me } = useMe();
  const { activeOrganization } = useWorkspace();
  // Rename, delete, members and invitations: team.manage and team.members.manage share the team admin level.
  const access = accessIn(me, activeOrganization, team);
  const canManage = can(access, "team.manage");
  const canManageKeys = can(access, "apiKey.manage");
  const canManageWebhooks = can(access, "webhook.manage");
  const [inviting, setInviting] = useState(false);
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);

  const members = trpc.teamMembers.list.useQuery({ teamId: team.id });
  const invites = trpc.invites.listPending.useQuery({ teamId: team.id }, { enabled: canManage });

  return (
    <section aria-labelledby="selected-team-heading" className="grid grid-cols-1 gap-4">
      <div className="flex flex-wrap items-center gap-2">
        <h2 id="selected-team-heading" className="min-w-0 text-xl font-semibold wrap-anywhere">
          {team.name}
        </h2>
        {team.myRole && <Badge variant="secondary">Team {TEAM_ROLE_LABELS[team.myRole]}</Badge>}
        {canManage && (
          <div className="ml-auto flex flex-wrap gap-2">
            <Button variant="outline" size="sm" onClick={() => setRenaming(true)}>
              <Pencil aria-hidden="true" />
              Rename
            </Button>
            <Button variant="outline" size="sm" onClick={() => setDeleting(true)}>
              <Trash2 aria-hidden="true" />
              Delete
            </Button>
            <Button size="sm" onClick={() => setInviting(true)} disabled={inviting}>
              <UserPlus aria-hidden="true" />
              Invite Member
            </Button>
          </div>
        )}
      </div>

      {canManage && inviting && <InvitePanel teamId={team.id} teamName={team.name} onClose={() => setInviting(false)} />}

      <Card>
        <CardHeader>
          <CardTitle>Members</CardTitle>
        </CardHeader>
        <CardContent>
          {members.isPending ? (
            <SkeletonRows label="Loading members" />
          ) : members.isError ? (
            <LoadFailure title={TEAM_MSG.failedToFetchTeamMembers} error={members.error} onRetry={members.refetch} />
          ) : (
            <TeamMembersTable teamId={team.id} members={members.data} canManage={canManage} />
          )}
        </CardContent>
      </Card>

      {canManage && (
        <Card>
          <CardHeader>
            <CardTitle>Pending invitations</CardTitle>
            <CardDescription>Invitations expire after 7 days; sending one again renews it.</CardDescription>
          </CardHeader>
          <CardContent>
            {invites.isPending ? (
              <Skeleton className="h-10 w-full" />
            ) : invites.isError ? (
              <LoadFailure title={TEAM_MSG.failedToFetchPendingInvites} error={invites.error} onRetry={invites.refetch} />
            ) : (
              <PendingInvites teamId={team.id} teamName={team.name} invites={invites.data} />
            )}
          </CardContent>
        </Card>
      )}

      <TeamReviewsCard team={team} canManage={canManage} />
      <ProductionTextCard team={team} canManage={canManage} />
      {canManage && <DefaultConnectionCard teamId={team.id} />}

      {canManageKeys && <ApiKeysCard team={team} />}

      {canManageWebhooks && <WebhooksCard team={team} />}

      {canManage && <RenameTeamDialog team={team} open={renaming} onOpenChange={setRenaming} />}
      {canManage && <DeleteTeamDialog team={team} open={deleting} onOpenChange={setDeleting} />}
    </section>
  );
}
