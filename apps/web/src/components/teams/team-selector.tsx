// Placeholder until the teams work lands: shows the active team's name.
import { useWorkspace } from "@/lib/workspace";

export function TeamSelector() {
  const { activeTeam, teamsLoading, activeOrganization } = useWorkspace();
  return <span className="text-sm">{teamsLoading || !activeOrganization ? "Loading teams..." : (activeTeam?.name ?? "No teams")}</span>;
}
