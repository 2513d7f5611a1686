// 'Set label': point a label at a version (production only for who may move it), or remove one.
// The server's refusal is shown in the dialog.
import { useId, useState } from "react";
import { Tag, X } from "lucide-react";
import { toast } from "sonner";
import { PROMPT_MSG, PROTECTED_LABEL, promptLabelSchema, versionLabel } from "@promptly/shared";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { serverFieldErrors } from "@/lib/form-errors";
import { trpc } from "@/lib/trpc";
import { ActionDialog, FormFooter } from "./action-dialog.tsx";
import type { PromptDetail } from "./types.ts";
import { useRefreshPrompt } from "./use-refresh-prompt.ts";
import { VersionSelect } from "./version-select.tsx";

export function SetLabelDialog({ prompt }: { prompt: PromptDetail }) {
  return (
    <ActionDialog label="Set label" icon={Tag} title="Set label" description="A label points at one version; code can fetch the prompt by its label.">
      {(close) => <SetLabelForm prompt={prompt} onDone={close} />}
    </ActionDialog>
  );
}

function labelProblem(name: string, mayProtect: boolean): string | undefined {
  if (name === PROTECTED_LABEL && !mayProtect) return PROMPT_MSG.protectedLabel;
  const parsed = promptLabelSchema.safeParse(name);
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
}

function SetLabelForm({ prompt, onDone }: { prompt: PromptDetail; onDone(): void }) {
  const suggestionsId = useId();
  const mayProtect = prompt.can["label.protected"];
  const refresh = useRefreshPrompt();
  const [name, setName] = useState("");
  const [version, setVersion] = useState(prompt.version.version);
  const [problem, setProblem] = useState<string>();
  const [serverError, setServerError] = useState<string>();
  const suggestions = [...(mayProtect ? [PROTECTED_LABEL] : []), "staging"];

  const set = trpc.promptLabels.set.useMutation({
    async onSuccess() {
      toast.success(PROMPT_MSG.labelSetToast);
      await refresh();
      onDone();
    },
    onError(error) {
      const field = serverFieldErrors(error).label;
      if (field) setProblem(field);
      else setServerError(error.message);
    },
  });
  const remove = trpc.promptLabels.remove.useMutation({
    async onSuccess() {
      toast.success(PROMPT_MSG.labelRemovedToast);
      await refresh();
    },
    onError: (error) => setServerError(error.message),
  });
  const busy = set.isPending || remove.isPending;

  const submit = () => {
    const label = name.trim();
    const found = labelProblem(label, mayProtect);
    setProblem(found);
    setServerError(undefined);
    if (!found) set.mutate({ promptId: prompt.id, label, version });
  };

  return (
    <div className="grid gap-4">
      {prompt.labels.length > 0 && (
        <ul aria-label="Current labels" className="grid gap-1.5">
          {prompt.labels.map((label) => (
            <li key={label.name} className="flex items-center justify-between gap-2">
              <Badge>{`${label.name} → ${versionLabel(label.version)}`}</Badge>
              <Button
                variant="ghost"
                size="sm"
                aria-label={`Remove label ${label.name}`}
                disabled={busy || (label.name === PROTECTED_LABEL && !mayProtect)}
                onClick={() => {
                  setServerError(undefined);
                  remove.mutate({ promptId: prompt.id, label: label.name });
                }}
              >
                <X aria-hidden="true" />
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      <form
        noValidate
        aria-label="Set label"
        className="grid gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <FormField label="Label name" error={problem} description={mayProtect ? "For example production or staging." : "For example staging."}>
          <Input list={suggestionsId} autoComplete="off" placeholder="staging" value={name} disabled={busy} onChange={(event) => setName(event.target.value)} />
        </FormField>
        <datalist id={suggestionsId}>
          {suggestions.map((suggestion) => (
            <option key={suggestion} value={suggestion} />
          ))}
        </datalist>
        <VersionSelect label="Label version" prompt={prompt} value={version} onValueChange={setVersion} />
        <FormFooter serverError={serverError} busy={busy} submitLabel="Save label" submitDisabled={!name.trim()} onCancel={onDone} />
      </form>
    </div>
  );
}
