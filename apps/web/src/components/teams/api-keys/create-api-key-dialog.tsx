// 'Create API key': name, labels (empty = any label), scopes and expiry, checked by the same
// schema as the server; then the new key, shown this once with Copy and a clear warning. Closing the
// dialog forgets the key: it lives only in this dialog's state, and the server keeps only its hash.
import { useId, useState, type ComponentProps, type ReactNode } from "react";
import { Controller, useForm, type Resolver } from "react-hook-form";
import { Copy, TriangleAlert } from "lucide-react";
import { toast } from "sonner";
import { z } from "zod";
import { createApiKeyInput } from "@promptly/shared";
import { Alert, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { serverFieldErrors } from "@/lib/form-errors";
import { trpc } from "@/lib/trpc";

const EXPIRY_OPTIONS = [
  { value: "30", label: "30 days" },
  { value: "90", label: "90 days" },
  { value: "365", label: "365 days" },
  { value: "never", label: "Never" },
] as const;

interface FormValues {
  name: string;
  /** Comma-separated; empty for a key that may fetch any label. */
  labels: string;
  write: boolean;
  run: boolean;
  delete: boolean;
  ingest: boolean;
  expires: (typeof EXPIRY_OPTIONS)[number]["value"];
}
type KeySettings = z.output<typeof createApiKeyInput>;

const DEFAULTS: FormValues = { name: "", labels: "", write: false, run: false, delete: false, ingest: false, expires: "90" };

/** The procedure's input from what the form holds. */
function toInput(values: FormValues): z.input<typeof createApiKeyInput> {
  const labels = values.labels.split(",").map((label) => label.trim()).filter(Boolean);
  return {
    name: values.name,
    labels: labels.length ? labels : null,
    scopes: [
      "read",
      ...(values.write ? (["write"] as const) : []),
      ...(values.run ? (["run"] as const) : []),
      ...(values.delete ? (["delete"] as const) : []),
      ...(values.ingest ? (["ingest"] as const) : []),
    ],
    expiresInDays: values.expires === "never" ? null : Number(values.expires),
  };
}

/** Which form field shows a message about an input field (the server's or the shared schema's). */
const FIELD_OF_INPUT: Record<string, keyof FormValues> = { name: "name", labels: "labels", scopes: "write", expiresInDays: "expires" };

// The shared schema checks the form, so the browser and the server refuse the same things in the same words.
const resolver: Resolver<FormValues, unknown, KeySettings> = async (values) => {
  const parsed = createApiKeyInput.safeParse(toInput(values));
  if (parsed.success) return { values: parsed.data, errors: {} };
  const errors: Record<string, { type: string; message: string }> = {};
  for (const issue of parsed.error.issues) {
    const field = FIELD_OF_INPUT[String(issue.path[0])];
    if (field && !errors[field]) errors[field] = { type: issue.code, message: issue.message };
  }
  return { values: {}, errors };
};

export function CreateApiKeyDialog({ teamId, teamName, open, onOpenChange }: { teamId: string; teamName: string; open: boolean; onOpenChange(open: boolean): void }) {
  const utils = trpc.useUtils();
  const [created, setCreated] = useState<{ name: string; key: string; publicKey: string } | null>(null);
  const form = useForm<FormValues, unknown, KeySettings>({ resolver, mode: "onSubmit", reValidateMode: "onChange", defaultValues: DEFAULTS });
  const { register, handleSubmit, formState, reset, setError, control, watch } = form;
  const writeId = useId();
  const runId = useId();
  const deleteId = useId();
  const ingestId = useId();

  const create = trpc.apiKeys.create.useMutation({
    // Nothing keeps the answer once the dialog lets it go.
    gcTime: 0,
    onSuccess(result, input) {
      setCreated({ name: input.name, key: result.key, publicKey: result.publicKey });
      // Not awaited: the dialog may close as soon as the key shows, while the list refreshes behind it.
      void utils.apiKeys.list.invalidate({ teamId });
    },
    onError(error) {
      // Once: under the field it is about, otherwise in a toast.
      const fields = serverFieldErrors(error);
      const field = Object.keys(fields).find((name) => FIELD_OF_INPUT[name] && fields[name]);
      if (field) setError(FIELD_OF_INPUT[field]!, { message: fields[field] });
      else toast.error("Failed to create the API key", { description: error.message });
    },
  });
  const busy = create.isPending;

  const close = () => {
    setCreated(null);
    create.reset();
    reset(DEFAULTS);
    onOpenChange(false);
  };

  const copy = async (text: string | undefined) => {
    if (!text) return;
    try {
      await navigator.clipboard.writeText(text);
      toast.success("Copied");
    } catch {
      toast.error("Could not copy", { description: "The browser did not allow access to the clipboard. Select the key and copy it." });
    }
  };

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : !busy && close())}>
      <DialogContent
        // A stray click outside must not throw away a key that cannot be shown again.
        onInteractOutside={(event) => created && event.preventDefault()}
      >
        {created ? (
          <>
            <DialogHeader>
              <DialogTitle>API key created</DialogTitle>
              <DialogDescription className="wrap-anywhere">
                {created.name} can now use the runtime API for {teamName}.
              </DialogDescription>
            </DialogHeader>
            {/* amber-900 on amber-50 is about 9:1. */}
            <Alert className="border-amber-600/50 bg-amber-50 text-amber-900">
              <TriangleAlert aria-hidden="true" />
              <AlertTitle>Copy this key now. You will not see it again.</AlertTitle>
            </Alert>
            <div className="flex items-end gap-2">
              <FormField label="API key" className="min-w-0 flex-1">
                <Input readOnly value={created.key} className="font-mono text-xs" onFocus={(event) => event.currentTarget.select()} />
              </FormField>
              <Button variant="outline" aria-label="Copy API key" autoFocus onClick={() => void copy(created.key)}>
                <Copy aria-hidden="true" />
                Copy
              </Button>
            </div>
            {/* The Langfuse SDKs send the key as their secret key with this as their public key; it stays in the key list. */}
            <div className="flex items-end gap-2">
              <FormField label="Public key (Langfuse SDKs)" className="min-w-0 flex-1">
                <Input readOnly value={created.publicKey} className="font-mono text-xs" onFocus={(event) => event.currentTarget.select()} />
              </FormField>
              <Button variant="outline" aria-label="Copy public key" onClick={() => void copy(created.publicKey)}>
                <Copy aria-hidden="true" />
                Copy
              </Button>
            </div>
            <DialogFooter>
              <Button onClick={close}>Done</Button>
            </DialogFooter>
          </>
        ) : (
          <>
            <DialogHeader>
              <DialogTitle>Create API key</DialogTitle>
              <DialogDescription className="wrap-anywhere">A key lets a program fetch the prompts of {teamName}. It is shown once.</DialogDescription>
            </DialogHeader>
            <form noValidate aria-label="Create API key" className="grid gap-4" onSubmit={handleSubmit((settings) => create.mutate({ teamId, ...settings }))}>
              <FormField label="Name" error={formState.errors.name?.message}>
                <Input autoComplete="off" placeholder="e.g. Checkout service" disabled={busy} {...register("name")} />
              </FormField>
              <FormField
                label="Labels"
                error={formState.errors.labels?.message}
                description="Comma-separated, e.g. production, staging. Leave empty for any label."
              >
                <Input autoComplete="off" placeholder="production" disabled={busy} {...register("labels")} />
              </FormField>
              <fieldset className="grid gap-2">
                <legend className="mb-2 text-sm font-medium">Scopes</legend>
                <div className="flex items-center gap-2">
                  <input type="checkbox" id={`${writeId}-read`} checked disabled className="size-4 accent-primary" />
                  <Label htmlFor={`${writeId}-read`}>Read: fetch and compile prompts (always)</Label>
                </div>
                <ScopeCheckbox id={writeId} disabled={busy} invalid={Boolean(formState.errors.write)} label="Write: create prompts and versions, move labels" {...register("write")}>
                  A key never moves the production label; people do.
                </ScopeCheckbox>
                <ScopeCheckbox id={runId} disabled={busy} label="Run: run prompts on the organization's models" {...register("run")}>
                  Each run calls the provider and costs money; Write does not include it.
                </ScopeCheckbox>
                <ScopeCheckbox id={deleteId} disabled={busy} label="Delete: delete prompts and versions (Langfuse API)" {...register("delete")}>
                  Cannot be undone. Never the version production points to, nor one another prompt includes; Write does not include it.
                </ScopeCheckbox>
                <ScopeCheckbox id={ingestId} disabled={busy} label="Ingest: send production generations and scores" {...register("ingest")}>
                  OpenTelemetry spans and Langfuse SDK traces and scores, into this team only.
                </ScopeCheckbox>
                {formState.errors.write && (
                  <p role="alert" className="text-sm text-destructive">
                    {formState.errors.write.message}
                  </p>
                )}
              </fieldset>
              <Controller
                control={control}
                name="expires"
                render={({ field }) => (
                  <Select value={field.value} onValueChange={field.onChange} disabled={busy}>
                    <FormField label="Expires" error={formState.errors.expires?.message}>
                      <SelectTrigger className="w-full sm:w-48">
                        <SelectValue />
                      </SelectTrigger>
                    </FormField>
                    <SelectContent>
                      {EXPIRY_OPTIONS.map((option) => (
                        <SelectItem key={option.value} value={option.value}>
                          {option.label}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                )}
              />
              <DialogFooter>
                <Button type="button" variant="outline" disabled={busy} onClick={close}>
                  Cancel
                </Button>
                <Button type="submit" disabled={busy || !watch("name")?.trim()} disabledReason={busy ? undefined : "Name the key first"}>
                  {busy ? "Creating..." : "Create key"}
                </Button>
              </DialogFooter>
            </form>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}

/** One scope of a key: its checkbox, what it allows (the label) and what to know (the hint, its description). */
function ScopeCheckbox({
  id, label, invalid, children, ...input
}: { id: string; label: string; invalid?: boolean; children: ReactNode } & Omit<ComponentProps<"input">, "id" | "type" | "children">) {
  return (
    <div className="flex items-start gap-2">
      <input type="checkbox" id={id} aria-describedby={`${id}-hint`} aria-invalid={invalid || undefined} className="mt-0.5 size-4 accent-primary" {...input} />
      <div className="grid gap-1">
        <Label htmlFor={id}>{label}</Label>
        <p id={`${id}-hint`} className="text-sm text-muted-foreground">
          {children}
        </p>
      </div>
    </div>
  );
}
