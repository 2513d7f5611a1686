// A webhook's delivery log, newest first: event, status with the receiver's answer code, attempts,
// the last error and the next attempt; Redeliver sends one again now (the same delivery id).
import { RotateCw } from "lucide-react";
import { toast } from "sonner";
import { LoadFailure } from "@/components/layout/load-failure";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { SkeletonRows } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatDateTime } from "@/lib/dates";
import { trpc } from "@/lib/trpc";
import { DeliveryStatus } from "./delivery-status.tsx";
import type { Webhook } from "./webhook-types.ts";

export function DeliveriesDialog({ teamId, webhook, open, onOpenChange }: { teamId: string; webhook: Webhook; open: boolean; onOpenChange(open: boolean): void }) {
  const utils = trpc.useUtils();
  const deliveries = trpc.webhooks.deliveries.useInfiniteQuery(
    { subscriptionId: webhook.id },
    { enabled: open, getNextPageParam: (page) => page.nextCursor ?? undefined, refetchInterval: open ? 5_000 : false },
  );
  const redeliver = trpc.webhooks.redeliver.useMutation({
    async onSuccess() {
      toast.success("Delivery queued again");
      await Promise.all([utils.webhooks.deliveries.invalidate({ subscriptionId: webhook.id }), utils.webhooks.list.invalidate({ teamId })]);
    },
    onError(error) {
      toast.error("Failed to redeliver", { description: error.message });
    },
  });
  const items = deliveries.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-4xl">
        <DialogHeader>
          <DialogTitle>Deliveries</DialogTitle>
          <DialogDescription className="wrap-anywhere">Events sent to {webhook.url}, newest first.</DialogDescription>
        </DialogHeader>
        {deliveries.isPending ? (
          <SkeletonRows label="Loading deliveries" />
        ) : deliveries.isError ? (
          <LoadFailure title="The deliveries could not be loaded" error={deliveries.error} onRetry={deliveries.refetch} />
        ) : items.length === 0 ? (
          <p className="py-4 text-center text-sm text-muted-foreground">No deliveries yet.</p>
        ) : (
          <div className="max-h-[60vh] overflow-auto">
            <Table aria-label="Deliveries">
              <TableHeader>
                <TableRow>
                  <TableHead>Event</TableHead>
                  <TableHead>Status</TableHead>
                  <TableHead>Attempts</TableHead>
                  <TableHead>Sent</TableHead>
                  <TableHead>Last error</TableHead>
                  <TableHead className="text-right">Actions</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {items.map((delivery) => (
                  <TableRow key={delivery.id} data-testid="delivery-row" data-event={delivery.event}>
                    <TableCell className="font-mono text-xs">{delivery.event}</TableCell>
                    <TableCell>
                      <DeliveryStatus status={delivery.status} statusCode={delivery.statusCode} />
                    </TableCell>
                    <TableCell>{delivery.attempts}</TableCell>
                    <TableCell className="text-xs text-muted-foreground">
                      {formatDateTime(delivery.lastAttemptAt ?? delivery.createdAt)}
                      {delivery.status === "pending" && delivery.nextAttemptAt && <div>Next attempt {formatDateTime(delivery.nextAttemptAt)}</div>}
                    </TableCell>
                    <TableCell className="max-w-56 truncate text-xs" title={delivery.error ?? undefined}>
                      {delivery.error ?? ""}
                    </TableCell>
                    <TableCell className="text-right">
                      <Button
                        variant="ghost"
                        size="sm"
                        aria-label={`Redeliver ${delivery.event} of ${formatDateTime(delivery.createdAt)}`}
                        disabled={redeliver.isPending}
                        onClick={() => redeliver.mutate({ deliveryId: delivery.id })}
                      >
                        <RotateCw aria-hidden="true" />
                        Redeliver
                      </Button>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
            {deliveries.hasNextPage && (
              <div className="flex justify-center pt-2">
                <Button variant="outline" size="sm" disabled={deliveries.isFetchingNextPage} onClick={() => void deliveries.fetchNextPage()}>
                  {deliveries.isFetchingNextPage ? "Loading..." : "Show older deliveries"}
                </Button>
              </div>
            )}
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
