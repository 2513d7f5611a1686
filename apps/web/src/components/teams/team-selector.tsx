// The team selector in the header: 'Loading teams...' while loading, 'No organization' without
// one, 'Teams unavailable' (with Try again) when the list (or the organization list) failed, else the active team or 'No teams'. A searchable list in a popover (about 13rem wide,
// at most 300 px high); 'Create New Team' for administrators, organization admins and super users;
// 'Manage Teams' (/teams) for those plus team leads.
import { useState } from "react";
import { useNavigate } from "@tanstack/react-router";
import { Plus, RefreshCw, Settings, Users } from "lucide-react";
import { can } from "@promptly/shared";
import { SearchableSwitcher, type SwitcherAction } from "@/components/layout/searchable-switcher";
import { useMe } from "@/hooks/use-me";
import { usePageAccess, useWorkspace } from "@/lib/workspace";
import { CreateTeamDialog } from "./create-team-dialog.tsx";

export function TeamSelector() {
  const { data: me } = useMe();
  const { teams, teamsLoading, teamsError, retryTeams, organizationsError, retryOrganizations, activeOrganization, activeTeam, setActiveTeamId } = useWorkspace();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);

  const access = usePageAccess(me);
  const actions: SwitcherAction[] = [];
  if (can(access, "team.create")) {
    actions.push({ value: "create-new-team", label: "Create New Team", icon: Plus, onSelect: () => setCreating(true) });
  }
  if (can(access, "teams.menu")) {
    actions.push({ value: "manage-teams", label: "Manage Teams", icon: Settings, onSelect: () => void navigate({ to: "/teams" }) });
  }
  if (teamsError || organizationsError) {
    // Without the organization list the teams cannot be asked for: trying again starts from the organizations.
    const retry = organizationsError ? retryOrganizations : retryTeams;
    actions.unshift({ value: "retry-teams", label: "Try loading teams again", icon: RefreshCw, onSelect: () => void retry() });
  }
  // 'Loading teams...' only while teams load: once the organizations are known and there is none, saying
  // so is the truth, and a failed list (of teams or of organizations) is not "No teams".
  const label =
    teamsLoading ? "Loading teams..." : teamsError || organizationsError ? "Teams unavailable" : !activeOrganization ? "No organization" : (activeTeam?.name ?? "No teams");

  return (
    <>
      <SearchableSwitcher
        testId="team-selector"
        icon={Users}
        kind="Team"
        label={label}
        searchPlaceholder="Search teams..."
        emptyText="No team found."
        heading="Teams"
        items={teams.map((team) => ({ id: team.id, name: team.name, keywords: [team.name] }))}
        activeId={activeTeam?.id ?? null}
        onSelectItem={setActiveTeamId}
        actions={actions}
        contentClassName="w-52"
        listClassName="max-h-[300px]"
      />
      <CreateTeamDialog open={creating} onOpenChange={setCreating} />
    </>
  );
}
