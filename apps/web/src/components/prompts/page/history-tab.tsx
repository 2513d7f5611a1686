// The History tab: every version, newest first, with its commit message, author, date and labels;
// each links to the page showing that version and, for who may write, offers 'Set label...' on it and
// 'Restore as a new version' (each confirms what will change). Pages of 50, 'Load more' for the next.
// A version that was run on models shows its figures (runs, errors, latency, tokens, cost) in a line.
// A version that held production before (not where it is now) offers 'Roll back to vN' to those who may move production.
import { Link } from "@tanstack/react-router";
import { LATEST_LABEL, versionLabel, type VersionRunStats } from "@promptly/shared";
import { runFiguresLine } from "@/components/runs/run-figures";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { LoadFailure } from "@/components/layout/load-failure";
import { Skeleton } from "@/components/ui/skeleton";
import { formatDateTime } from "@/lib/dates";
import { trpc } from "@/lib/trpc";
import type { PromptDetail, VersionHistoryItem } from "./types.ts";
import { authorName } from "../author.ts";
import { RestoreVersionDialog } from "./restore-version-dialog.tsx";
import { RollbackDialog } from "./rollback-dialog.tsx";
import { SetLabelDialog } from "./set-label-dialog.tsx";

export function HistoryTab({ prompt }: { prompt: PromptDetail }) {
  const history = trpc.promptVersions.list.useInfiniteQuery(
    { promptId: prompt.id },
    { getNextPageParam: (page) => page.nextCursor ?? undefined },
  );
  // The figures are extra: the history shows without them while they load or if they fail.
  const stats = trpc.runs.stats.useQuery({ promptId: prompt.id });
  const mayRollBack = prompt.can["label.protected"] && prompt.archivedAt === null;
  // Extra too: without it, no row offers a rollback.
  const rollbacks = trpc.promptLabels.rollbackTargets.useQuery({ promptId: prompt.id }, { enabled: mayRollBack });
  if (history.isPending) {
    return (
      <div className="grid gap-2" role="status" aria-label="Loading history">
        <Skeleton className="h-16" />
        <Skeleton className="h-16" />
      </div>
    );
  }
  if (history.isError) {
    return <LoadFailure title="The history could not be loaded" error={history.error} onRetry={() => history.refetch()} />;
  }
  const versions = history.data.pages.flatMap((page) => page.items);
  return (
    <div className="grid min-w-0 gap-3">
      <ol aria-label="Versions" className="divide-y divide-border rounded-md border border-border">
        {versions.map((item) => (
          <HistoryRow
            key={item.version}
            item={item}
            prompt={prompt}
            runs={stats.data?.find((row) => row.version === item.version)}
            rollBack={mayRollBack && (rollbacks.data?.versions.includes(item.version) ?? false)}
          />
        ))}
      </ol>
      {history.hasNextPage && (
        <div>
          <Button variant="outline" disabled={history.isFetchingNextPage} onClick={() => void history.fetchNextPage()}>
            Load more
          </Button>
        </div>
      )}
    </div>
  );
}

function HistoryRow({ item, prompt, runs, rollBack }: { item: VersionHistoryItem; prompt: PromptDetail; runs: VersionRunStats | undefined; rollBack: boolean }) {
  const shown = item.version === prompt.version.version;
  const labels = [...(item.version === prompt.latestVersion ? [LATEST_LABEL] : []), ...item.labels];
  const writable = prompt.can.write && prompt.archivedAt === null;
  return (
    <li className="grid min-w-0 gap-1 p-3" data-version={item.version} aria-current={shown ? "true" : undefined}>
      <div className="flex flex-wrap items-center gap-2">
        <Link
          to="/prompts/$promptId"
          params={{ promptId: prompt.id }}
          search={{ version: item.version, tab: "template" }}
          aria-label={`View ${versionLabel(item.version)}`}
          className="font-mono font-semibold text-primary underline-offset-4 hover:underline"
        >
          {versionLabel(item.version)}
        </Link>
        {labels.map((label) => (
          <Badge key={label} variant={label === LATEST_LABEL ? "outline" : "default"}>
            {label}
          </Badge>
        ))}
        {shown && <span className="text-xs text-muted-foreground">(shown)</span>}
      </div>
      <p className="text-sm break-words">{item.commitMessage || <span className="text-muted-foreground">No commit message</span>}</p>
      <p className="text-xs text-muted-foreground">
        {authorName(item.author)} · <time dateTime={item.createdAt.toISOString()}>{formatDateTime(item.createdAt)}</time>
      </p>
      {runs && (
        <p className="text-xs text-muted-foreground tabular-nums" data-testid="version-run-figures">
          {runFiguresLine(runs)}
        </p>
      )}
      {(writable || rollBack) && (
        <div className="flex flex-wrap gap-2 pt-1">
          {rollBack && <RollbackDialog prompt={prompt} version={item.version} />}
          {writable && <SetLabelDialog prompt={prompt} version={item.version} />}
          {writable && item.version !== prompt.latestVersion && <RestoreVersionDialog prompt={prompt} version={item.version} />}
        </div>
      )}
    </li>
  );
}
