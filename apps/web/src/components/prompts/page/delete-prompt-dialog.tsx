// 'Delete' (archived prompts only): for good, once the person has typed the prompt's name; it names the
// labels the prompt carries and its recent fetches first.
import { useId, useState } from "react";
import { useNavigate } from "@tanstack/react-router";
import { Trash2 } from "lucide-react";
import { toast } from "sonner";
import { PROMPT_MSG, can } from "@promptly/shared";
import {
  AlertDialog, AlertDialogCancel, AlertDialogContent, AlertDialogDescription, AlertDialogFooter, AlertDialogHeader, AlertDialogTitle, AlertDialogTrigger,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { useMe } from "@/hooks/use-me";
import { trpc } from "@/lib/trpc";
import { usePageAccess } from "@/lib/workspace";
import { PromptImpact } from "./prompt-impact.tsx";
import type { PromptDetail } from "./types.ts";
import { toastFailure } from "./use-refresh-prompt.ts";

export function DeletePromptDialog({ prompt }: { prompt: PromptDetail }) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const inputId = useId();
  const navigate = useNavigate();
  const { data: me } = useMe();
  const pageAccess = usePageAccess(me);
  const utils = trpc.useUtils();
  const remove = trpc.prompts.delete.useMutation({
    async onSuccess() {
      toast.success(PROMPT_MSG.deletedToast);
      setOpen(false);
      await navigate({ to: can(pageAccess, "page.prompts") ? "/prompts" : "/" });
      await Promise.all([utils.prompts.invalidate(), utils.dashboard.invalidate()]);
    },
    onError: toastFailure("Prompt not deleted"),
  });
  const busy = remove.isPending;

  return (
    <AlertDialog
      open={open}
      onOpenChange={(next) => {
        if (busy) return;
        setOpen(next);
        if (!next) setTyped("");
      }}
    >
      <AlertDialogTrigger asChild>
        <Button variant="destructive" size="sm">
          <Trash2 aria-hidden="true" />
          Delete
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle className="break-words">Delete {prompt.title}?</AlertDialogTitle>
          <AlertDialogDescription>
            The prompt, all its versions, labels, bookmarks and ratings, and its production generations and scores are deleted for good. This cannot be undone.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <div className="grid gap-3 text-sm" data-testid="delete-impact">
          <PromptImpact prompt={prompt} />
        </div>
        <div className="grid gap-2">
          <Label htmlFor={inputId} className="block leading-normal break-all">
            Type {prompt.name} to confirm
          </Label>
          <Input id={inputId} autoComplete="off" spellCheck={false} className="font-mono" value={typed} disabled={busy} onChange={(event) => setTyped(event.target.value)} />
        </div>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={busy}>Cancel</AlertDialogCancel>
          <Button variant="destructive" disabled={busy || typed !== prompt.name} disabledReason={busy ? undefined : "Type the prompt's name above to confirm"} onClick={() => remove.mutate({ id: prompt.id })}>
            {busy ? "Deleting..." : "Delete prompt"}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
