// 'Archive' hides the prompt from the lists and freezes it, and code fetching it gets 404: it asks first,
// naming the labels the prompt carries and its fetches of the last two UTC days. A prompt that carries
// 'production' is archived by who may move production; where the team reviews changes to production
// the dialog opens an archive request instead. 'Restore' brings it back.
import { useState } from "react";
import { useNavigate } from "@tanstack/react-router";
import { Archive, ArchiveRestore } from "lucide-react";
import { toast } from "sonner";
import { CHANGE_REQUEST_TEXT_MAX, PROMPT_MSG, PROTECTED_LABEL, REVIEW_MSG } from "@promptly/shared";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Textarea } from "@/components/ui/textarea";
import { trpc } from "@/lib/trpc";
import { PromptImpact } from "./prompt-impact.tsx";
import type { PromptDetail } from "./types.ts";
import { toastFailure, useRefreshPrompt } from "./use-refresh-prompt.ts";

export function ArchiveButton({ prompt }: { prompt: PromptDetail }) {
  const refresh = useRefreshPrompt();
  const restore = trpc.prompts.restore.useMutation({
    async onSuccess() {
      toast.success(PROMPT_MSG.restoredToast);
      await refresh();
    },
    onError: toastFailure("Prompt not restored"),
  });

  if (prompt.archivedAt) {
    return (
      <Button variant="outline" size="sm" disabled={restore.isPending} onClick={() => restore.mutate({ id: prompt.id })}>
        <ArchiveRestore aria-hidden="true" />
        Restore
      </Button>
    );
  }
  return <ArchiveDialog prompt={prompt} />;
}

function ArchiveDialog({ prompt }: { prompt: PromptDetail }) {
  const [open, setOpen] = useState(false);
  const [message, setMessage] = useState("");
  const [serverError, setServerError] = useState<string>();
  const refresh = useRefreshPrompt();
  const navigate = useNavigate();
  const production = prompt.labels.find((label) => label.name === PROTECTED_LABEL);
  const shared = prompt.visibility !== "private";
  const reviewed = !!production && shared && prompt.requiredApprovals > 0;
  const refused = !!production && shared && !reviewed && !prompt.can["label.protected"];

  const archive = trpc.prompts.archive.useMutation({
    async onSuccess() {
      toast.success(PROMPT_MSG.archivedToast);
      setOpen(false);
      await refresh();
    },
    onError: (error) => setServerError(error.message),
  });
  const request = trpc.changeRequests.createArchive.useMutation({
    async onSuccess({ id }) {
      toast.success(REVIEW_MSG.requestedToast);
      setOpen(false);
      await navigate({ to: "/reviews/$changeRequestId", params: { changeRequestId: id } });
    },
    onError: (error) => setServerError(error.message),
  });
  const busy = archive.isPending || request.isPending;

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (busy) return;
        setOpen(next);
        if (!next) setServerError(undefined);
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline" size="sm">
          <Archive aria-hidden="true" />
          Archive
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle className="break-words">{`Archive ${prompt.title}?`}</DialogTitle>
          <DialogDescription>
            It leaves the lists and cannot be changed until it is restored. Code that fetches it, by any label or version, gets 404 meanwhile.
          </DialogDescription>
        </DialogHeader>
        <div className="grid gap-3 text-sm" data-testid="archive-impact">
          <PromptImpact prompt={prompt} />
          {reviewed && <p>This team reviews changes to production: archiving this prompt opens a change request that team admins approve.</p>}
          {refused && (
            <Alert variant="destructive">
              <AlertDescription>{PROMPT_MSG.removeProduction}</AlertDescription>
            </Alert>
          )}
        </div>
        {reviewed && (
          <FormField label="Message for the reviewers" description="Why the prompt can go, and what fetches it now.">
            <Textarea rows={3} maxLength={CHANGE_REQUEST_TEXT_MAX} value={message} disabled={busy} onChange={(event) => setMessage(event.target.value)} />
          </FormField>
        )}
        {serverError && (
          <Alert variant="destructive">
            <AlertDescription>{serverError}</AlertDescription>
          </Alert>
        )}
        <DialogFooter>
          <Button type="button" variant="outline" disabled={busy} onClick={() => setOpen(false)}>
            Cancel
          </Button>
          {reviewed ? (
            <Button disabled={busy} onClick={() => request.mutate({ promptId: prompt.id, message })}>
              {busy ? "Saving..." : "Request review"}
            </Button>
          ) : (
            <Button variant="destructive" disabled={busy || refused} onClick={() => archive.mutate({ id: prompt.id })}>
              {busy ? "Archiving..." : "Archive prompt"}
            </Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
