// The Evaluations tab: Run evaluation (those who may run the prompt), the prompt's evaluations newest
// first (each with its cases that could not run and "Retry cases in error"), and one evaluation opened (its id in the URL): progress, figures per version, results, Compare.
import { versionLabel } from "@promptly/shared";
import type { RouterOutputs } from "@promptly/api";
import { LoadFailure } from "@/components/layout/load-failure";
import { usePromptSearch } from "@/components/prompts/page/route-api";
import type { PromptDetail } from "@/components/prompts/page/types";
import { Button } from "@/components/ui/button";
import { SkeletonRows } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatDateTime } from "@/lib/dates";
import { trpc } from "@/lib/trpc";
import { CasesNotRun } from "./cases-not-run.tsx";
import { EvaluationStatusBadge, formatPassRate, isActive } from "./evaluation-format.tsx";
import { EvaluationView } from "./evaluation-view.tsx";
import { RunEvaluationDialog } from "./run-evaluation-dialog.tsx";

type Evaluation = RouterOutputs["evaluations"]["list"]["items"][number];

export function EvaluationsTab({ prompt }: { prompt: PromptDetail }) {
  const [search, setSearch] = usePromptSearch();
  const open = (id: string) => setSearch({ evaluation: id, evaluationView: undefined, base: undefined, candidate: undefined });
  if (search.evaluation) {
    return <EvaluationView key={search.evaluation} prompt={prompt} id={search.evaluation} onBack={() => setSearch({ evaluation: undefined, evaluationView: undefined, base: undefined, candidate: undefined })} />;
  }
  return <EvaluationList prompt={prompt} onOpen={open} />;
}

function EvaluationList({ prompt, onOpen }: { prompt: PromptDetail; onOpen(id: string): void }) {
  const list = trpc.evaluations.list.useInfiniteQuery(
    { promptId: prompt.id, limit: 20 },
    {
      getNextPageParam: (page) => page.nextCursor ?? undefined,
      // While one is under way its progress moves here too.
      refetchInterval: (query) => (query.state.data?.pages.some((page) => page.items.some((item) => isActive(item.status))) ? 2_000 : false),
    },
  );
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <div className="grid min-w-0 gap-4">
      <div className="flex flex-wrap items-center gap-2">
        <p className="mr-auto text-sm text-muted-foreground">An evaluation runs every test case against the versions chosen, and checks each answer.</p>
        {prompt.can.run && <RunEvaluationDialog prompt={prompt} onStarted={onOpen} />}
      </div>
      {list.isPending ? (
        <SkeletonRows label="Loading evaluations" />
      ) : list.isError ? (
        <LoadFailure title="The evaluations could not be loaded" error={list.error} onRetry={() => void list.refetch()} />
      ) : items.length === 0 ? (
        <div className="grid gap-2 rounded-lg border border-dashed border-border p-6 text-center text-sm text-muted-foreground" data-testid="evaluations-empty">
          <p className="font-medium text-foreground">No evaluations of this prompt yet.</p>
          <p>
            Add test cases, then run an evaluation here, or from a pipeline with <code className="font-mono text-xs break-all">POST /api/v1/prompts/{prompt.name}/evaluations</code>.
          </p>
        </div>
      ) : (
        <>
          <EvaluationTable evaluations={items} canRetry={prompt.can.run} onOpen={onOpen} />
          {list.hasNextPage && (
            <div>
              <Button variant="outline" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
                {list.isFetchingNextPage ? "Loading…" : "Load more"}
              </Button>
            </div>
          )}
        </>
      )}
    </div>
  );
}

function EvaluationTable({ evaluations, canRetry, onOpen }: { evaluations: Evaluation[]; canRetry: boolean; onOpen(id: string): void }) {
  return (
    <Table aria-label="Evaluations">
      <TableHeader>
        <TableRow>
          <TableHead>Started</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>Progress</TableHead>
          <TableHead>Pass rate</TableHead>
          <TableHead>Model</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {evaluations.map((evaluation) => (
          <TableRow key={evaluation.id} data-evaluation={evaluation.id} className="cursor-pointer" onClick={() => onOpen(evaluation.id)}>
            <TableCell className="whitespace-nowrap">
              {/* The row opens on a click anywhere; the button is its keyboard and screen-reader door. */}
              <button
                type="button"
                className="text-primary underline-offset-4 hover:underline"
                aria-label={`Open the evaluation of ${formatDateTime(evaluation.createdAt)}`}
                onClick={(event) => {
                  event.stopPropagation();
                  onOpen(evaluation.id);
                }}
              >
                <time dateTime={evaluation.createdAt.toISOString()}>{formatDateTime(evaluation.createdAt)}</time>
              </button>
            </TableCell>
            <TableCell>
              <EvaluationStatusBadge status={evaluation.status} />
            </TableCell>
            <TableCell className="whitespace-nowrap tabular-nums">
              {evaluation.done + evaluation.errors} of {evaluation.total}
            </TableCell>
            <TableCell className="max-w-md min-w-48 whitespace-normal">
              <div className="grid min-w-0 gap-1.5">
                <span className="tabular-nums">{evaluation.versions.map((version) => `${versionLabel(version.version)} ${formatPassRate(version.passRate)}`).join(" · ")}</span>
                <CasesNotRun evaluation={evaluation} canRetry={canRetry} compact />
              </div>
            </TableCell>
            <TableCell className="text-xs">
              {evaluation.model ? <span className="font-mono">{evaluation.model}</span> : "Each version's model"} on {evaluation.connectionName}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
