// A change request's page (/reviews/$changeRequestId): what it proposes for production (a version, or
// archiving the prompt) and why, the diff it was made on (its base and proposed versions, kept once it
// is closed), the reviews, and what the person may do:
// Approve / Reject with a comment (team admins; shown disabled with the reason to the author), Withdraw
// and, when production moved meanwhile, Refresh (the author). The route's loader has read it.
import { useId, useState } from "react";
import { Link, getRouteApi } from "@tanstack/react-router";
import { Check, GitPullRequestArrow, RefreshCw, Undo2, X } from "lucide-react";
import { toast } from "sonner";
import { CHANGE_REQUEST_TEXT_MAX, REVIEW_MSG, changeRequestTitle, displayName, versionLabel } from "@promptly/shared";
import type { RouterOutputs } from "@promptly/api";
import { LoadFailure } from "@/components/layout/load-failure";
import { VersionDiff } from "@/components/prompts/page/compare-tab";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Skeleton } from "@/components/ui/skeleton";
import { Textarea } from "@/components/ui/textarea";
import { formatDateTime } from "@/lib/dates";
import { authorName } from "@/components/prompts/author";
import { trpc } from "@/lib/trpc";
import { ChangeRequestStatusBadge } from "./change-request-status.tsx";
import { EvidencePanel } from "./evidence-panel.tsx";
import { ProductionEvidence } from "./production-evidence.tsx";

type ChangeRequest = RouterOutputs["changeRequests"]["get"];
type Version = NonNullable<ChangeRequest["proposed"]>;

const routeApi = getRouteApi("/app/reviews/$changeRequestId");

export function ChangeRequestPage() {
  const { changeRequestId } = routeApi.useParams();
  const query = trpc.changeRequests.get.useQuery({ id: changeRequestId });

  if (query.isPending) {
    return (
      <div className="mx-auto grid w-full max-w-5xl gap-4" role="status" aria-label="Loading the change request">
        <Skeleton className="h-9 w-2/3" />
        <Skeleton className="h-24" />
        <Skeleton className="h-64" />
      </div>
    );
  }
  if (query.isError) {
    if (query.error.data?.code === "NOT_FOUND" || query.error.data?.code === "BAD_REQUEST") {
      return (
        <div role="alert" className="mx-auto flex min-h-[50svh] max-w-xl flex-col items-center justify-center gap-4 p-6 text-center">
          <h1 className="text-2xl font-semibold">Change request not found</h1>
          <p className="text-sm text-muted-foreground">It does not exist, or you do not have access to its prompt.</p>
          <Button asChild>
            <Link to="/">Return to Home</Link>
          </Button>
        </div>
      );
    }
    return <LoadFailure heading="h1" title="The change request could not be loaded" error={query.error} onRetry={query.refetch} />;
  }
  return <ChangeRequestView request={query.data} />;
}

/** The left side of a diff when production is not set yet: an empty version of the same type. */
const emptyVersion = (like: Version): Version => ({ ...like, template: like.type === "text" ? "" : null, messages: like.type === "chat" ? [] : null, model: "", config: {}, variables: [] });

