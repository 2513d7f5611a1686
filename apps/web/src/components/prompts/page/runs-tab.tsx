// The Runs tab: every recorded run of the prompt (from the Playground or from applications through the
// API), newest first, 50 a page with 'Load more', filtered by version, model and status (kept in the
// URL); above them the figures per version. A row opens the run (runs.get) in a dialog, its id in the URL.
import { RUN_STATUSES, versionLabel } from "@promptly/shared";
import type { RouterOutputs } from "@promptly/api";
import { LoadFailure } from "@/components/layout/load-failure";
import { RunFiguresTable } from "@/components/runs/run-figures";
import { RUN_STATUS_LABELS, formatCost, formatMs, formatTokens } from "@/components/runs/run-format";
import { RunStatusBadge } from "@/components/runs/run-status-badge";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { FilterSelect } from "@/components/ui/filter-select";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatDateTime } from "@/lib/dates";
import { trpc } from "@/lib/trpc";
import { usePromptSearch } from "./route-api.ts";
import { RunDialog, actorName } from "./run-dialog.tsx";
import type { PromptDetail } from "./types.ts";

type RunSummary = RouterOutputs["runs"]["list"]["items"][number];

export function RunsTab({ prompt }: { prompt: PromptDetail }) {
  const [search, setSearch] = usePromptSearch();
  const filters = { version: search.runVersion, model: search.runModel, status: search.runStatus };
  const filtered = Object.values(filters).some((value) => value !== undefined);
  const runs = trpc.runs.list.useInfiniteQuery({ promptId: prompt.id, ...filters }, { getNextPageParam: (page) => page.nextCursor ?? undefined });
  const models = trpc.runs.models.useQuery({ promptId: prompt.id });
  const versions = Array.from({ length: prompt.latestVersion }, (_, i) => prompt.latestVersion - i);
  const items = runs.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <div className="grid min-w-0 gap-4">
      <RunFigures promptId={prompt.id} />
      <form className="grid gap-3 sm:grid-cols-3" aria-label="Filter the runs" onSubmit={(event) => event.preventDefault()}>
        <FilterSelect
          id="runs-version"
          label="Version"
          anyLabel="All versions"
          value={search.runVersion === undefined ? undefined : String(search.runVersion)}
          options={versions.map((version) => ({ value: String(version), label: versionLabel(version) }))}
          onChange={(next) => setSearch({ runVersion: next === undefined ? undefined : Number(next) }, { replace: true })}
        />
        <FilterSelect
          id="runs-model"
          label="Model"
          anyLabel="All models"
          value={search.runModel}
          // A model from a link that no run used still shows as chosen.
          options={[...new Set([...(models.data ?? []), ...(search.runModel ? [search.runModel] : [])])].map((model) => ({ value: model, label: model }))}
          onChange={(next) => setSearch({ runModel: next }, { replace: true })}
        />
        <FilterSelect
          id="runs-status"
          label="Status"
          anyLabel="All statuses"
          value={search.runStatus}
          options={RUN_STATUSES.map((status) => ({ value: status, label: RUN_STATUS_LABELS[status] }))}
          onChange={(next) => setSearch({ runStatus: next }, { replace: true })}
        />
      </form>
      {runs.isPending ? (
        <div className="grid gap-2" role="status" aria-label="Loading runs">
          <Skeleton className="h-10" />
          <Skeleton className="h-10" />
        </div>
      ) : runs.isError ? (
        <LoadFailure title="The runs could not be loaded" error={runs.error} onRetry={() => void runs.refetch()} />
      ) : items.length === 0 ? (
        filtered ? (
          <p className="text-sm text-muted-foreground">No runs match these filters.</p>
        ) : (
          <NoRuns name={prompt.name} />
        )
      ) : (
        <>
          <RunTable runs={items} onOpen={(id) => setSearch({ run: id })} />
          {runs.hasNextPage && (
            <div>
              <Button variant="outline" disabled={runs.isFetchingNextPage} onClick={() => void runs.fetchNextPage()}>
                {runs.isFetchingNextPage ? "Loading…" : "Load more"}
              </Button>
            </div>
          )}
        </>
      )}
      <RunDialog promptId={prompt.id} runId={search.run} onClose={() => setSearch({ run: undefined })} />
    </div>
  );
}

