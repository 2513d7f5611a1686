// A change request's status as a badge, and a short list of requests linking to their pages (the
// prompt page's panel and the Teams page's Reviews card).
import { Link } from "@tanstack/react-router";
import { CHANGE_REQUEST_STATUS_LABELS, changeRequestTitle, type ChangeRequestStatus } from "@promptly/shared";
import type { RouterOutputs } from "@promptly/api";
import { Badge } from "@/components/ui/badge";
import { formatDate } from "@/lib/dates";
import { authorName } from "@/components/prompts/author";

type ChangeRequestItem = RouterOutputs["changeRequests"]["list"][number];

export function ChangeRequestStatusBadge({ status }: { status: ChangeRequestStatus }) {
  const variant = status === "rejected" ? "destructive" : status === "open" || status === "stale" ? "outline" : "secondary";
  return <Badge variant={variant}>{CHANGE_REQUEST_STATUS_LABELS[status]}</Badge>;
}

/** One line per request: what it proposes (and for which prompt), who asked, when, its approvals. */
export function ChangeRequestList({ requests, showPrompt }: { requests: ChangeRequestItem[]; showPrompt: boolean }) {
  return (
    <ul className="grid gap-2" aria-label="Change requests">
      {requests.map((request) => (
        <li key={request.id} className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1 rounded-md border border-border p-3 text-sm">
          <Link
            to="/reviews/$changeRequestId"
            params={{ changeRequestId: request.id }}
            className="min-w-0 font-medium wrap-anywhere underline underline-offset-4"
          >
            {showPrompt ? `${request.promptTitle}: ${changeRequestTitle(request)}` : changeRequestTitle(request)}
          </Link>
          <ChangeRequestStatusBadge status={request.status} />
          <span className="text-muted-foreground">
            {authorName(request.author)} · {formatDate(request.createdAt)} · {request.approvals} of {request.approvalsNeeded} approvals
          </span>
        </li>
      ))}
    </ul>
  );
}
