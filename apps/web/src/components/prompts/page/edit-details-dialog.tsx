// 'Edit details': title, description, tags and visibility, checked with the procedure's own schema.
import { useId, useState } from "react";
import { Pencil } from "lucide-react";
import { toast } from "sonner";
import { PROMPT_MSG, PROMPT_VISIBILITIES, PROMPT_VISIBILITY_LABELS, updatePromptInput, type PromptVisibility } from "@promptly/shared";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { serverFieldErrors } from "@/lib/form-errors";
import { trpc } from "@/lib/trpc";
import { Textarea } from "@/components/ui/textarea";
import { FormFooter } from "@/components/ui/form-footer";
import { ActionDialog } from "./action-dialog.tsx";
import type { PromptDetail } from "./types.ts";
import { useRefreshPrompt } from "./use-refresh-prompt.ts";

export function EditDetailsDialog({ prompt }: { prompt: PromptDetail }) {
  return (
    <ActionDialog label="Edit details" icon={Pencil} title="Edit details" description="These describe the prompt; its versions do not change." scrolls>
      {(close) => <DetailsForm prompt={prompt} onDone={close} />}
    </ActionDialog>
  );
}

type Field = "title" | "description" | "tags" | "visibility";

const tagsOf = (text: string) =>
  text
    .split(",")
    .map((tag) => tag.trim())
    .filter(Boolean);

function DetailsForm({ prompt, onDone }: { prompt: PromptDetail; onDone(): void }) {
  const refresh = useRefreshPrompt();
  const visibilityId = useId();
  const [title, setTitle] = useState(prompt.title);
  const [description, setDescription] = useState(prompt.description);
  const [tags, setTags] = useState(prompt.tags.join(", "));
  const [visibility, setVisibility] = useState<PromptVisibility>(prompt.visibility);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [serverError, setServerError] = useState<string>();

  const update = trpc.prompts.update.useMutation({
    async onSuccess() {
      toast.success(PROMPT_MSG.detailsSavedToast);
      await refresh();
      onDone();
    },
    onError(error) {
      const fields = serverFieldErrors(error);
      if (Object.values(fields).some(Boolean)) setErrors(fields);
      else setServerError(error.message);
    },
  });
  const busy = update.isPending;

  const submit = () => {
    setServerError(undefined);
    const parsed = updatePromptInput.safeParse({ id: prompt.id, title, description, tags: tagsOf(tags), visibility });
    if (!parsed.success) {
      const found: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as Field;
        found[field] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    update.mutate(parsed.data);
  };

  return (
    <form
      noValidate
      aria-label="Edit details"
      className="grid gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <FormField label="Title" error={errors.title}>
        <Input autoComplete="off" value={title} disabled={busy} onChange={(event) => setTitle(event.target.value)} />
      </FormField>
      <FormField label="Description" error={errors.description}>
        <Textarea rows={4} value={description} disabled={busy} onChange={(event) => setDescription(event.target.value)} />
      </FormField>
      <FormField label="Tags" error={errors.tags} description="Separated by commas, e.g. support, email.">
        <Input autoComplete="off" value={tags} disabled={busy} onChange={(event) => setTags(event.target.value)} />
      </FormField>
      <div className="grid gap-2">
        <Label htmlFor={visibilityId}>Visibility</Label>
        <Select value={visibility} disabled={busy} onValueChange={(next) => setVisibility(next as PromptVisibility)}>
          <SelectTrigger id={visibilityId} className="w-full" aria-invalid={errors.visibility ? true : undefined} aria-describedby={errors.visibility ? `${visibilityId}-error` : undefined}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {PROMPT_VISIBILITIES.map((option) => (
              <SelectItem key={option} value={option}>
                {PROMPT_VISIBILITY_LABELS[option]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        {errors.visibility && (
          <p id={`${visibilityId}-error`} role="alert" className="text-sm text-destructive">
            {errors.visibility}
          </p>
        )}
      </div>
      <FormFooter serverError={serverError} busy={busy} submitLabel="Save details" onCancel={onDone} />
    </form>
  );
}
