// The API keys card of the selected team, for team admins (apiKey.manage): the team's keys,
// 'Create API key' and Revoke. Programs use a key for the runtime API; people never see one twice.
import { useRef, useState } from "react";
import { getRouteApi } from "@tanstack/react-router";
import { KeyRound, Plus } from "lucide-react";
import { LoadFailure } from "@/components/layout/load-failure";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { SkeletonRows } from "@/components/ui/skeleton";
import { trpc } from "@/lib/trpc";
import type { Team } from "../team-types.ts";
import { ApiKeyTable } from "./api-key-table.tsx";
import type { ApiKey } from "./api-key-types.ts";
import { CreateApiKeyDialog } from "./create-api-key-dialog.tsx";
import { RevokeApiKeyDialog } from "./revoke-api-key-dialog.tsx";

// The Teams page's route by its id (importing the route file would close a cycle: it lazy-loads the page).
const teamsRouteApi = getRouteApi("/app/teams");

export function ApiKeysCard({ team }: { team: Team }) {
  const apiKeys = trpc.apiKeys.list.useQuery({ teamId: team.id });
  // `?newKey` (a prompt's Use in code) opens Create API key at once; closing it drops the parameter.
  const { newKey } = teamsRouteApi.useSearch();
  const navigate = teamsRouteApi.useNavigate();
  const [creating, setCreatingState] = useState(Boolean(newKey));
  const setCreating = (open: boolean) => {
    setCreatingState(open);
    if (!open && newKey) void navigate({ search: {}, replace: true });
  };
  const [revoking, setRevoking] = useState<{ apiKey: ApiKey; open: boolean } | null>(null);
  const createButton = useRef<HTMLButtonElement>(null);

  return (
    <Card data-testid="api-keys-card">
      <CardHeader className="flex-row flex-wrap items-start gap-3">
        <div className="grid min-w-0 flex-1 basis-64 gap-1.5">
          <CardTitle>API keys</CardTitle>
          <CardDescription>Programs use a key to fetch this team's prompts through the runtime API.</CardDescription>
        </div>
        <Button ref={createButton} size="sm" onClick={() => setCreating(true)}>
          <Plus aria-hidden="true" />
          Create API key
        </Button>
      </CardHeader>
      <CardContent>
        {apiKeys.isPending ? (
          <SkeletonRows label="Loading API keys" />
        ) : apiKeys.isError ? (
          <LoadFailure title="The API keys could not be loaded" error={apiKeys.error} onRetry={apiKeys.refetch} />
        ) : apiKeys.data.length === 0 ? (
          <div className="grid justify-items-center gap-1 py-4 text-center text-sm text-muted-foreground">
            <KeyRound aria-hidden="true" className="size-5" />
            <p>No API keys yet. Create one for each program that fetches prompts.</p>
          </div>
        ) : (
          <ApiKeyTable apiKeys={apiKeys.data} onRevoke={(apiKey) => setRevoking({ apiKey, open: true })} />
        )}
      </CardContent>

      <CreateApiKeyDialog teamId={team.id} teamName={team.name} open={creating} onOpenChange={setCreating} />
      {revoking && (
        <RevokeApiKeyDialog
          teamId={team.id}
          apiKey={revoking.apiKey}
          open={revoking.open}
          onOpenChange={(open) => setRevoking({ ...revoking, open })}
          // A revoked key's row loses its Revoke button: focus goes to the card's own control instead.
          onRevoked={() => createButton.current?.focus()}
        />
      )}
    </Card>
  );
}
