// /providers: the active organization's model provider connections (their keys shown only by the last
// four characters) with add, edit, test and delete, and the price table of its models (built-in and the
// organization's own prices). For organization admins and super users; the route's guard and every
// procedure ask the same permission table.
import { useState } from "react";
import { PROVIDER_KIND_LABELS } from "@promptly/shared";
import { Pencil, PlugZap, Plus, Trash2 } from "lucide-react";
import { LoadFailure } from "@/components/layout/load-failure";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { SkeletonRows } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { trpc } from "@/lib/trpc";
import { useWorkspace } from "@/lib/workspace";
import { ConnectionDialog } from "./connection-dialog.tsx";
import { DeleteConnectionDialog } from "./delete-connection-dialog.tsx";
import { PriceDialog } from "./price-dialog.tsx";
import { maskedKey, type ModelPrice, type ProviderConnection } from "./provider-labels.ts";
import { TestConnectionDialog } from "./test-connection-dialog.tsx";

export function ProvidersPage() {
  const { activeOrganization } = useWorkspace();
  if (!activeOrganization) {
    return (
      <div className="space-y-2">
        <h1 className="text-2xl font-bold tracking-tight">Model providers</h1>
        <p className="text-muted-foreground">You are not in an organization yet.</p>
      </div>
    );
  }
  return <Providers key={activeOrganization.id} organizationId={activeOrganization.id} organizationName={activeOrganization.name} />;
}

function Providers({ organizationId, organizationName }: { organizationId: string; organizationName: string }) {
  return (
    <div className="space-y-6">
      <div className="min-w-0">
        <h1 className="text-2xl font-bold tracking-tight">Model providers</h1>
        <p className="text-sm text-muted-foreground">The model providers {organizationName} runs prompts on, and what their models cost.</p>
      </div>
      <Connections organizationId={organizationId} />
      <Prices organizationId={organizationId} />
    </div>
  );
}

const formatPrice = (value: number) => `$${value.toLocaleString("en-US", { maximumFractionDigits: 4 })}`;

