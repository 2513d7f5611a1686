// The Teams page's Reviews card: the team's review setting (team admins change it) and its
// open change requests, which anyone who sees the team may open.
import { useId } from "react";
import { GitPullRequestArrow } from "lucide-react";
import { toast } from "sonner";
import { REQUIRED_APPROVALS_MAX, REVIEW_MSG, requiredApprovalsSentence } from "@promptly/shared";
import { LoadFailure } from "@/components/layout/load-failure";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { SkeletonRows } from "@/components/ui/skeleton";
import { trpc } from "@/lib/trpc";
import { ChangeRequestList } from "./change-request-status.tsx";

interface TeamFacts {
  id: string;
  requiredApprovals: number;
}

export function TeamReviewsCard({ team, canManage }: { team: TeamFacts; canManage: boolean }) {
  const requests = trpc.changeRequests.list.useQuery({ teamId: team.id, status: "open" });
  return (
    <Card data-testid="team-reviews-card">
      <CardHeader>
        <CardTitle>Reviews</CardTitle>
        <CardDescription>{requiredApprovalsSentence(team.requiredApprovals)}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {canManage && <RequiredApprovalsSetting team={team} />}
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

const OPTIONS = Array.from({ length: REQUIRED_APPROVALS_MAX + 1 }, (_, count) => count);

function RequiredApprovalsSetting({ team }: { team: TeamFacts }) {
  const id = useId();
  const utils = trpc.useUtils();
  const update = trpc.teams.updateSettings.useMutation({
    async onSuccess() {
      toast.success(REVIEW_MSG.settingsSavedToast);
      await Promise.all([utils.teams.list.invalidate(), utils.teams.get.invalidate(), utils.prompts.get.invalidate()]);
    },
    onError: (error) => toast.error(error.message),
  });
  return (
    <div className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-1.5">
      <Label htmlFor={id}>Required approvals for production</Label>
      <Select
        value={String(team.requiredApprovals)}
        disabled={update.isPending}
        onValueChange={(value) => update.mutate({ id: team.id, requiredApprovals: Number(value) })}
      >
        <SelectTrigger id={id} className="w-full sm:w-72">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {OPTIONS.map((count) => (
            <SelectItem key={count} value={String(count)}>
              {count === 0 ? "None: admins move production directly" : count === 1 ? "1 approval" : `${count} approvals`}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}
