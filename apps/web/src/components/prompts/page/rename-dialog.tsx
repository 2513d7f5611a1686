// 'Rename': the prompt's name, unique in its team; whoever fetches it by name needs the new one.
import { useState } from "react";
import { PenLine } from "lucide-react";
import { toast } from "sonner";
import { PROMPT_MSG, renamePromptInput } from "@promptly/shared";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { serverFieldErrors } from "@/lib/form-errors";
import { trpc } from "@/lib/trpc";
import { FormFooter } from "@/components/ui/form-footer";
import { ActionDialog } from "./action-dialog.tsx";
import type { PromptDetail } from "./types.ts";
import { useRefreshPrompt } from "./use-refresh-prompt.ts";

export function RenameDialog({ prompt }: { prompt: PromptDetail }) {
  return (
    <ActionDialog label="Rename" icon={PenLine} title="Rename prompt" description="Code that fetches this prompt by name must use the new name.">
      {(close) => <RenameForm prompt={prompt} onDone={close} />}
    </ActionDialog>
  );
}

function RenameForm({ prompt, onDone }: { prompt: PromptDetail; onDone(): void }) {
  const refresh = useRefreshPrompt();
  const [name, setName] = useState(prompt.name);
  const [error, setError] = useState<string>();
  const rename = trpc.prompts.rename.useMutation({
    async onSuccess() {
      toast.success(PROMPT_MSG.renamedToast);
      await refresh();
      onDone();
    },
    onError: (failure) => setError(serverFieldErrors(failure).name ?? failure.message),
  });
  const busy = rename.isPending;

  const submit = () => {
    const parsed = renamePromptInput.safeParse({ id: prompt.id, name: name.trim() });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    rename.mutate(parsed.data);
  };

  return (
    <form
      noValidate
      aria-label="Rename prompt"
      className="grid gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <FormField label="Name" error={error}>
        <Input autoComplete="off" spellCheck={false} className="font-mono" value={name} disabled={busy} onChange={(event) => setName(event.target.value)} />
      </FormField>
      <FormFooter
        busy={busy}
        submitLabel="Save name" submitDisabled={!name.trim() || name.trim() === prompt.name}
        submitDisabledReason={name.trim() ? "The name is unchanged: type a new one" : "Type the new name first"}
        onCancel={onDone}
      />
    </form>
  );
}
