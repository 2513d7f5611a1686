// The prompt page's panel of open change requests: shown when there are any, or when the
// list could not be loaded (said honestly, with Try again).
import { GitPullRequestArrow } from "lucide-react";
import { LoadFailure } from "@/components/layout/load-failure";
import { trpc } from "@/lib/trpc";
import { ChangeRequestList } from "./change-request-status.tsx";

export function PromptChangeRequests({ promptId }: { promptId: string }) {
  const requests = trpc.changeRequests.list.useQuery({ promptId, status: "open" });
  if (requests.isPending) return null;
  if (requests.isError) return <LoadFailure title="The open change requests could not be loaded" error={requests.error} onRetry={requests.refetch} />;
  if (requests.data.length === 0) return null;
  return (
    <section aria-labelledby="open-change-requests" className="grid gap-2 rounded-lg border border-border bg-muted/40 p-3" data-testid="open-change-requests">
      <h2 id="open-change-requests" className="flex items-center gap-2 text-sm font-semibold">
        <GitPullRequestArrow aria-hidden="true" className="size-4" />
        {requests.data.length === 1 ? "1 open change request" : `${requests.data.length} open change requests`}
      </h2>
      <ChangeRequestList requests={requests.data} showPrompt={false} />
    </section>
  );
}
