// Online evaluation on the Production tab: the prompt's assertions run on a share of its kept
// generations, each verdict a score shown with the others. Everyone reading the prompt sees the
// settings and the day's judging spend; a team admin changes them.
import { useEffect, useState } from "react";
import { toast } from "sonner";
import { setOnlineEvaluationInput } from "@promptly/shared";
import { AssertionEditor, assertionIssues, toAssertions, toDraft, type AssertionDraft } from "@/components/evaluations/assertion-editor";
import { formatCost } from "@/components/runs/run-format";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Switch } from "@/components/ui/switch";
import { trpc } from "@/lib/trpc";

export function OnlineEvaluationCard({ promptId, mayEdit }: { promptId: string; mayEdit: boolean }) {
  const utils = trpc.useUtils();
  const current = trpc.production.onlineEvaluation.get.useQuery({ promptId });
  const [enabled, setEnabled] = useState(false);
  const [percent, setPercent] = useState("10");
  const [cap, setCap] = useState("1");
  const [assertions, setAssertions] = useState<AssertionDraft[]>([]);
  const [assertionErrors, setAssertionErrors] = useState<Record<number, string>>({});
  const [error, setError] = useState<string>();

  useEffect(() => {
    if (!current.data) return;
    setEnabled(current.data.enabled);
    setPercent(String(current.data.samplePercent));
    setCap(String(current.data.dailyCapUsd));
    setAssertions(current.data.assertions.map(({ name, assertion }) => ({ ...toDraft(assertion), name })));
  }, [current.data]);

  const save = trpc.production.onlineEvaluation.set.useMutation({
    onSuccess: async () => {
      toast.success("Online evaluation saved");
      await utils.production.onlineEvaluation.get.invalidate({ promptId });
    },
    onError: (failure) => setError(failure.message),
  });

  const submit = () => {
    setError(undefined);
    // An assertion keeps its name (its scores stay one series); a new one is sent without and named by the server.
    const list = toAssertions(assertions).map((assertion, index) => {
      const { name } = assertions[index]!;
      return name === undefined ? { assertion } : { name, assertion };
    });
    const parsed = setOnlineEvaluationInput.safeParse({ promptId, enabled, samplePercent: Number(percent), dailyCapUsd: Number(cap), assertions: list });
    const { byAssertion, others } = assertionIssues(parsed.error?.issues ?? []);
    for (const issue of others) setError(`${issue.path[0] === "samplePercent" ? "Sample" : issue.path[0] === "dailyCapUsd" ? "Daily cap" : "Assertions"}: ${issue.message}`);
    setAssertionErrors(byAssertion);
    if (parsed.success) save.mutate(parsed.data);
  };

  return (
    <Card role="region" aria-labelledby="online-evaluation-heading">
      <CardHeader>
        <CardTitle id="online-evaluation-heading">Online evaluation</CardTitle>
        <CardDescription>
          Runs these assertions on a share of this prompt's generations whose output the team keeps; each verdict is a score, compared with the others
          above. A new assertion's score is named after its kind when saved, and keeps that name. Judged assertions stop for the day once their cost reaches the cap.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {current.data && (
          <p className="text-sm text-muted-foreground" data-testid="online-evaluation-today">
            Today: {current.data.evaluatedToday.toLocaleString("en-US")} generations evaluated, {formatCost(current.data.spentTodayUsd)} spent judging.
          </p>
        )}
        <form
          className="grid gap-4"
          aria-label="Online evaluation settings"
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <fieldset className="grid min-w-0 gap-4" disabled={!mayEdit || save.isPending || !current.data}>
            <div className="flex items-center gap-2">
              <Switch id="online-evaluation-enabled" checked={enabled} onCheckedChange={setEnabled} />
              <Label htmlFor="online-evaluation-enabled">Evaluate production generations</Label>
            </div>
            <div className="grid gap-3 sm:grid-cols-2">
              <FormField label="Sample (% of generations)">
                <Input type="number" min={0} max={100} step="any" value={percent} onChange={(event) => setPercent(event.target.value)} />
              </FormField>
              <FormField label="Daily cap for judging (US$)">
                <Input type="number" min={0} step="any" value={cap} onChange={(event) => setCap(event.target.value)} />
              </FormField>
            </div>
            <AssertionEditor promptId={promptId} assertions={assertions} errors={assertionErrors} disabled={!mayEdit || save.isPending} onChange={setAssertions} />
          </fieldset>
          {error && (
            <p role="alert" className="text-sm text-destructive">
              {error}
            </p>
          )}
          {mayEdit ? (
            <div>
              <Button type="submit" disabled={save.isPending || !current.data}>
                Save online evaluation
              </Button>
            </div>
          ) : (
            <p className="text-sm text-muted-foreground">A team admin changes the online evaluation.</p>
          )}
        </form>
      </CardContent>
    </Card>
  );
}