function ChangeRequestView({ request }: { request: ChangeRequest }) {
  const awaiting = request.status === "open" || request.status === "stale";
  const current = request.currentVersion === null ? "not set" : versionLabel(request.currentVersion);
  const base = request.baseVersion === null ? "not set" : versionLabel(request.baseVersion);
  return (
    <div className="mx-auto grid w-full max-w-5xl min-w-0 grid-cols-1 gap-6">
      <header className="grid min-w-0 gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <GitPullRequestArrow aria-hidden="true" className="size-5 text-muted-foreground" />
          <h1 className="min-w-0 text-2xl font-semibold tracking-tight wrap-anywhere">
            {changeRequestTitle(request)}
          </h1>
          <ChangeRequestStatusBadge status={request.status} />
        </div>
        <p className="text-sm wrap-anywhere text-muted-foreground">
          <Link to="/prompts/$promptId" params={{ promptId: request.promptId }} className="font-medium text-foreground underline underline-offset-4">
            {request.promptTitle}
          </Link>{" "}
          ({request.promptName}) in {request.teamName} · requested by {authorName(request.author)} on {formatDateTime(request.createdAt)}
        </p>
        <p className="text-sm text-muted-foreground" data-testid="change-request-summary">
          {`Production now: ${current}. Proposed: ${request.proposedVersion === null ? "archive the prompt" : versionLabel(request.proposedVersion)}. Approvals: ${request.approvals} of ${request.approvalsNeeded}.`}
        </p>
      </header>

      {request.message && (
        <Card>
          <CardHeader>
            <CardTitle>Message</CardTitle>
          </CardHeader>
          <CardContent>
            <p className="text-sm whitespace-pre-wrap wrap-anywhere">{request.message}</p>
          </CardContent>
        </Card>
      )}

      {request.status === "stale" && <StaleNotice request={request} />}

      {request.proposed === null ? (
        <section aria-labelledby="change-request-diff" className="grid min-w-0 gap-3">
          <h2 id="change-request-diff" className="text-lg font-semibold">
            What changes
          </h2>
          <p className="text-sm">
            {`Approving archives this prompt. Code that fetches it, by '${request.label}' (${base} when requested) or any other label or version, gets 404 until it is restored.`}
          </p>
        </section>
      ) : (
        <section aria-labelledby="change-request-diff" className="grid min-w-0 gap-3">
          <h2 id="change-request-diff" className="text-lg font-semibold">
            {`Changes from ${base} to ${versionLabel(request.proposed.version)}`}
          </h2>
          {request.base === null && <p className="text-sm text-muted-foreground">Production was not set: everything in the proposed version is new.</p>}
          <VersionDiff before={request.base ?? emptyVersion(request.proposed)} after={request.proposed} />
        </section>
      )}

      {request.proposedVersion !== null && (
        <EvidencePanel changeRequestId={request.id} promptId={request.promptId} proposedVersion={request.proposedVersion} productionVersion={request.currentVersion} />
      )}
      <ProductionEvidence request={request} />

      <Reviews request={request} />
      {awaiting && (
        <p className="text-sm text-muted-foreground" data-testid="change-request-approvers">
          {request.approvers.length > 0
            ? `Who can approve: ${request.approvers.map((person) => displayName(person.fullName, person.email)).join(", ")}, or a super user.`
            : "Who can approve: no team admin or organization admin other than its author, so only a super user can."}
        </p>
      )}
      {awaiting && (request.isReviewer || request.isAuthor) && <ReviewActions request={request} />}
    </div>
  );
}

function useInvalidate() {
  const utils = trpc.useUtils();
  return () => Promise.all([utils.changeRequests.invalidate(), utils.prompts.get.invalidate(), utils.promptVersions.invalidate()]);
}

function StaleNotice({ request }: { request: ChangeRequest }) {
  const invalidate = useInvalidate();
  const refresh = trpc.changeRequests.refresh.useMutation({
    async onSuccess() {
      toast.success(REVIEW_MSG.refreshedToast);
      await invalidate();
    },
    onError: (error) => toast.error(error.message),
  });
  return (
    <Alert data-testid="stale-notice">
      <AlertTitle>Production moved since this request was made</AlertTitle>
      <AlertDescription className="grid gap-2">
        <p>
          {request.can.refresh
            ? "Refresh it to review the change against what production points at now. Approvals given so far are cleared."
            : "Its author has to refresh it before it can be approved."}
        </p>
        {request.can.refresh && (
          <Button size="sm" className="w-fit" disabled={refresh.isPending} onClick={() => refresh.mutate({ id: request.id })}>
            <RefreshCw aria-hidden="true" />
            {refresh.isPending ? "Refreshing..." : "Refresh"}
          </Button>
        )}
      </AlertDescription>
    </Alert>
  );
}

