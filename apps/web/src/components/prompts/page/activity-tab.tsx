// The Activity tab: the prompt's versions saved, label moves, reviews requested and decided, and its
// lifecycle, newest first like the audit log, from the audit trail, a page at a time with 'Load more'. A label move offers "Roll back to here": the label
// points back at the version it had before that move, through promptLabels.set (every rule applies);
// production under review opens a change request instead. It first says which move it undoes and where
// the label goes. Shown only to who may do it.
import { useState } from "react";
import { useNavigate } from "@tanstack/react-router";
import { toast } from "sonner";
import { PROMPT_MSG, PROTECTED_LABEL, REVIEW_MSG, versionLabel } from "@promptly/shared";
import type { RouterOutputs } from "@promptly/api";
import {
  AlertDialog, AlertDialogCancel, AlertDialogContent, AlertDialogDescription, AlertDialogFooter, AlertDialogHeader, AlertDialogTitle, AlertDialogTrigger,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { LoadFailure } from "@/components/layout/load-failure";
import { Skeleton } from "@/components/ui/skeleton";
import { actionLabel, actorLabel } from "@/components/audit/audit-csv";
import { ActorName } from "@/components/audit/actor-name";
import { formatDateTime } from "@/lib/dates";
import { trpc } from "@/lib/trpc";
import { splitText } from "./split-labels.tsx";
import type { PromptDetail } from "./types.ts";
import { toastFailure, useRefreshPrompt } from "./use-refresh-prompt.ts";

type Activity = RouterOutputs["auditLog"]["forPrompt"]["items"][number];
/** A label where it pointed; `split`: it also served that version to `weight` percent of fetches. */
type LabelState = { label: string; version: number | null; split?: { version: number; weight: number } };

const labelState = (value: unknown): LabelState | null =>
  value && typeof value === "object" && "label" in value ? (value as LabelState) : null;

/** One line saying what happened. */
function summary(item: Activity): string {
  const before = labelState(item.before);
  const after = labelState(item.after);
  const version = (value: number | null | undefined) => (value == null ? "nowhere" : versionLabel(value));
  switch (item.action) {
    case "prompt.version":
      return `Saved ${versionLabel((item.after as { version: number }).version)}`;
    case "prompt.label.set":
      if (after?.split && after.version !== null) return `Split ${splitText({ name: after.label, version: after.version, split: after.split })}`;
      if (before?.split) return `Ended the split of ${after?.label}: ${version(after?.version)} alone`;
      return `Moved ${after?.label} from ${version(before?.version)} to ${version(after?.version)}`;
    case "prompt.label.rolled_back":
      return `Rolled ${after?.label} back from ${version(before?.version)} to ${version(after?.version)}`;
    case "prompt.label.remove":
      return `Removed ${before?.label} (was on ${version(before?.version)})`;
    case "change_request.create":
    case "change_request.approve":
    case "change_request.reject":
      // The request's name in the audit trail, the server's one wording of it (a split it starts or ends, an
      // archive); only an entry without a name says where it pointed the label.
      return `${actionLabel(item.action)}: ${item.target.name ?? `${after?.label} to ${version(after?.version)}`}`;
    case "prompt.rename":
      return `Renamed to ${(item.after as { name: string }).name}`;
    default:
      return actionLabel(item.action);
  }
}

export function ActivityTab({ prompt }: { prompt: PromptDetail }) {
  const activity = trpc.auditLog.forPrompt.useInfiniteQuery({ promptId: prompt.id }, { getNextPageParam: (page) => page.nextCursor ?? undefined });
  if (activity.isPending) {
    return (
      <div className="grid gap-2" role="status" aria-label="Loading activity">
        <Skeleton className="h-12" />
        <Skeleton className="h-12" />
      </div>
    );
  }
  if (activity.isError) {
    return <LoadFailure title="The activity could not be loaded" error={activity.error} onRetry={() => activity.refetch()} />;
  }
  // auditLog.forPrompt answers newest first, like the audit log.
  const items = activity.data.pages.flatMap((page) => page.items);
  if (items.length === 0) return <p className="text-muted-foreground">No activity recorded yet.</p>;
  return (
    <div className="grid min-w-0 gap-3">
      <ol aria-label="Activity" className="divide-y divide-border rounded-md border border-border">
        {items.map((item) => (
          <li key={item.id} className="flex flex-wrap items-center justify-between gap-2 p-3">
            <div className="min-w-0">
              <p className="font-medium">{summary(item)}</p>
              <p className="text-sm text-muted-foreground">
                <ActorName actor={item.actor} /> · {formatDateTime(item.createdAt)}
              </p>
            </div>
            <RollBack item={item} prompt={prompt} />
          </li>
        ))}
      </ol>
      {activity.hasNextPage && (
        <div>
          <Button variant="outline" disabled={activity.isFetchingNextPage} onClick={() => void activity.fetchNextPage()}>
            {activity.isFetchingNextPage ? "Loading…" : "Load more"}
          </Button>
        </div>
      )}
    </div>
  );
}

/** "Roll back to here" on a label move, when the caller may move that label (or request it, under review). */
function RollBack({ item, prompt }: { item: Activity; prompt: PromptDetail }) {
  const [open, setOpen] = useState(false);
  const refresh = useRefreshPrompt();
  const utils = trpc.useUtils();
  const navigate = useNavigate();
  const set = trpc.promptLabels.set.useMutation({
    async onSuccess() {
      toast.success(PROMPT_MSG.labelSetToast);
      setOpen(false);
      await Promise.all([refresh(), utils.auditLog.forPrompt.invalidate({ promptId: prompt.id })]);
    },
    onError: toastFailure("The label could not be rolled back"),
  });
  const request = trpc.changeRequests.create.useMutation({
    async onSuccess({ id }) {
      toast.success(REVIEW_MSG.requestedToast);
      setOpen(false);
      await navigate({ to: "/reviews/$changeRequestId", params: { changeRequestId: id } });
    },
    onError: toastFailure("The review could not be requested"),
  });
  const before = labelState(item.before);
  if ((item.action !== "prompt.label.set" && item.action !== "prompt.label.remove") || !before || before.version == null) return null;
  if (prompt.archivedAt) return null;
  const target = before.version;
  const current = prompt.labels.find((label) => label.name === before.label)?.version;
  if (current === target) return null;
  const production = before.label === PROTECTED_LABEL;
  const reviewed = production && prompt.requiredApprovals > 0;
  // A private prompt's production moves by no one under review (it cannot be reviewed): no button to offer.
  if (reviewed && prompt.visibility === "private") return null;
  const allowed = reviewed ? prompt.can.write : production ? prompt.can["label.protected"] : prompt.can.write;
  if (!allowed) return null;
  const busy = set.isPending || request.isPending;
  const name = `${before.label} to ${versionLabel(target)}`;
  const after = labelState(item.after);
  const undone =
    item.action === "prompt.label.remove"
      ? `This undoes ${actorLabel(item.actor)}'s removal of '${before.label}' (it was on ${versionLabel(target)}) on ${formatDateTime(item.createdAt)}.`
      : `This undoes ${actorLabel(item.actor)}'s move of '${before.label}' from ${versionLabel(target)} to ${after?.version == null ? "nowhere" : versionLabel(after.version)} on ${formatDateTime(item.createdAt)}.`;
  const where = `'${before.label}' ${current === undefined ? "is set again" : `moves from ${versionLabel(current)} back`} to ${versionLabel(target)}: code that fetches it gets ${versionLabel(target)}.`;
  return (
    <AlertDialog open={open} onOpenChange={(next) => !busy && setOpen(next)}>
      <AlertDialogTrigger asChild>
        <Button variant="outline" size="sm" disabled={busy} aria-label={reviewed ? `Request review: roll back ${name}` : `Roll back to here: ${name}`}>
          {reviewed ? "Request review" : "Roll back to here"}
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{`Roll back ${before.label} to ${versionLabel(target)}?`}</AlertDialogTitle>
          <AlertDialogDescription>
            {`${undone} ${reviewed ? `Once a change request is approved, ${where}` : where}`}
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={busy}>Cancel</AlertDialogCancel>
          <Button
            disabled={busy}
            onClick={() =>
              reviewed
                ? request.mutate({ promptId: prompt.id, label: PROTECTED_LABEL, version: target, message: `Roll back ${name}` })
                : set.mutate({ promptId: prompt.id, label: before.label, version: target })
            }
          >
            {reviewed ? "Request review" : "Roll back"}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