/** How runs come to be, said where there are none yet. */
function NoRuns({ name }: { name: string }) {
  return (
    <div className="grid gap-2 rounded-lg border border-dashed border-border p-6 text-center text-sm text-muted-foreground" data-testid="runs-empty">
      <p className="font-medium text-foreground">No runs of this prompt yet.</p>
      <p>
        Every run is recorded here: a run in the Playground tab, or a call from an application to{" "}
        <code className="font-mono text-xs break-all">POST /api/v1/prompts/{name}/run</code> with an API key that has the <code className="font-mono text-xs">run</code> scope.
      </p>
    </div>
  );
}

/** Runs, error rate, latency, tokens and cost per version, over every run of the prompt. */
function RunFigures({ promptId }: { promptId: string }) {
  const stats = trpc.runs.stats.useQuery({ promptId });
  if (stats.isPending) return <Skeleton className="h-20 w-full" aria-label="Loading the figures per version" />;
  if (stats.isError) return <LoadFailure title="The figures per version could not be loaded" error={stats.error} onRetry={() => void stats.refetch()} />;
  if (stats.data.length === 0) return null;
  return (
    <section aria-labelledby="run-figures-heading" className="grid min-w-0 gap-2">
      <h3 id="run-figures-heading" className="text-sm font-semibold">
        Figures per version
      </h3>
      <RunFiguresTable label="Figures per version" rows={stats.data.map((row) => ({ ...row, key: String(row.version) }))} />
    </section>
  );
}

function RunTable({ runs, onOpen }: { runs: RunSummary[]; onOpen(id: string): void }) {
  return (
    <Table aria-label="Runs">
      <TableHeader>
        <TableRow>
          <TableHead>When</TableHead>
          <TableHead>Who</TableHead>
          <TableHead>Version</TableHead>
          <TableHead>Connection</TableHead>
          <TableHead>Model</TableHead>
          <TableHead>Status</TableHead>
          <TableHead className="text-right">Tokens in / out</TableHead>
          <TableHead className="text-right">First token</TableHead>
          <TableHead className="text-right">Total</TableHead>
          <TableHead className="text-right">Cost</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {runs.map((run) => (
          <TableRow key={run.id} data-run={run.id} data-status={run.status} className="cursor-pointer" onClick={() => onOpen(run.id)}>
            <TableCell className="whitespace-nowrap">
              {/* The row opens on a click anywhere; the button is its keyboard and screen-reader door. */}
              <button
                type="button"
                className="text-primary underline-offset-4 hover:underline"
                aria-label={`Open the run of ${formatDateTime(run.createdAt)}`}
                onClick={(event) => {
                  event.stopPropagation();
                  onOpen(run.id);
                }}
              >
                <time dateTime={run.createdAt.toISOString()}>{formatDateTime(run.createdAt)}</time>
              </button>
            </TableCell>
            <TableCell>{actorName(run.actor)}</TableCell>
            <TableCell className="whitespace-nowrap">
              <span className="font-mono">{versionLabel(run.version)}</span>
              {/* Run from the Playground with an edited template or a continued conversation: not the version as saved. */}
              {run.draft && (
                <Badge variant="outline" className="ml-2" title="An edited draft from the Playground: left out of the version's figures">
                  Edited
                </Badge>
              )}
            </TableCell>
            <TableCell>{run.connectionName}</TableCell>
            <TableCell className="font-mono text-xs">{run.model}</TableCell>
            <TableCell className="min-w-56 max-w-80">
              <RunStatusBadge status={run.status} />
              {run.status === "failed" && run.error && <span className="mt-1 line-clamp-2 block text-xs whitespace-normal text-destructive">{run.error}</span>}
            </TableCell>
            <TableCell className="text-right whitespace-nowrap tabular-nums">{formatTokens(run.inputTokens, run.outputTokens)}</TableCell>
            <TableCell className="text-right whitespace-nowrap tabular-nums">{formatMs(run.ttftMs)}</TableCell>
            <TableCell className="text-right whitespace-nowrap tabular-nums">{formatMs(run.totalMs)}</TableCell>
            <TableCell className="text-right whitespace-nowrap tabular-nums">{formatCost(run.cost)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