function Reviews({ request }: { request: ChangeRequest }) {
  return (
    <section aria-labelledby="change-request-reviews" className="grid gap-3">
      <h2 id="change-request-reviews" className="text-lg font-semibold">
        Reviews
      </h2>
      {request.reviews.length === 0 ? (
        <p className="text-sm text-muted-foreground">No reviews yet.</p>
      ) : (
        <ul className="grid gap-2" aria-label="Reviews">
          {request.reviews.map((review) => (
            <li key={review.id} className="grid gap-1 rounded-md border border-border p-3">
              <div className="flex flex-wrap items-center gap-2 text-sm">
                <span className="font-medium">{authorName(review.reviewer)}</span>
                <Badge variant={review.decision === "approved" ? "secondary" : "destructive"}>{review.decision === "approved" ? "Approved" : "Rejected"}</Badge>
                <span className="text-muted-foreground">{formatDateTime(review.createdAt)}</span>
              </div>
              {review.comment && <p className="text-sm whitespace-pre-wrap wrap-anywhere">{review.comment}</p>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function ReviewActions({ request }: { request: ChangeRequest }) {
  const invalidate = useInvalidate();
  const reasonId = useId();
  const [comment, setComment] = useState("");
  const [problem, setProblem] = useState<string>();
  const [serverError, setServerError] = useState<string>();
  const done = (message: string) => async () => {
    toast.success(message);
    setComment("");
    await invalidate();
  };
  const approve = trpc.changeRequests.approve.useMutation({
    onSuccess: async (result) =>
      done(result.status !== "approved" ? REVIEW_MSG.approvedToast : request.kind === "archive" ? REVIEW_MSG.archiveMergedToast : REVIEW_MSG.mergedToast)(),
    onError: (error) => setServerError(error.message),
  });
  const reject = trpc.changeRequests.reject.useMutation({ onSuccess: done(REVIEW_MSG.rejectedToast), onError: (error) => setServerError(error.message) });
  const withdraw = trpc.changeRequests.withdraw.useMutation({ onSuccess: done(REVIEW_MSG.withdrawnToast), onError: (error) => setServerError(error.message) });
  const busy = approve.isPending || reject.isPending || withdraw.isPending;

  return (
    <Card data-testid="review-actions">
      <CardHeader>
        <CardTitle>{request.isAuthor ? "Your request" : "Your review"}</CardTitle>
        <CardDescription>
          {`${request.approvalsNeeded === 1 ? "One approval by a team admin other than the author" : `${request.approvalsNeeded} approvals by team admins other than the author`} ${
            request.approvalsNeeded === 1 ? (request.kind === "archive" ? "archives the prompt" : "moves production") : request.kind === "archive" ? "archive the prompt" : "move production"
          }.`}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {(request.can.approve || request.can.reject) && (
          <FormField label="Comment" error={problem} description="Optional for an approval, required for a rejection.">
            <Textarea rows={3} maxLength={CHANGE_REQUEST_TEXT_MAX} value={comment} disabled={busy} onChange={(event) => setComment(event.target.value)} />
          </FormField>
        )}
        {request.approveBlockedReason && (
          <p id={reasonId} className="text-sm whitespace-normal wrap-anywhere text-muted-foreground" data-testid="approve-blocked-reason">
            {request.approveBlockedReason}
          </p>
        )}
        {serverError && (
          <Alert variant="destructive">
            <AlertDescription>{serverError}</AlertDescription>
          </Alert>
        )}
        <div className="flex flex-wrap gap-2">
          <Button
            disabled={busy || !request.can.approve}
            aria-describedby={request.approveBlockedReason ? reasonId : undefined}
            onClick={() => {
              setServerError(undefined);
              approve.mutate({ id: request.id, comment: comment.trim() || undefined });
            }}
          >
            <Check aria-hidden="true" />
            Approve
          </Button>
          <Button
            variant="outline"
            disabled={busy || !request.can.reject}
            aria-describedby={request.isAuthor && request.approveBlockedReason ? reasonId : undefined}
            onClick={() => {
              setServerError(undefined);
              if (!comment.trim()) return setProblem(REVIEW_MSG.rejectCommentRequired);
              setProblem(undefined);
              reject.mutate({ id: request.id, comment: comment.trim() });
            }}
          >
            <X aria-hidden="true" />
            Reject
          </Button>
          {request.can.withdraw && (
            <Button variant="ghost" disabled={busy} onClick={() => withdraw.mutate({ id: request.id })}>
              <Undo2 aria-hidden="true" />
              Withdraw
            </Button>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
