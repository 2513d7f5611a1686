// /prompts/new: a prompt and its version 1, in one of the teams where the person may create prompts.
import { useState, type FormEvent } from "react";
import { Link, getRouteApi, useNavigate } from "@tanstack/react-router";
import { toast } from "sonner";
import type { RouterInputs } from "@promptly/api";
import {
  PROMPT_MSG, can, createPromptInput, promptDescriptionSchema, promptNameSchema, promptTagsSchema, promptTitleSchema, saysNothingWrittenYet,
} from "@promptly/shared";
import { LoadFailure } from "@/components/layout/load-failure";
import { WorkspaceGate } from "@/components/layout/workspace-gate";
import { Button } from "@/components/ui/button";
import { useMe } from "@/hooks/use-me";
import { serverFieldErrors } from "@/lib/form-errors";
import { trpc } from "@/lib/trpc";
import { accessIn, useWorkspace } from "@/lib/workspace";
import { emptyDraft, splitList, versionInput } from "./draft.ts";
import { EditorLoading, EditorNotice, EditorShell } from "./editor-shell.tsx";
import { LintResults } from "./lint-results.tsx";
import { PromptDetailsFields, type PromptDetails } from "./prompt-details-fields.tsx";
import { firstIssue, useRefusal } from "./refusal.ts";
import { SAVE_BLOCKED, SaveBar } from "./save-bar.tsx";
import { UnsavedChangesGuard } from "./unsaved-changes-guard.tsx";
import { VersionFields } from "./version-fields.tsx";
import { useNameCheck } from "./use-name-check.ts";
import { useVersionDraft } from "./use-version-draft.ts";

const newPromptRoute = getRouteApi("/app/prompts/new");

type Team = { id: string; name: string };

/** The fields a refusal can name that have a place on this form; anything else is told by a toast. */
const FORM_FIELDS = ["teamId", "title", "name", "description", "tags", "visibility", "model", "config", "tools", "responseFormat", "commitMessage"];

export function NewPromptEditor() {
  const { teamId: wantedTeamId } = newPromptRoute.useSearch();
  const me = useMe();
  const { activeOrganization, activeTeam, teams, teamsLoading, teamsError, teamsFailure, retryTeams } = useWorkspace();
  const intro = "A prompt starts with its first version; later changes are saved as new versions.";

  if (me.isPending || teamsLoading) {
    return (
      <EditorShell title="New Prompt" intro={intro}>
        <EditorLoading />
      </EditorShell>
    );
  }
  const writable = teams.filter((team) => can(accessIn(me.data, activeOrganization, team), "prompt.write"));
  const firstChoice = [wantedTeamId, activeTeam?.id].find((id) => writable.some((team) => team.id === id)) ?? writable[0]?.id;
  if (!activeOrganization || teamsError) {
    return (
      <EditorShell title="New Prompt" intro={intro}>
        {teamsError ? <LoadFailure title="Your teams could not be loaded" error={teamsFailure} onRetry={retryTeams} /> : <WorkspaceGate>{() => null}</WorkspaceGate>}
      </EditorShell>
    );
  }
  return (
    <EditorShell title="New Prompt" intro={intro}>
      {firstChoice ? (
        <NewPromptForm key={activeOrganization.id} teams={writable} initialTeamId={firstChoice} />
      ) : teams.length === 0 ? (
        <EditorNotice title="No team to put a prompt in">
          A prompt belongs to a team, and you have no team in {activeOrganization.name} yet. Create one on the{" "}
          <Link to="/teams" className="font-medium text-primary underline-offset-4 hover:underline">
            Teams page
          </Link>
          , or ask an administrator to add you to one.
        </EditorNotice>
      ) : (
        <EditorNotice title="You cannot create prompts here">
          Creating a prompt needs the editor or admin role in one of the teams of {activeOrganization.name}. Ask a team
          admin to give you that role, or switch to another organization.
        </EditorNotice>
      )}
    </EditorShell>
  );
}

