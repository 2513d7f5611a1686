// The prompt page (/prompts/$promptId): where it belongs when the header is elsewhere, header, version
// picker, the actions the server allows, and the tabs. The route's loader has read the prompt
// into the query cache with the same input.
import { PromptChangeRequests } from "@/components/reviews/prompt-change-requests";
import { trpc } from "@/lib/trpc";
import { PromptActions } from "./page/prompt-actions.tsx";
import { PromptHeader } from "./page/prompt-header.tsx";
import { SplitLabels } from "./page/split-labels.tsx";
import { PromptPageSkeleton } from "./page/prompt-page-skeleton.tsx";
import { PromptPlaceNotice } from "./page/prompt-place-notice.tsx";
import { PromptTabs } from "./page/prompt-tabs.tsx";
import { PromptUnavailable } from "./page/prompt-unavailable.tsx";
import { usePromptId, usePromptSearch } from "./page/route-api.ts";
import { VersionSelect } from "./page/version-select.tsx";

export function PromptPage() {
  const promptId = usePromptId();
  const [search, setSearch] = usePromptSearch();
  const query = trpc.prompts.get.useQuery(
    { id: promptId, version: search.version },
    // Another version of the same prompt stays on screen while the new one loads.
    { placeholderData: (previous) => (previous?.id === promptId ? previous : undefined) },
  );

  if (query.isPending) return <PromptPageSkeleton />;
  if (query.isError) {
    return <PromptUnavailable promptId={promptId} error={query.error} versionAsked={search.version !== undefined} onRetry={query.refetch} />;
  }
  const prompt = query.data;
  return (
    <div className="mx-auto grid w-full max-w-5xl min-w-0 grid-cols-1 gap-6">
      <PromptPlaceNotice prompt={prompt} />
      <PromptHeader prompt={prompt} />
      <SplitLabels prompt={prompt} />
      <PromptChangeRequests promptId={prompt.id} />
      <div className="flex min-w-0 flex-wrap items-end justify-between gap-3">
        <VersionSelect label="Version" prompt={prompt} value={prompt.version.version} onValueChange={(version) => setSearch({ version })} />
        <PromptActions prompt={prompt} />
      </div>
      <PromptTabs prompt={prompt} />
    </div>
  );
}
