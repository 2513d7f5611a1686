// 'Roll back to vN' on a History row whose version held production before: production goes straight back
// to it, whatever the team's reviews, for those who may move production (the server decides the same).
// The dialog names both versions before anything moves.
import { useState } from "react";
import { toast } from "sonner";
import { PROTECTED_LABEL, versionLabel } from "@promptly/shared";
import {
  AlertDialog, AlertDialogCancel, AlertDialogContent, AlertDialogDescription, AlertDialogFooter, AlertDialogHeader, AlertDialogTitle, AlertDialogTrigger,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { trpc } from "@/lib/trpc";
import type { PromptDetail } from "./types.ts";
import { toastFailure, useRefreshPrompt } from "./use-refresh-prompt.ts";

export function RollbackDialog({ prompt, version }: { prompt: PromptDetail; version: number }) {
  const [open, setOpen] = useState(false);
  const refresh = useRefreshPrompt();
  const utils = trpc.useUtils();
  const current = prompt.labels.find((label) => label.name === PROTECTED_LABEL);
  const set = trpc.promptLabels.set.useMutation({
    async onSuccess() {
      toast.success(`Production rolled back to ${versionLabel(version)}`);
      setOpen(false);
      await Promise.all([refresh(), utils.promptLabels.rollbackTargets.invalidate({ promptId: prompt.id }), utils.auditLog.forPrompt.invalidate({ promptId: prompt.id })]);
    },
    onError: toastFailure("Production could not be rolled back"),
  });
  const from = current ? versionLabel(current.version) : "nowhere";
  return (
    <AlertDialog open={open} onOpenChange={(next) => !set.isPending && setOpen(next)}>
      <AlertDialogTrigger asChild>
        <Button variant="outline" size="sm" disabled={set.isPending}>{`Roll back to ${versionLabel(version)}`}</Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{`Roll back production from ${from} to ${versionLabel(version)}?`}</AlertDialogTitle>
          <AlertDialogDescription>
            {`${versionLabel(version)} held production before, so this needs no review: code that fetches production gets ${versionLabel(version)} at once${current?.split ? ", and the split ends" : ""}. The team and its webhooks are told of the rollback.`}
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={set.isPending}>Cancel</AlertDialogCancel>
          <Button disabled={set.isPending} onClick={() => set.mutate({ promptId: prompt.id, label: PROTECTED_LABEL, version })}>
            Roll back
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
