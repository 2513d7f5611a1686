// The Webhooks card of the selected team, for team admins (webhook.manage): the team's subscriptions
// with their events and last delivery, 'Add webhook', Send test (a ping), Deliveries (the log, with
// Redeliver) and Delete.
import { useRef, useState } from "react";
import { History, Plus, Send, Trash2, Webhook as WebhookIcon } from "lucide-react";
import { toast } from "sonner";
import { LoadFailure } from "@/components/layout/load-failure";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDeleteDialog } from "@/components/ui/confirm-delete-dialog";
import { SkeletonRows } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatDateTime } from "@/lib/dates";
import { trpc } from "@/lib/trpc";
import type { Team } from "../team-types.ts";
import { CreateWebhookDialog } from "./create-webhook-dialog.tsx";
import { DeliveriesDialog } from "./deliveries-dialog.tsx";
import { DeliveryStatus } from "./delivery-status.tsx";
import type { Webhook } from "./webhook-types.ts";

const DELIVERY_POLL_MS = 2_000;

export function WebhooksCard({ team }: { team: Team }) {
  // A delivery is sent in the background after the list was read: while one is on its way the list is
  // read again, so its last delivery shows how it ended (never 'Pending' after the receiver answered).
  const webhooks = trpc.webhooks.list.useQuery(
    { teamId: team.id },
    { refetchInterval: (query) => (query.state.data?.some((webhook) => webhook.lastDelivery?.status === "pending") ? DELIVERY_POLL_MS : false) },
  );
  const [creating, setCreating] = useState(false);
  const [viewing, setViewing] = useState<{ webhook: Webhook; open: boolean } | null>(null);
  const [deleting, setDeleting] = useState<{ webhook: Webhook; open: boolean } | null>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const utils = trpc.useUtils();
  const remove = trpc.webhooks.delete.useMutation({
    async onSuccess() {
      toast.success("Webhook deleted");
      setDeleting((current) => current && { ...current, open: false });
      addButton.current?.focus();
      await utils.webhooks.list.invalidate({ teamId: team.id });
    },
    onError(error) {
      toast.error("Failed to delete the webhook", { description: error.message });
    },
  });

  const ping = trpc.webhooks.test.useMutation({
    async onSuccess() {
      toast.success("Test sent", { description: "It shows in the webhook's deliveries." });
      await utils.webhooks.list.invalidate({ teamId: team.id });
    },
    onError(error) {
      toast.error("Failed to send the test", { description: error.message });
    },
  });

  return (
    <Card data-testid="webhooks-card">
      <CardHeader className="flex-row flex-wrap items-start gap-3">
        <div className="grid min-w-0 flex-1 basis-64 gap-1.5">
          <CardTitle>Webhooks</CardTitle>
          <CardDescription>Promptly sends a signed POST to each URL when the events it asks for happen in this team.</CardDescription>
        </div>
        <Button ref={addButton} size="sm" onClick={() => setCreating(true)}>
          <Plus aria-hidden="true" />
          Add webhook
        </Button>
      </CardHeader>
      <CardContent>
        {webhooks.isPending ? (
          <SkeletonRows label="Loading webhooks" />
        ) : webhooks.isError ? (
          <LoadFailure title="The webhooks could not be loaded" error={webhooks.error} onRetry={webhooks.refetch} />
        ) : webhooks.data.length === 0 ? (
          <div className="grid justify-items-center gap-1 py-4 text-center text-sm text-muted-foreground">
            <WebhookIcon aria-hidden="true" className="size-5" />
            <p>No webhooks yet. Add one to tell another system (or a Slack channel) when prompts change.</p>
          </div>
        ) : (
          <Table aria-label="Webhooks">
            <TableHeader>
              <TableRow>
                <TableHead>URL</TableHead>
                <TableHead>Events</TableHead>
                <TableHead>Last delivery</TableHead>
                <TableHead className="text-right">Actions</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {webhooks.data.map((webhook) => (
                <TableRow key={webhook.id} data-testid="webhook-row" data-url={webhook.url}>
                  <TableCell className="font-medium">
                    <div className="flex items-center gap-2">
                      <span className="max-w-72 truncate font-mono text-xs" title={webhook.url}>
                        {webhook.url}
                      </span>
                      {webhook.slack && <Badge variant="secondary">Slack</Badge>}
                      {!webhook.active && <Badge variant="outline">Off</Badge>}
                    </div>
                  </TableCell>
                  <TableCell className="max-w-80 text-xs">{webhook.events.join(", ")}</TableCell>
                  <TableCell>
                    {webhook.lastDelivery ? (
                      <div className="flex items-center gap-2">
                        <DeliveryStatus status={webhook.lastDelivery.status} statusCode={webhook.lastDelivery.statusCode} />
                        <span className="text-xs text-muted-foreground">{formatDateTime(webhook.lastDelivery.at)}</span>
                      </div>
                    ) : (
                      <span className="text-muted-foreground">None yet</span>
                    )}
                  </TableCell>
                  <TableCell className="text-right">
                    <div className="flex justify-end gap-1">
                      <Button variant="ghost" size="sm" aria-label={`Send a test to ${webhook.url}`} disabled={ping.isPending} onClick={() => ping.mutate({ id: webhook.id })}>
                        <Send aria-hidden="true" />
                        Send test
                      </Button>
                      <Button variant="ghost" size="sm" aria-label={`Deliveries of ${webhook.url}`} onClick={() => setViewing({ webhook, open: true })}>
                        <History aria-hidden="true" />
                        Deliveries
                      </Button>
                      <Button variant="ghost" size="sm" aria-label={`Delete ${webhook.url}`} onClick={() => setDeleting({ webhook, open: true })}>
                        <Trash2 aria-hidden="true" />
                        Delete
                      </Button>
                    </div>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>

      <CreateWebhookDialog teamId={team.id} teamName={team.name} open={creating} onOpenChange={setCreating} />
      {viewing && (
        <DeliveriesDialog teamId={team.id} webhook={viewing.webhook} open={viewing.open} onOpenChange={(open) => setViewing({ ...viewing, open })} />
      )}
      {deleting && (
        <ConfirmDeleteDialog
          open={deleting.open}
          onOpenChange={(open) => setDeleting({ ...deleting, open })}
          title="Delete webhook"
          description={<span className="wrap-anywhere">{deleting.webhook.url} gets no more events, and its delivery log is deleted.</span>}
          confirmLabel="Delete webhook"
          busy={remove.isPending}
          onConfirm={() => remove.mutate({ id: deleting.webhook.id })}
        />
      )}
    </Card>
  );
}
