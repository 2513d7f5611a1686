// 'Archive' hides the prompt from the lists and freezes it; 'Restore' brings it back.
import { Archive, ArchiveRestore } from "lucide-react";
import { toast } from "sonner";
import { PROMPT_MSG } from "@promptly/shared";
import { Button } from "@/components/ui/button";
import { trpc } from "@/lib/trpc";
import type { PromptDetail } from "./types.ts";
import { toastFailure, useRefreshPrompt } from "./use-refresh-prompt.ts";

export function ArchiveButton({ prompt }: { prompt: PromptDetail }) {
  const refresh = useRefreshPrompt();
  const done = (message: string) => async () => {
    toast.success(message);
    await refresh();
  };
  const archive = trpc.prompts.archive.useMutation({ onSuccess: done(PROMPT_MSG.archivedToast), onError: toastFailure("Prompt not archived") });
  const restore = trpc.prompts.restore.useMutation({ onSuccess: done(PROMPT_MSG.restoredToast), onError: toastFailure("Prompt not restored") });
  const busy = archive.isPending || restore.isPending;

  if (prompt.archivedAt) {
    return (
      <Button variant="outline" size="sm" disabled={busy} onClick={() => restore.mutate({ id: prompt.id })}>
        <ArchiveRestore aria-hidden="true" />
        Restore
      </Button>
    );
  }
  return (
    <Button variant="outline" size="sm" disabled={busy} onClick={() => archive.mutate({ id: prompt.id })}>
      <Archive aria-hidden="true" />
      Archive
    </Button>
  );
}
