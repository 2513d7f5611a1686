// The header follows the page: a prompt's page makes the prompt's organization the active one, and its
// team too when the person sees that team in the header's list (a prompt read through its
// organization's visibility leaves the team the person had). Kept light: the route's loader imports it.
import { api } from "@/lib/trpc";
import { ACTIVE_ORGANIZATION_KEY, ACTIVE_TEAM_KEY, chooseWorkspace } from "@/lib/workspace";

export interface PromptPlace {
  organizationId: string;
  teamId: string;
}

/** Makes the prompt's organization (and team, when listed) the active ones; answers whether that changed them. */
export async function followPrompt(place: PromptPlace): Promise<boolean> {
  const once = { retry: false } as const;
  const [organizations, teams] = await Promise.all([
    api.organizations.list.ensureData(undefined, once).catch(() => undefined),
    api.teams.list.ensureData({ organizationId: place.organizationId }, once).catch(() => undefined),
  ]);
  // Not one of the person's organizations (or the list failed): the header cannot go there.
  if (!organizations?.some((organization) => organization.id === place.organizationId)) return false;
  const teamListed = teams?.some((team) => team.id === place.teamId) ?? false;
  const changed =
    localStorage.getItem(ACTIVE_ORGANIZATION_KEY) !== place.organizationId || (teamListed && localStorage.getItem(ACTIVE_TEAM_KEY) !== place.teamId);
  if (changed) chooseWorkspace(place.organizationId, teamListed ? place.teamId : undefined);
  return changed;
}