function NewPromptForm({ teams, initialTeamId }: { teams: Team[]; initialTeamId: string }) {
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const create = trpc.prompts.create.useMutation();
  const version = useVersionDraft(emptyDraft);
  const { draft, setDraft, lintResult, config } = version;
  const [details, setDetails] = useState<PromptDetails>({
    teamId: initialTeamId, title: "", name: "", nameEdited: false, description: "", tags: "", visibility: "team",
  });
  const [startDetails] = useState(details);
  const [attempted, setAttempted] = useState(false);
  const nameCheck = useNameCheck(details.teamId, details.name);
  const refusal = useRefusal({
    ...details,
    // A name refused in one team may be free in another.
    name: `${details.teamId}/${details.name}`,
    nameEdited: "",
    model: draft.model,
    config: draft.config,
    commitMessage: draft.commitMessage,
  });

  // Required fields complain once a save was tried; anything else as soon as it is wrong.
  const live = (schema: Parameters<typeof firstIssue>[0], value: string) => (value || attempted ? firstIssue(schema, value) : undefined);
  const errorOf = (field: string, liveError?: string) => refusal.message(field) ?? liveError;
  const detailErrors = {
    teamId: errorOf("teamId"),
    visibility: errorOf("visibility"),
    title: errorOf("title", live(promptTitleSchema, details.title)),
    name: errorOf("name", live(promptNameSchema, details.name)),
    description: errorOf("description", firstIssue(promptDescriptionSchema, details.description)),
    tags: errorOf("tags", firstIssue(promptTagsSchema, splitList(details.tags))),
  };
  const versionErrors = { model: errorOf("model"), config: errorOf("config") };

  const changed = version.changed || JSON.stringify({ ...details, nameEdited: null }) !== JSON.stringify({ ...startDetails, nameEdited: null });
  // A new form nobody has written a version in yet is not wrong: "The template is empty" waits for
  // a change to the version or a save.
  const untouched = !version.checkedChanged && !attempted;
  const shownLint = untouched ? { ...lintResult, errors: lintResult.errors.filter((error) => !saysNothingWrittenYet(error)) } : lintResult;
  const blockedReason =
    nameCheck === "taken" ? SAVE_BLOCKED.nameTaken : "error" in config ? SAVE_BLOCKED.config : shownLint.errors.length > 0 ? SAVE_BLOCKED.template : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAttempted(true);
    if ("error" in config || lintResult.errors.length > 0) return;
    const input: RouterInputs["prompts"]["create"] = {
      teamId: details.teamId,
      name: details.name,
      title: details.title,
      description: details.description.trim() || undefined,
      tags: splitList(details.tags),
      visibility: details.visibility,
      ...versionInput(draft, config.config),
      type: draft.type,
    };
    if (!refusal.passes(createPromptInput, input, FORM_FIELDS)) return;
    create.mutate(input, {
      onSuccess(created) {
        toast.success(PROMPT_MSG.createdToast);
        void utils.prompts.invalidate();
        void navigate({ to: "/prompts/$promptId", params: { promptId: created.id }, ignoreBlocker: true });
      },
      onError(error) {
        const fields = serverFieldErrors(error);
        if (error.data?.code === "CONFLICT") {
          fields.name = error.message;
          void utils.prompts.nameAvailable.invalidate();
        }
        refusal.refuseFromServer(fields, error.message, FORM_FIELDS);
      },
    });
  };

  return (
    <form noValidate aria-label="New Prompt" className="grid min-w-0 grid-cols-1 gap-6" onSubmit={submit}>
      <UnsavedChangesGuard active={changed && !create.isSuccess} />
      <PromptDetailsFields
        details={details}
        onChange={(change) => setDetails((current) => ({ ...current, ...change }))}
        teams={teams}
        nameCheck={nameCheck}
        errors={detailErrors}
      />
      <VersionFields draft={draft} setDraft={setDraft} configInvalid={"error" in config} errors={versionErrors} />
      <LintResults result={shownLint} />
      <SaveBar
        commitMessage={draft.commitMessage}
        onCommitMessage={(commitMessage) => setDraft((current) => ({ ...current, commitMessage }))}
        commitMessageError={errorOf("commitMessage")}
        commitMessagePlaceholder="Initial version"
        saveLabel="Create prompt"
        savingLabel="Creating..."
        saving={create.isPending}
        blockedReason={blockedReason}
        cancel={
          <Button variant="outline" asChild>
            <Link to="/prompts">Cancel</Link>
          </Button>
        }
      />
    </form>
  );
}
