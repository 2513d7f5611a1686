// 'Split production': production keeps its version and serves a candidate to a share of fetches (its
// weight, 1-99%), so the Production tab can compare the two on real traffic. It is a move of production:
// team admins make it directly, and where the team reviews production it opens a change request instead
// and goes to its page, as the other moves do.
import { useState } from "react";
import { useNavigate } from "@tanstack/react-router";
import { Split } from "lucide-react";
import { toast } from "sonner";
import { PROMPT_MSG, PROTECTED_LABEL, REVIEW_MSG, versionLabel } from "@promptly/shared";
import { FormField } from "@/components/ui/form-field";
import { FormFooter } from "@/components/ui/form-footer";
import { Input } from "@/components/ui/input";
import { serverFieldErrors } from "@/lib/form-errors";
import { trpc } from "@/lib/trpc";
import { ActionDialog } from "./action-dialog.tsx";
import type { PromptDetail } from "./types.ts";
import { useRefreshPrompt } from "./use-refresh-prompt.ts";
import { VersionSelect } from "./version-select.tsx";

/** Who sees the action: production is set on one version, another exists, and the person may move production or request it. */
export function maySplitProduction(prompt: PromptDetail): boolean {
  const production = prompt.labels.find((label) => label.name === PROTECTED_LABEL);
  if (!production || production.split || prompt.latestVersion < 2 || prompt.archivedAt) return false;
  return prompt.can.write && (prompt.can["label.protected"] || prompt.requiredApprovals > 0);
}

export function SplitProductionDialog({ prompt }: { prompt: PromptDetail }) {
  return (
    <ActionDialog
      label="Split production"
      icon={Split}
      title="Split production"
      description="Production keeps its version and serves a candidate to a share of fetches, so the Production tab can compare the two."
    >
      {(close) => <SplitProductionForm prompt={prompt} onDone={close} />}
    </ActionDialog>
  );
}

/** The weight as typed: a whole percent from 1 to 99, else null. */
function weightOf(text: string): number | null {
  const weight = Number(text);
  return text.trim() !== "" && Number.isInteger(weight) && weight >= 1 && weight <= 99 ? weight : null;
}

function SplitProductionForm({ prompt, onDone }: { prompt: PromptDetail; onDone(): void }) {
  const current = prompt.labels.find((label) => label.name === PROTECTED_LABEL)!.version;
  const reviewed = prompt.requiredApprovals > 0;
  const refresh = useRefreshPrompt();
  const navigate = useNavigate();
  const [candidate, setCandidate] = useState(prompt.latestVersion !== current ? prompt.latestVersion : prompt.latestVersion - 1);
  const [weightText, setWeightText] = useState("10");
  const [problems, setProblems] = useState<{ version?: string; weight?: string }>({});
  const [serverError, setServerError] = useState<string>();
  const weight = weightOf(weightText);

  const split = trpc.promptLabels.split.useMutation({
    async onSuccess(answer, input) {
      onDone();
      if (answer.changeRequestId) {
        toast.success(REVIEW_MSG.requestedToast);
        await navigate({ to: "/reviews/$changeRequestId", params: { changeRequestId: answer.changeRequestId } });
        return;
      }
      toast.success(`'${PROTECTED_LABEL}' now serves ${versionLabel(input.version)} to ${input.weight}% of fetches`);
      await refresh();
    },
    onError(error) {
      const fields = serverFieldErrors(error);
      if (fields.weight || fields.version) setProblems({ weight: fields.weight, version: fields.version });
      else setServerError(error.message);
    },
  });

  const submit = () => {
    const found = { version: candidate === current ? PROMPT_MSG.splitSameVersion : undefined, weight: weight === null ? PROMPT_MSG.splitWeightRange : undefined };
    setProblems(found);
    setServerError(undefined);
    if (found.version || found.weight || weight === null) return;
    split.mutate({ promptId: prompt.id, label: PROTECTED_LABEL, version: candidate, weight });
  };

  const change =
    weight === null || candidate === current
      ? null
      : `${reviewed ? "Once approved, production" : "Production"} keeps ${versionLabel(current)} for ${100 - weight}% of fetches and serves ${versionLabel(candidate)} to ${weight}%.`;

  return (
    <form
      noValidate
      aria-label="Split production"
      className="grid gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <p className="text-sm">{`Production now serves ${versionLabel(current)}.`}</p>
      <div className="grid gap-1.5">
        <VersionSelect label="Candidate version" prompt={prompt} value={candidate} onValueChange={setCandidate} />
        {problems.version && (
          <p role="alert" className="text-sm text-destructive">
            {problems.version}
          </p>
        )}
      </div>
      <FormField label="Candidate's share of fetches (%)" error={problems.weight} description="A whole percent from 1 to 99.">
        <Input type="number" inputMode="numeric" min={1} max={99} step={1} className="w-28" value={weightText} disabled={split.isPending} onChange={(event) => setWeightText(event.target.value)} />
      </FormField>
      {change && (
        <p className="text-sm" role="status" data-testid="split-change">
          {change}
        </p>
      )}
      {reviewed && <p className="text-sm text-muted-foreground">This team reviews changes to production: this opens a change request that team admins approve.</p>}
      <FormFooter serverError={serverError} busy={split.isPending} submitLabel={reviewed ? "Request review" : "Start split"} onCancel={onDone} />
    </form>
  );
}
