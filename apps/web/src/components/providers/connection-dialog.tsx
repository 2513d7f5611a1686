// Add or edit a provider connection. The form is checked with the procedures' own input schemas;
// what the server still refuses (a taken name, a private address, a team of another organization)
// shows in the form. Editing never shows the key: an empty key field keeps it, unless the base URL
// changes (the key is then entered again).
import { useEffect, useId, useState, type FormEvent } from "react";
import { toast } from "sonner";
import type { z } from "zod";
import { createProviderInput, PROVIDER_KIND_LABELS, PROVIDER_KINDS, PROVIDER_MSG, updateNeedsKey, updateProviderInput, type ProviderKind } from "@promptly/shared";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { FormFooter } from "@/components/ui/form-footer";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { trpc } from "@/lib/trpc";
import { maskedKey, placeServerError, splitList, type ProviderConnection } from "./provider-labels.ts";

type Field = "kind" | "name" | "baseUrl" | "apiKey" | "models" | "teamIds";
type Errors = Partial<Record<Field, string>>;

interface Values {
  kind: ProviderKind;
  name: string;
  baseUrl: string;
  apiKey: string;
  models: string;
  teamIds: string[];
}

const EMPTY: Values = { kind: "openai", name: "", baseUrl: "", apiKey: "", models: "", teamIds: [] };
const valuesOf = (connection: ProviderConnection): Values => ({
  kind: connection.kind,
  name: connection.name,
  baseUrl: connection.baseUrl ?? "",
  apiKey: "",
  models: connection.models.join(", "),
  teamIds: connection.teamIds,
});

