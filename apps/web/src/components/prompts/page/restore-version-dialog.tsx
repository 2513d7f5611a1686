// 'Restore as a new version' on a History row: saves an old version's text, model, config and variables
// as the next version, after a confirmation saying which version it becomes and that no label moves.
import { useState } from "react";
import { useNavigate } from "@tanstack/react-router";
import { History } from "lucide-react";
import { toast } from "sonner";
import { PROMPT_MSG, versionLabel } from "@promptly/shared";
import {
  AlertDialog, AlertDialogCancel, AlertDialogContent, AlertDialogDescription, AlertDialogFooter, AlertDialogHeader, AlertDialogTitle, AlertDialogTrigger,
} from "@/components/ui/alert-dialog";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { trpc } from "@/lib/trpc";
import { draftFromVersion, versionInput } from "../editor/draft.ts";
import type { PromptDetail } from "./types.ts";
import { useRefreshPrompt } from "./use-refresh-prompt.ts";

/** What stays where it is: the labels, named, or that there are none. */
function labelsStay(prompt: PromptDetail): string {
  if (prompt.labels.length === 0) return "No label moves.";
  const labels = prompt.labels.map((label) => `'${label.name}' stays on ${versionLabel(label.version)}`).join(", ");
  return `No label moves: ${labels}.`;
}

export function RestoreVersionDialog({ prompt, version }: { prompt: PromptDetail; version: number }) {
  const [open, setOpen] = useState(false);
  const [serverError, setServerError] = useState<string>();
  const refresh = useRefreshPrompt();
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const next = prompt.latestVersion + 1;
  const create = trpc.promptVersions.create.useMutation({
    async onSuccess(saved) {
      toast.success(PROMPT_MSG.versionSavedToast);
      setOpen(false);
      await refresh();
      await navigate({ to: "/prompts/$promptId", params: { promptId: prompt.id }, search: { version: saved.version, tab: "history" } });
    },
    onError: (error) => setServerError(error.message),
  });
  const restore = async () => {
    setServerError(undefined);
    try {
      const { version: saved } = await utils.prompts.get.fetch({ id: prompt.id, version });
      const draft = { ...draftFromVersion(saved), commitMessage: `Restore ${versionLabel(version)}` };
      create.mutate({ promptId: prompt.id, ...versionInput(draft, Object.keys(saved.config).length ? saved.config : undefined) });
    } catch (error) {
      setServerError(error instanceof Error ? error.message : String(error));
    }
  };
  const busy = create.isPending;

  return (
    <AlertDialog
      open={open}
      onOpenChange={(value) => {
        if (busy) return;
        setOpen(value);
        if (!value) setServerError(undefined);
      }}
    >
      <AlertDialogTrigger asChild>
        <Button variant="outline" size="sm" aria-label={`Restore as a new version: ${versionLabel(version)}`}>
          <History aria-hidden="true" />
          Restore as a new version
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{`Restore ${versionLabel(version)} as ${versionLabel(next)}?`}</AlertDialogTitle>
          <AlertDialogDescription>
            {`${versionLabel(version)}'s text, model, config and variables are saved as a new version, ${versionLabel(next)}, which becomes 'latest'. ${labelsStay(prompt)}`}
          </AlertDialogDescription>
        </AlertDialogHeader>
        {serverError && (
          <Alert variant="destructive">
            <AlertDescription>{serverError}</AlertDescription>
          </Alert>
        )}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={busy}>Cancel</AlertDialogCancel>
          <Button disabled={busy} onClick={() => void restore()}>
            {busy ? "Saving..." : `Restore as ${versionLabel(next)}`}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
