// When the header is on another organization or team than the prompt open below it (the person switched
// while on the page, or opened it before the header could follow), the page says so plainly and offers
// the one click that puts the header on the prompt's place.
import { useState } from "react";
import { MapPin } from "lucide-react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { useWorkspace } from "@/lib/workspace";
import { followPrompt } from "./follow-prompt.ts";
import type { PromptDetail } from "./types.ts";

export function PromptPlaceNotice({ prompt }: { prompt: PromptDetail }) {
  const { organizations, organizationsLoading, activeOrganization, teams, teamsLoading, activeTeam } = useWorkspace();
  const [switching, setSwitching] = useState(false);
  if (organizationsLoading || teamsLoading || !activeOrganization) return null;
  const organization = organizations.find((entry) => entry.id === prompt.organizationId);
  // Not one of the person's organizations: nothing to switch to, and nothing the header could show.
  if (!organization) return null;
  const otherOrganization = activeOrganization.id !== organization.id;
  // In the same organization, only a team the header lists can be switched to.
  const otherTeam = !otherOrganization && teams.some((team) => team.id === prompt.teamId) && activeTeam?.id !== prompt.teamId;
  if (!otherOrganization && !otherTeam) return null;

  const here = otherOrganization ? activeOrganization.name : (activeTeam?.name ?? "no team");
  const there = otherOrganization ? `${prompt.teamName} in ${organization.name}` : prompt.teamName;
  return (
    <Alert role="status" data-testid="prompt-place-notice">
      <MapPin aria-hidden="true" />
      <AlertTitle className="line-clamp-none">This prompt belongs to {there}.</AlertTitle>
      <AlertDescription>
        <p>The header is on {here}.</p>
        <Button
          size="sm"
          variant="outline"
          disabled={switching}
          onClick={() => {
            setSwitching(true);
            void followPrompt(prompt).finally(() => setSwitching(false));
          }}
        >
          Switch to {otherOrganization ? organization.name : prompt.teamName}
        </Button>
      </AlertDescription>
    </Alert>
  );
}
