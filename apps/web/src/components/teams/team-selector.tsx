// The team selector of spec 2 in the header: 'Loading teams...' while loading or without an active
// organization, else the active team or 'No teams'. A searchable list in a popover (about 13rem wide,
// at most 300 px high); 'Create New Team' for administrators, organization admins and super users;
// 'Manage Teams' (/teams) for those plus team leads.
import { useState } from "react";
import { useNavigate } from "@tanstack/react-router";
import { Plus, Settings, Users } from "lucide-react";
import { can } from "@promptly/shared";
import { SearchableSwitcher, type SwitcherAction } from "@/components/layout/searchable-switcher";
import { useMe } from "@/hooks/use-me";
import { useWorkspace, accessIn } from "@/lib/workspace";
import { CreateTeamDialog } from "./create-team-dialog.tsx";

export function TeamSelector() {
  const { data: me } = useMe();
  const { teams, teamsLoading, activeOrganization, activeTeam, setActiveTeamId } = useWorkspace();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);

  const access = accessIn(me, activeOrganization);
  const actions: SwitcherAction[] = [];
  if (can(access, "team.create")) {
    actions.push({ value: "create-new-team", label: "Create New Team", icon: Plus, onSelect: () => setCreating(true) });
  }
  if (can(access, "teams.menu")) {
    actions.push({ value: "manage-teams", label: "Manage Teams", icon: Settings, onSelect: () => void navigate({ to: "/teams" }) });
  }
  const loading = teamsLoading || !activeOrganization;

  return (
    <>
      <SearchableSwitcher
        testId="team-selector"
        icon={Users}
        kind="Team"
        label={loading ? "Loading teams..." : (activeTeam?.name ?? "No teams")}
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
