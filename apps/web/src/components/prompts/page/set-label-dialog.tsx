// 'Set label': point a label at a version (production only for who may move it), or remove one; the form
// says what will change ('staging' moves from v3 to v2) before it is saved. A History row opens it on its version.
// When the prompt's team reviews changes to production, naming production turns the form
// into 'Request review': it opens a change request and goes to its page. The server's refusal is shown in the dialog.
import { useId, useState } from "react";
import { useNavigate } from "@tanstack/react-router";
import { Tag, X } from "lucide-react";
import { toast } from "sonner";
import { CHANGE_REQUEST_TEXT_MAX, PROMPT_MSG, PROTECTED_LABEL, REVIEW_MSG, promptLabelSchema, versionLabel } from "@promptly/shared";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { serverFieldErrors } from "@/lib/form-errors";
import { trpc } from "@/lib/trpc";
import { FormFooter } from "@/components/ui/form-footer";
import { ActionDialog } from "./action-dialog.tsx";
import type { PromptDetail } from "./types.ts";
import { useRefreshPrompt } from "./use-refresh-prompt.ts";
import { VersionSelect } from "./version-select.tsx";

/** `version`: the version the form starts on (a History row's); the shown version otherwise. */
export function SetLabelDialog({ prompt, version }: { prompt: PromptDetail; version?: number }) {
  return (
    <ActionDialog
      label={version === undefined ? "Set label" : "Set label..."}
      triggerName={version === undefined ? undefined : `Set label on ${versionLabel(version)}`}
      icon={Tag}
      title={version === undefined ? "Set label" : `Set label on ${versionLabel(version)}`}
      description="A label points at one version; code can fetch the prompt by its label."
    >
      {(close) => <SetLabelForm prompt={prompt} initialVersion={version ?? prompt.version.version} onDone={close} />}
    </ActionDialog>
  );
}

/** What saving the form changes, in one sentence; null while no label is named. */
function labelChange(prompt: PromptDetail, name: string, version: number, requestsReview: boolean): string | null {
  if (!name) return null;
  const current = prompt.labels.find((label) => label.name === name)?.version;
  if (current === version) return `'${name}' already points at ${versionLabel(version)}: nothing changes.`;
  const move = current === undefined ? `'${name}' is new: it will point at ${versionLabel(version)}.` : `'${name}' moves from ${versionLabel(current)} to ${versionLabel(version)}.`;
  const fetched = `Code that fetches '${name}' gets ${versionLabel(version)}.`;
  return requestsReview ? `Once approved, ${move.charAt(0).toLowerCase()}${move.slice(1)} ${fetched}` : `${move} ${fetched}`;
}

function labelProblem(name: string, mayProtect: boolean, reviewed: boolean, isPrivate: boolean): string | undefined {
  // Under review nobody moves production directly, and a private prompt cannot be reviewed: say so before asking.
  if (name === PROTECTED_LABEL && reviewed && isPrivate) return REVIEW_MSG.privatePrompt;
  if (name === PROTECTED_LABEL && !mayProtect && !reviewed) return PROMPT_MSG.protectedLabel;
  const parsed = promptLabelSchema.safeParse(name);
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
}

function SetLabelForm({ prompt, initialVersion, onDone }: { prompt: PromptDetail; initialVersion: number; onDone(): void }) {
  const suggestionsId = useId();
  const mayProtect = prompt.can["label.protected"];
  // The team reviews changes to production: nobody moves it directly, every editor may request it.
  const reviewed = prompt.requiredApprovals > 0;
  const isPrivate = prompt.visibility === "private";
  const refresh = useRefreshPrompt();
  const navigate = useNavigate();
  const [name, setName] = useState("");
  const [version, setVersion] = useState(initialVersion);
  const [message, setMessage] = useState("");
  const [problem, setProblem] = useState<string>();
  const [serverError, setServerError] = useState<string>();
  const suggestions = [...((mayProtect || reviewed) && !(reviewed && isPrivate) ? [PROTECTED_LABEL] : []), "staging"];
  const requestsReview = reviewed && !isPrivate && name.trim() === PROTECTED_LABEL;
  const change = problem ? null : labelChange(prompt, name.trim(), version, requestsReview);

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
  const request = trpc.changeRequests.create.useMutation({
    async onSuccess({ id }) {
      toast.success(REVIEW_MSG.requestedToast);
      onDone();
      await navigate({ to: "/reviews/$changeRequestId", params: { changeRequestId: id } });
    },
    onError: (error) => setServerError(error.message),
  });
  const busy = set.isPending || remove.isPending || request.isPending;

  const submit = () => {
    const label = name.trim();
    const found = labelProblem(label, mayProtect, reviewed, isPrivate);
    setProblem(found);
    setServerError(undefined);
    if (found) return;
    if (requestsReview) request.mutate({ promptId: prompt.id, label: PROTECTED_LABEL, version, message });
    else set.mutate({ promptId: prompt.id, label, version });
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
                disabled={busy || (label.name === PROTECTED_LABEL && (!mayProtect || reviewed))}
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
        <FormField label="Label name" error={problem} description={mayProtect || reviewed ? "For example production or staging." : "For example staging."}>
          <Input list={suggestionsId} autoComplete="off" placeholder="staging" value={name} disabled={busy} onChange={(event) => setName(event.target.value)} />
        </FormField>
        <datalist id={suggestionsId}>
          {suggestions.map((suggestion) => (
            <option key={suggestion} value={suggestion} />
          ))}
        </datalist>
        <VersionSelect label="Label version" prompt={prompt} value={version} onValueChange={setVersion} />
        {change && (
          <p className="text-sm" role="status" data-testid="label-change">
            {change}
          </p>
        )}
        {reviewed && (
          <p className="text-sm text-muted-foreground">
            This team reviews changes to production: naming it opens a change request that team admins approve.
          </p>
        )}
        {requestsReview && (
          <FormField label="Message for the reviewers" description="What changes in production, and why.">
            <Textarea rows={3} maxLength={CHANGE_REQUEST_TEXT_MAX} value={message} disabled={busy} onChange={(event) => setMessage(event.target.value)} />
          </FormField>
        )}
        <FormFooter
          serverError={serverError}
          busy={busy}
          submitLabel={requestsReview ? "Request review" : "Save label"}
          submitDisabled={!name.trim()}
          onCancel={onDone}
        />
      </form>
    </div>
  );
}
