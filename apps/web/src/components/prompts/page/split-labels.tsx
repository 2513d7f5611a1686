// A split release on the prompt page: each label serving two versions by weight ('production: v7 90% ·
// v8 10%'), and for who may move it, its end in one step: 'Promote v8' (the candidate alone) or 'Roll back'
// (the label's version alone). Where the team reviews production, promoting makes a change request instead
// and goes to its page, as a label move does; rolling back stays direct (the version it keeps held production).
// The end names the split shown: one changed meanwhile (another admin split it again) is refused, told, and reloaded.
import { useNavigate } from "@tanstack/react-router";
import { toast } from "sonner";
import { PROTECTED_LABEL, REVIEW_MSG, versionLabel, type SplitOutcome } from "@promptly/shared";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { trpc } from "@/lib/trpc";
import type { PromptDetail } from "./types.ts";
import { toastFailure, useRefreshPrompt } from "./use-refresh-prompt.ts";

type Label = PromptDetail["labels"][number];
type SplitLabel = Label & { split: NonNullable<Label["split"]> };

/** 'production: v7 90% · v8 10%' (also for a split the audit trail names, hence only these fields). */
export const splitText = (label: Pick<SplitLabel, "name" | "version" | "split">) =>
  `${label.name}: ${versionLabel(label.version)} ${100 - label.split.weight}% · ${versionLabel(label.split.version)} ${label.split.weight}%`;

export function SplitLabels({ prompt }: { prompt: PromptDetail }) {
  const splits = prompt.labels.filter((label): label is SplitLabel => label.split !== null);
  if (splits.length === 0) return null;
  return (
    <ul aria-label="Split releases" className="grid gap-2">
      {splits.map((label) => (
        <SplitRow key={label.name} prompt={prompt} label={label} />
      ))}
    </ul>
  );
}

function SplitRow({ prompt, label }: { prompt: PromptDetail; label: SplitLabel }) {
  const refresh = useRefreshPrompt();
  const navigate = useNavigate();
  // Ending a split is a move of its label: production takes team admin level (with or without review), others writing.
  const mayEnd = !prompt.archivedAt && (label.name === PROTECTED_LABEL ? prompt.can["label.protected"] : prompt.can.write);
  const end = trpc.promptLabels.endSplit.useMutation({
    async onSuccess(answer, { outcome }) {
      if (answer.changeRequestId) {
        toast.success(REVIEW_MSG.requestedToast);
        await navigate({ to: "/reviews/$changeRequestId", params: { changeRequestId: answer.changeRequestId } });
        return;
      }
      toast.success(outcome === "promote" ? `'${label.name}' now points at ${versionLabel(label.split.version)}` : `'${label.name}' rolled back to ${versionLabel(label.version)}`);
      await refresh();
    },
    async onError(error) {
      toastFailure("The split was not ended")(error);
      // Refused because the split changed since it was shown: show it as it is now.
      if (error.data?.code === "CONFLICT") await refresh();
    },
  });
  const expected = { version: label.version, split: { version: label.split.version, weight: label.split.weight } };
  const ending = (outcome: SplitOutcome) => () => end.mutate({ promptId: prompt.id, label: label.name, outcome, expected });
  return (
    <li className="flex flex-wrap items-center gap-2" data-testid={`split-${label.name}`}>
      <Badge variant="outline">{splitText(label)}</Badge>
      {mayEnd && (
        <>
          <Button size="sm" variant="outline" disabled={end.isPending} onClick={ending("promote")}>
            {`Promote ${versionLabel(label.split.version)}`}
          </Button>
          <Button size="sm" variant="ghost" disabled={end.isPending} onClick={ending("rollback")}>
            Roll back
          </Button>
        </>
      )}
    </li>
  );
}
