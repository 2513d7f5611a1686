// /prompts/$promptId/new-version: the next version of a prompt, starting from its latest one. The
// prompt's own fields (team, name, title, visibility) are shown, not edited, here.
import { useState, type FormEvent } from "react";
import { Link, getRouteApi, useNavigate } from "@tanstack/react-router";
import { toast } from "sonner";
import type { RouterInputs, RouterOutputs } from "@promptly/api";
import { LATEST_LABEL, PROMPT_MSG, PROMPT_VISIBILITY_LABELS, createVersionInput, versionLabel } from "@promptly/shared";
import { LoadFailure } from "@/components/layout/load-failure";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { serverFieldErrors } from "@/lib/form-errors";
import { trpc } from "@/lib/trpc";
import { draftFromVersion, versionInput } from "./draft.ts";
import { EditorSection } from "./editor-section.tsx";
import { EditorLoading, EditorNotice, EditorShell } from "./editor-shell.tsx";
import { LintResults } from "./lint-results.tsx";
import { draftFromPlayground, dropPlaygroundDraft, readPlaygroundDraft, type PlaygroundDraft } from "./playground-draft.ts";
import { useRefusal } from "./refusal.ts";
import { SAVE_BLOCKED, SaveBar } from "./save-bar.tsx";
import { UnsavedChangesGuard } from "./unsaved-changes-guard.tsx";
import { VersionFields } from "./version-fields.tsx";
import { useVersionDraft } from "./use-version-draft.ts";

type Prompt = RouterOutputs["prompts"]["get"];

const FORM_FIELDS = ["model", "config", "tools", "responseFormat", "commitMessage"];

const newVersionRoute = getRouteApi("/app/prompts/$promptId/new-version");

export function NewVersionEditor({ promptId }: { promptId: string }) {
  const prompt = trpc.prompts.get.useQuery({ id: promptId, label: LATEST_LABEL });
  const { draft: draftKey } = newVersionRoute.useSearch();
  const [playground] = useState(() => readPlaygroundDraft(draftKey));
  if (prompt.isPending) {
    return (
      <EditorShell title="New version" intro="Loading the latest version...">
        <EditorLoading />
      </EditorShell>
    );
  }
  if (prompt.isError) {
    return (
      <EditorShell title="New version" intro="This prompt cannot be opened.">
        {prompt.error.data?.code === "NOT_FOUND" ? (
          <EditorNotice title="Prompt not available">{prompt.error.message}</EditorNotice>
        ) : (
          <LoadFailure title="The prompt could not be loaded" error={prompt.error} onRetry={prompt.refetch} />
        )}
      </EditorShell>
    );
  }
  const { data } = prompt;
  const reason = data.archivedAt ? PROMPT_MSG.archived : !data.can.write ? "Saving a version of this prompt needs the editor or admin role in its team." : null;
  return (
    <EditorShell
      title={`New version of ${data.title}`}
      intro={
        playground
          ? `Starts from the playground's draft of ${versionLabel(playground.fromVersion)}, with its model and parameters. Saved versions never change.`
          : `Starts from ${versionLabel(data.version.version)}, the latest version. Saved versions never change.`
      }
    >
      {reason ? (
        <EditorNotice title="You cannot save a version of this prompt">
          {reason}{" "}
          <Link to="/prompts/$promptId" params={{ promptId }} className="underline underline-offset-4">
            Back to the prompt
          </Link>
        </EditorNotice>
      ) : (
        <NewVersionForm key={data.id} prompt={data} playground={playground} onSaved={() => dropPlaygroundDraft(draftKey)} />
      )}
    </EditorShell>
  );
}

function NewVersionForm({ prompt, playground, onSaved }: { prompt: Prompt; playground: PlaygroundDraft | null; onSaved(): void }) {
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const save = trpc.promptVersions.create.useMutation();
  const version = useVersionDraft(() => (playground ? draftFromPlayground(prompt.version, playground) : draftFromVersion(prompt.version)));
  const { draft, setDraft, lintResult, config } = version;
  const refusal = useRefusal({ model: draft.model, config: draft.config, commitMessage: draft.commitMessage });
  const blockedReason = "error" in config ? SAVE_BLOCKED.config : lintResult.errors.length > 0 ? SAVE_BLOCKED.template : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if ("error" in config) return;
    const input: RouterInputs["promptVersions"]["create"] = { promptId: prompt.id, ...versionInput(draft, config.config) };
    if (!refusal.passes(createVersionInput, input, FORM_FIELDS)) return;
    save.mutate(input, {
      onSuccess() {
        toast.success(PROMPT_MSG.versionSavedToast);
        onSaved();
        void utils.prompts.invalidate();
        void utils.promptVersions.invalidate();
        void navigate({ to: "/prompts/$promptId", params: { promptId: prompt.id }, ignoreBlocker: true });
      },
      onError(error) {
        refusal.refuseFromServer(serverFieldErrors(error), error.message, FORM_FIELDS);
      },
    });
  };

  return (
    <form noValidate aria-label="New version" className="grid min-w-0 grid-cols-1 gap-6" onSubmit={submit}>
      {/* A playground draft is unsaved from the start. */}
      <UnsavedChangesGuard active={(version.changed || playground !== null) && !save.isSuccess} />
      <PromptSummary prompt={prompt} />
      <VersionFields
        draft={draft}
        setDraft={setDraft}
        configInvalid={"error" in config}
        errors={{ model: refusal.message("model"), config: refusal.message("config") }}
      />
      <LintResults result={lintResult} />
      <SaveBar
        commitMessage={draft.commitMessage}
        onCommitMessage={(commitMessage) => setDraft((current) => ({ ...current, commitMessage }))}
        commitMessageError={refusal.message("commitMessage")}
        commitMessagePlaceholder="What changed?"
        saveLabel="Save version"
        savingLabel="Saving..."
        saving={save.isPending}
        blockedReason={blockedReason}
        cancel={
          <Button variant="outline" asChild>
            <Link to="/prompts/$promptId" params={{ promptId: prompt.id }}>
              Cancel
            </Link>
          </Button>
        }
      />
    </form>
  );
}

/** The prompt's own fields, read-only: they change on the prompt's page, not with a version. */
function PromptSummary({ prompt }: { prompt: Prompt }) {
  const fields = [
    ["Team", prompt.teamName],
    ["Name", prompt.name],
    ["Title", prompt.title],
    ["Visibility", PROMPT_VISIBILITY_LABELS[prompt.visibility]],
  ] as const;
  return (
    <EditorSection title="Details" description="These belong to the prompt, not to a version.">
      <div className="grid gap-4 md:grid-cols-2">
        {fields.map(([label, value]) => (
          <FormField key={label} label={label}>
            <Input value={value} readOnly aria-readonly="true" className="bg-muted text-muted-foreground" />
          </FormField>
        ))}
      </div>
    </EditorSection>
  );
}