/** The first message per field of a failed parse. */
function issuesByField(error: z.ZodError): Errors {
  const errors: Errors = {};
  for (const issue of error.issues) {
    const field = issue.path[0] as Field | undefined;
    if (field && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}

export interface ConnectionDialogProps {
  organizationId: string;
  /** The organization's teams, for the team limit. */
  teams: readonly { id: string; name: string }[];
  /** Open: "new" to add one, a connection to edit it; null: closed. */
  editing: ProviderConnection | "new" | null;
  onOpenChange(open: boolean): void;
}

export function ConnectionDialog({ organizationId, teams, editing, onOpenChange }: ConnectionDialogProps) {
  const utils = trpc.useUtils();
  const ids = useId();
  const connection = editing && editing !== "new" ? editing : null;
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);

  useEffect(() => {
    if (!editing) return;
    setValues(editing === "new" ? EMPTY : valuesOf(editing));
    setErrors({});
    setFormError(null);
  }, [editing]);

  const onSaved = async (saved: ProviderConnection, verb: string) => {
    toast.success(`Connection ${verb}`, { description: `"${saved.name}" has been saved.` });
    await utils.providers.list.invalidate({ organizationId });
    onOpenChange(false);
  };
  const onRefused = (error: { message: string; data?: unknown }) => {
    const placed = placeServerError(error);
    setErrors(placed.fields as Errors);
    setFormError(placed.form);
  };
  const create = trpc.providers.create.useMutation({ onSuccess: (saved) => onSaved(saved, "added"), onError: onRefused });
  const update = trpc.providers.update.useMutation({ onSuccess: (saved) => onSaved(saved, "updated"), onError: onRefused });
  const busy = create.isPending || update.isPending;
  // Whether the typed base URL needs the key again, as the server decides it (one not yet a URL is not the stored one).
  const typedBaseUrl = updateProviderInput.shape.baseUrl.safeParse(values.baseUrl.trim() || null);
  const baseUrlChanged = !!connection && (!typedBaseUrl.success || updateNeedsKey(connection.baseUrl, { baseUrl: typedBaseUrl.data }));

  const set = <K extends keyof Values>(field: K, value: Values[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    // Whether the key is needed again follows the base URL: its message goes when the base URL is edited.
    const keyAgain = field === "baseUrl" && errors.apiKey === PROVIDER_MSG.keyRequiredForBaseUrl ? { apiKey: undefined } : {};
    setErrors((current) => ({ ...current, [field]: undefined, ...keyAgain }));
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const baseUrl = values.baseUrl.trim() || null;
    const models = splitList(values.models);
    if (!connection) {
      const parsed = createProviderInput.safeParse({ organizationId, kind: values.kind, name: values.name, baseUrl, apiKey: values.apiKey, models, teamIds: values.teamIds });
      if (!parsed.success) return setErrors(issuesByField(parsed.error));
      create.mutate(parsed.data);
      return;
    }
    // The kind stays; an OpenAI-compatible connection keeps a base URL (the server says the same).
    if (connection.kind === "openai-compatible" && !baseUrl) return setErrors({ baseUrl: PROVIDER_MSG.baseUrlRequired });
    const parsed = updateProviderInput.safeParse({
      id: connection.id,
      name: values.name,
      baseUrl,
      // Empty: the current key stays (it is never read back to fill the field).
      apiKey: values.apiKey.trim() ? values.apiKey : undefined,
      models,
      teamIds: values.teamIds,
    });
    if (!parsed.success) return setErrors(issuesByField(parsed.error));
    if (updateNeedsKey(connection.baseUrl, parsed.data)) return setErrors({ apiKey: PROVIDER_MSG.keyRequiredForBaseUrl });
    update.mutate(parsed.data);
  }

  const title = connection ? `Edit ${connection.name}` : "Add connection";
  const kindId = `${ids}-kind`;
  return (
    <Dialog open={!!editing} onOpenChange={(open) => !busy && onOpenChange(open)}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto">
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>
            {connection ? "Change the connection's name, address, key, models or teams." : "Connect a model provider for the prompts of this organization."}
          </DialogDescription>
        </DialogHeader>
        <form noValidate className="grid gap-4" aria-label={title} onSubmit={submit}>
          <div className="grid gap-2">
            <Label htmlFor={kindId}>Provider</Label>
            <Select value={values.kind} onValueChange={(kind) => set("kind", kind as ProviderKind)} disabled={busy || !!connection}>
              <SelectTrigger id={kindId} className="w-full" aria-describedby={connection ? `${kindId}-hint` : undefined}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {PROVIDER_KINDS.map((kind) => (
                  <SelectItem key={kind} value={kind}>
                    {PROVIDER_KIND_LABELS[kind]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            {connection && (
              <p id={`${kindId}-hint`} className="text-sm text-muted-foreground">
                A connection keeps its provider; add a new connection for another one.
              </p>
            )}
          </div>
          <FormField label="Name" error={errors.name}>
            <Input autoComplete="off" placeholder="e.g. Production OpenAI" disabled={busy} value={values.name} onChange={(event) => set("name", event.target.value)} />
          </FormField>
          <FormField
            label={values.kind === "openai-compatible" ? "Base URL" : "Base URL (optional)"}
            error={errors.baseUrl}
            description={
              values.kind === "openai-compatible"
                ? "The server's OpenAI-compatible API, e.g. http://localhost:11434/v1."
                : `Leave empty for ${PROVIDER_KIND_LABELS[values.kind]}'s own API.`
            }
          >
            <Input
              type="url"
              inputMode="url"
              autoComplete="off"
              placeholder="https://"
              required={values.kind === "openai-compatible"}
              disabled={busy}
              value={values.baseUrl}
              onChange={(event) => set("baseUrl", event.target.value)}
            />
          </FormField>
          <FormField
            label="API key"
            error={errors.apiKey}
            description={
              !connection
                ? "Stored encrypted; nobody can read it back, the list shows its last four characters."
                : baseUrlChanged
                  ? "The base URL changed: enter the API key again (the current key is not sent to a new address)."
                  : `Leave empty to keep the current key (${maskedKey(connection.apiKeyLast4)}); a new key replaces it.`
            }
          >
            <Input
              type="password"
              autoComplete="new-password"
              spellCheck={false}
              required={!connection || baseUrlChanged}
              disabled={busy}
              value={values.apiKey}
              onChange={(event) => set("apiKey", event.target.value)}
            />
          </FormField>
          <FormField label="Models (optional)" error={errors.models} description="Separated by commas, e.g. gpt-4o-mini, gpt-4.1. Test connection lists what the provider offers.">
            <Input autoComplete="off" spellCheck={false} disabled={busy} value={values.models} onChange={(event) => set("models", event.target.value)} />
          </FormField>
          <TeamLimit teams={teams} selected={values.teamIds} error={errors.teamIds} disabled={busy} onChange={(teamIds) => set("teamIds", teamIds)} />
          <FormFooter serverError={formError} busy={busy} submitLabel={connection ? "Save Changes" : "Add connection"} onCancel={() => onOpenChange(false)} />
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** Which teams may use the connection: none ticked means every team of the organization. */
function TeamLimit({
  teams,
  selected,
  error,
  disabled,
  onChange,
}: {
  teams: readonly { id: string; name: string }[];
  selected: string[];
  error?: string;
  disabled: boolean;
  onChange(teamIds: string[]): void;
}) {
  const ids = useId();
  return (
    <fieldset className="grid min-w-0 gap-2" aria-describedby={`${ids}-hint${error ? ` ${ids}-error` : ""}`}>
      <legend className="mb-2 text-sm font-medium">Teams (optional)</legend>
      <p id={`${ids}-hint`} className="text-sm text-muted-foreground">
        Tick none and every team of the organization may use it.
      </p>
      {teams.length === 0 ? (
        <p className="text-sm text-muted-foreground">This organization has no teams yet.</p>
      ) : (
        <ul className="grid max-h-40 gap-2 overflow-y-auto">
          {teams.map((team) => (
            <li key={team.id} className="flex min-w-0 items-center gap-2">
              <input
                type="checkbox"
                id={`${ids}-${team.id}`}
                className="size-4 shrink-0 accent-primary"
                disabled={disabled}
                checked={selected.includes(team.id)}
                onChange={(event) => onChange(event.target.checked ? [...selected, team.id] : selected.filter((id) => id !== team.id))}
              />
              <Label htmlFor={`${ids}-${team.id}`} className="min-w-0 wrap-anywhere">
                {team.name}
              </Label>
            </li>
          ))}
        </ul>
      )}
      {error && (
        <p id={`${ids}-error`} role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
    </fieldset>
  );
}
