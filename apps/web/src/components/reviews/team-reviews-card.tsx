// The Teams page's Reviews card: the team's review setting (team admins change it) and its
// open change requests, which anyone who sees the team may open.
import { useId, useState } from "react";
import { GitPullRequestArrow } from "lucide-react";
import { toast } from "sonner";
import { APPROVERS_TEXT, REQUIRED_APPROVALS_MAX, REVIEW_MSG, approversWarning, displayName, requiredApprovalsSentence, requiredPassRateSchema } from "@promptly/shared";
import { LoadFailure } from "@/components/layout/load-failure";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { SkeletonRows } from "@/components/ui/skeleton";
import { trpc } from "@/lib/trpc";
import { ChangeRequestList } from "./change-request-status.tsx";

interface TeamFacts {
  id: string;
  requiredApprovals: number;
  requiredPassRate: number | null;
}

export function TeamReviewsCard({ team, canManage }: { team: TeamFacts; canManage: boolean }) {
  const requests = trpc.changeRequests.list.useQuery({ teamId: team.id, status: "open" });
  return (
    <Card data-testid="team-reviews-card">
      <CardHeader>
        <CardTitle>Reviews</CardTitle>
        <CardDescription>
          {requiredApprovalsSentence(team.requiredApprovals)}{" "}
          {team.requiredPassRate === null
            ? "No pass rate is required."
            : `The proposed version's latest evaluation must pass ${team.requiredPassRate} % of its cases.`}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {team.requiredApprovals > 0 && <Approvers teamId={team.id} />}
        {canManage && (
          <div className="grid min-w-0 gap-4 sm:grid-cols-2">
            <RequiredApprovalsSetting team={team} />
            <RequiredPassRateSetting key={team.requiredPassRate ?? "off"} team={team} />
          </div>
        )}
        <section aria-labelledby={`${team.id}-open-requests`} className="grid gap-2">
          <h3 id={`${team.id}-open-requests`} className="text-sm font-semibold">
            Open change requests
          </h3>
          {requests.isPending ? (
            <SkeletonRows label="Loading change requests" />
          ) : requests.isError ? (
            <LoadFailure title="The change requests could not be loaded" error={requests.error} onRetry={requests.refetch} />
          ) : requests.data.length === 0 ? (
            <div className="flex items-center gap-2 text-sm text-muted-foreground">
              <GitPullRequestArrow aria-hidden="true" className="size-4" />
              <p>No open change requests.</p>
            </div>
          ) : (
            <ChangeRequestList requests={requests.data} showPrompt />
          )}
        </section>
      </CardContent>
    </Card>
  );
}

/** Who can approve the team's requests, and a warning when one admin's own requests would wait for someone outside the team. */
function Approvers({ teamId }: { teamId: string }) {
  const reviewers = trpc.teams.reviewers.useQuery({ id: teamId });
  const named = (people: { id: string; fullName: string | null; email: string | null }[]) => people.map((person) => ({ id: person.id, name: displayName(person.fullName, person.email) }));
  const warning = reviewers.data ? approversWarning(named(reviewers.data.teamAdmins), named(reviewers.data.organizationAdmins)) : null;
  return (
    <div className="grid gap-1 text-sm" data-testid="team-approvers">
      <p>{APPROVERS_TEXT}</p>
      {warning && (
        <p role="note" className="rounded-md border border-amber-500/50 bg-amber-500/10 p-2">
          {warning}
        </p>
      )}
    </div>
  );
}

const OPTIONS = Array.from({ length: REQUIRED_APPROVALS_MAX + 1 }, (_, count) => count);

function useUpdateSettings(options: { onError?(message: string): void } = {}) {
  const utils = trpc.useUtils();
  return trpc.teams.updateSettings.useMutation({
    async onSuccess() {
      toast.success(REVIEW_MSG.settingsSavedToast);
      await Promise.all([utils.teams.list.invalidate(), utils.teams.get.invalidate(), utils.prompts.get.invalidate(), utils.changeRequests.invalidate()]);
    },
    onError: (error) => (options.onError ? options.onError(error.message) : toast.error(error.message)),
  });
}

const approvalsText = (count: number) => (count === 0 ? "None: admins move production directly" : count === 1 ? "1 approval" : `${count} approvals`);

function RequiredApprovalsSetting({ team }: { team: TeamFacts }) {
  const id = useId();
  const update = useUpdateSettings();
  return (
    <div className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-1.5">
      <Label htmlFor={id}>Required approvals for production</Label>
      <Select
        value={String(team.requiredApprovals)}
        disabled={update.isPending}
        onValueChange={(value) => update.mutate({ id: team.id, requiredApprovals: Number(value) })}
      >
        {/* As wide as its longest choice where there is room; cut on a phone, whole on hover. */}
        <SelectTrigger id={id} className="w-full sm:w-auto sm:min-w-72" title={approvalsText(team.requiredApprovals)}>
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {OPTIONS.map((count) => (
            <SelectItem key={count} value={String(count)}>
              {approvalsText(count)}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}

/** The pass rate the proposed version's latest evaluation must reach before production moves: 0-100, or empty for off. */
function RequiredPassRateSetting({ team }: { team: TeamFacts }) {
  const [value, setValue] = useState(team.requiredPassRate === null ? "" : String(team.requiredPassRate));
  const [error, setError] = useState<string>();
  const update = useUpdateSettings({ onError: setError });
  const saved = team.requiredPassRate === null ? "" : String(team.requiredPassRate);
  return (
    <form
      noValidate
      aria-label="Required pass rate"
      className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-1.5"
      onSubmit={(event) => {
        event.preventDefault();
        const parsed = requiredPassRateSchema.safeParse(value.trim() === "" ? null : Number(value));
        if (!parsed.success) return setError(parsed.error.issues[0]!.message);
        setError(undefined);
        update.mutate({ id: team.id, requiredPassRate: parsed.data });
      }}
    >
      <div className="flex min-w-0 items-end gap-2">
        <FormField label="Required pass rate for production (%)" error={error} description="Empty: off." className="min-w-0 flex-1">
          <Input type="number" inputMode="numeric" min={0} max={100} step={1} placeholder="Off" value={value} disabled={update.isPending} onChange={(event) => setValue(event.target.value)} />
        </FormField>
      </div>
      <div>
        <Button type="submit" variant="outline" size="sm" disabled={update.isPending || value.trim() === saved}>
          {update.isPending ? "Saving..." : "Save pass rate"}
        </Button>
      </div>
    </form>
  );
}