function Connections({ organizationId }: { organizationId: string }) {
  const connections = trpc.providers.list.useQuery({ organizationId });
  const utils = trpc.useUtils();
  const setDefault = trpc.providers.setDefault.useMutation({ onSettled: () => utils.providers.list.invalidate() });
  const { teams } = useWorkspace();
  const [editing, setEditing] = useState<ProviderConnection | "new" | null>(null);
  const [testing, setTesting] = useState<ProviderConnection | null>(null);
  const [deleting, setDeleting] = useState<ProviderConnection | null>(null);
  const teamName = new Map(teams.map((team) => [team.id, team.name]));

  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 flex-1 basis-60 space-y-1.5">
          <CardTitle level={2}>Connections</CardTitle>
          <CardDescription>
            Keys are stored encrypted and never shown again; only their last four characters are. The default is the connection a run uses when it names
            none and its team has no default of its own; without one, only a connection that passed its test is used.
          </CardDescription>
        </div>
        <Button onClick={() => setEditing("new")}>
          <Plus aria-hidden="true" />
          Add connection
        </Button>
      </CardHeader>
      <CardContent>
        {connections.isPending ? (
          <SkeletonRows label="Loading connections" />
        ) : connections.isError ? (
          <LoadFailure title="The connections could not be loaded" error={connections.error} onRetry={connections.refetch} />
        ) : connections.data.length === 0 ? (
          <div className="flex flex-col items-center gap-2 py-8 text-center">
            <PlugZap aria-hidden="true" className="size-10 text-muted-foreground" />
            <p className="font-medium">No connections yet</p>
            <p className="text-sm text-muted-foreground">Add one to run prompts against OpenAI, Anthropic or an OpenAI-compatible server.</p>
          </div>
        ) : (
          <Table aria-label="Connections">
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                <TableHead>Provider</TableHead>
                <TableHead>Base URL</TableHead>
                <TableHead>Key</TableHead>
                <TableHead>Models</TableHead>
                <TableHead>Teams</TableHead>
                <TableHead>Last test</TableHead>
                <TableHead className="text-right">Actions</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {connections.data.map((connection) => (
                <TableRow key={connection.id} data-testid="connection-row">
                  <TableCell className="max-w-56 min-w-32 font-medium whitespace-normal wrap-anywhere">
                    {connection.name}
                    {connection.isDefault && (
                      <Badge variant="secondary" className="ml-2">
                        Default
                      </Badge>
                    )}
                  </TableCell>
                  <TableCell>{PROVIDER_KIND_LABELS[connection.kind]}</TableCell>
                  <TableCell className="max-w-64 min-w-32 whitespace-normal wrap-anywhere text-muted-foreground">{connection.baseUrl ?? "Provider's own"}</TableCell>
                  <TableCell className="font-mono" aria-label={`Key ending in ${connection.apiKeyLast4}`}>
                    {maskedKey(connection.apiKeyLast4)}
                  </TableCell>
                  <TableCell className="max-w-64 min-w-32 whitespace-normal wrap-anywhere">
                    {connection.models.length ? connection.models.join(", ") : <span className="text-muted-foreground">Not listed</span>}
                  </TableCell>
                  <TableCell className="max-w-56 min-w-28 whitespace-normal wrap-anywhere">
                    {connection.teamIds.length ? (
                      connection.teamIds.map((id) => teamName.get(id) ?? "A team you cannot see").join(", ")
                    ) : (
                      <span className="text-muted-foreground">Every team</span>
                    )}
                  </TableCell>
                  <TableCell className="max-w-64 min-w-32 whitespace-normal wrap-anywhere" data-testid="last-test">
                    <LastTest test={connection.lastTest} />
                  </TableCell>
                  <TableCell className="text-right">
                    <div className="flex items-center justify-end gap-1">
                      <Button
                        variant="ghost"
                        size="sm"
                        disabled={setDefault.isPending}
                        aria-label={connection.isDefault ? `Unset default ${connection.name}` : `Make default ${connection.name}`}
                        onClick={() => setDefault.mutate({ organizationId, connectionId: connection.isDefault ? null : connection.id })}
                      >
                        {connection.isDefault ? "Unset default" : "Make default"}
                      </Button>
                      <Button variant="outline" size="sm" aria-label={`Test connection ${connection.name}`} onClick={() => setTesting(connection)}>
                        <PlugZap aria-hidden="true" />
                        Test
                      </Button>
                      <Button variant="ghost" size="icon" aria-label={`Edit ${connection.name}`} onClick={() => setEditing(connection)}>
                        <Pencil aria-hidden="true" />
                      </Button>
                      <Button variant="ghost" size="icon" aria-label={`Delete ${connection.name}`} onClick={() => setDeleting(connection)}>
                        <Trash2 aria-hidden="true" />
                      </Button>
                    </div>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
      <ConnectionDialog organizationId={organizationId} teams={teams} editing={editing} onOpenChange={(open) => !open && setEditing(null)} />
      <TestConnectionDialog connection={testing} onOpenChange={(open) => !open && setTesting(null)} />
      <DeleteConnectionDialog connection={deleting} onOpenChange={(open) => !open && setDeleting(null)} />
    </Card>
  );
}

/** A connection's last "Test connection": whether it worked and when, or that it never ran. */
function LastTest({ test }: { test: ProviderConnection["lastTest"] }) {
  if (!test) return <span className="text-muted-foreground">Never tested</span>;
  const when = new Date(test.at).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" });
  return test.ok ? (
    <span>
      Works <span className="text-muted-foreground">({when})</span>
    </span>
  ) : (
    <span className="text-destructive">
      Failed: {test.error} <span className="text-muted-foreground">({when})</span>
    </span>
  );
}

function Prices({ organizationId }: { organizationId: string }) {
  const prices = trpc.providers.prices.useQuery({ organizationId });
  const [editing, setEditing] = useState<ModelPrice | "new" | null>(null);

  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 flex-1 basis-60 space-y-1.5">
          <CardTitle level={2}>Model prices</CardTitle>
          <CardDescription>US dollars per million tokens. A model in neither list has no known cost.</CardDescription>
        </div>
        <Button variant="outline" onClick={() => setEditing("new")}>
          <Plus aria-hidden="true" />
          Add a model price
        </Button>
      </CardHeader>
      <CardContent>
        {prices.isPending ? (
          <SkeletonRows label="Loading prices" />
        ) : prices.isError ? (
          <LoadFailure title="The prices could not be loaded" error={prices.error} onRetry={prices.refetch} />
        ) : (
          <Table aria-label="Model prices">
            <TableHeader>
              <TableRow>
                <TableHead>Model</TableHead>
                <TableHead className="text-right">Input</TableHead>
                <TableHead className="text-right">Output</TableHead>
                <TableHead>Source</TableHead>
                <TableHead className="text-right">Actions</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {prices.data.map((price) => (
                <TableRow key={price.model} data-testid="price-row">
                  <TableCell className="max-w-64 min-w-48 font-mono whitespace-normal wrap-anywhere">{price.model}</TableCell>
                  <TableCell className="text-right tabular-nums">{formatPrice(price.inputPerMillion)}</TableCell>
                  <TableCell className="text-right tabular-nums">{formatPrice(price.outputPerMillion)}</TableCell>
                  <TableCell>
                    <Badge variant={price.source === "organization" ? "default" : "secondary"}>{price.source === "organization" ? "This organization" : "Built-in"}</Badge>
                  </TableCell>
                  <TableCell className="text-right">
                    <Button variant="ghost" size="sm" aria-label={`Edit price of ${price.model}`} onClick={() => setEditing(price)}>
                      <Pencil aria-hidden="true" />
                      Edit
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
      <PriceDialog organizationId={organizationId} editing={editing} onOpenChange={(open) => !open && setEditing(null)} />
    </Card>
  );
}
