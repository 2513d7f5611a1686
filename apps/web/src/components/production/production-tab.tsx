// The Production tab: how the prompt's versions do in the teams' own applications, from the generations
// and scores they send (OpenTelemetry, the Langfuse SDKs, /api/v1). Filters (range, environment, model)
// live in the URL; the figures per version with small charts, two versions compared with the verdict
// of each figure, and the generations themselves, newest first, each opening in a dialog, exportable as
// CSV or JSON Lines.
import { PRODUCTION_MSG, PRODUCTION_RANGES, versionLabel, type ProductionRange } from "@promptly/shared";
import type { RouterOutputs } from "@promptly/api";
import { LoadFailure } from "@/components/layout/load-failure";
import { formatCost, formatMs, formatRate, formatTokens } from "@/components/runs/run-format";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { FilterSelect } from "@/components/ui/filter-select";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatDateTime } from "@/lib/dates";
import { plural } from "@/lib/plural";
import { trpc } from "@/lib/trpc";
import { usePromptSearch } from "@/components/prompts/page/route-api";
import type { PromptDetail } from "@/components/prompts/page/types";
import { GenerationDialog } from "./generation-dialog.tsx";
import { GenerationExport } from "./generation-export.tsx";
import { bucketText, chartBuckets } from "./chart-buckets.ts";
import { MiniBars, Sparkline } from "./mini-charts.tsx";
import { ComparisonCard } from "./comparison-card.tsx";
import { OnlineEvaluationCard } from "./online-evaluation-card.tsx";
import { DEFAULT_PRODUCTION_RANGE, productionMetricsQuery, productionSpan } from "./production-search.ts";
import { ScoresAllModelsNote } from "./scores-all-models-note.tsx";
import { scoreText } from "./score-text.ts";
import { moreScoresText } from "./more-scores.ts";

type Metrics = RouterOutputs["production"]["metrics"];
type VersionFigures = Metrics["versions"][number];
type Generation = RouterOutputs["production"]["generations"]["items"][number];

const RANGE_LABELS: Record<ProductionRange, string> = { "24h": "Last 24 hours", "7d": "Last 7 days", "30d": "Last 30 days", "90d": "Last 90 days" };

export function ProductionTab({ prompt }: { prompt: PromptDetail }) {
  const [search, setSearch] = usePromptSearch();
  const range = search.prodRange ?? DEFAULT_PRODUCTION_RANGE;
  const metrics = trpc.production.metrics.useQuery(productionMetricsQuery(prompt.id, search));
  const filtered = search.prodEnv !== undefined || search.prodModel !== undefined;
  // Nothing arrived in the range: the empty state alone, with no empty comparison or list beneath it.
  const noData = metrics.isSuccess && metrics.data.versions.length === 0;

  return (
    <div className="grid min-w-0 gap-4" data-testid="production-tab">
      <form className="grid gap-3 sm:grid-cols-3" aria-label="Filter the production figures" onSubmit={(event) => event.preventDefault()}>
        <div className="grid gap-1.5">
          <Label htmlFor="production-range">Range</Label>
          <Select value={range} onValueChange={(next) => setSearch({ prodRange: next as ProductionRange }, { replace: true })}>
            <SelectTrigger id="production-range" className="w-full">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {PRODUCTION_RANGES.map((value) => (
                <SelectItem key={value} value={value}>
                  {RANGE_LABELS[value]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <FilterSelect
          id="production-environment"
          label="Environment"
          anyLabel="All environments"
          value={search.prodEnv}
          options={withChosen(metrics.data?.environments ?? [], search.prodEnv).map((value) => ({ value, label: value }))}
          onChange={(next) => setSearch({ prodEnv: next }, { replace: true })}
        />
        <FilterSelect
          id="production-model"
          label="Model"
          anyLabel="All models"
          value={search.prodModel}
          options={withChosen(metrics.data?.models ?? [], search.prodModel).map((value) => ({ value, label: value }))}
          onChange={(next) => setSearch({ prodModel: next }, { replace: true })}
        />
      </form>
      {metrics.isPending ? (
        <Skeleton className="h-40 w-full" aria-label="Loading the production figures" />
      ) : metrics.isError ? (
        <LoadFailure title="The production figures could not be loaded" error={metrics.error} onRetry={() => void metrics.refetch()} />
      ) : noData ? (
        filtered ? <p className="text-sm text-muted-foreground">No production data matches these filters in this range.</p> : <NoProductionData name={prompt.name} range={range} />
      ) : (
        <VersionFiguresTable metrics={metrics.data} />
      )}
      {/* The comparison and the generations have queries of their own: a failed figures query leaves them be. */}
      {!noData && (
        <>
          <ComparisonCard
            promptId={prompt.id}
            versionsWithData={metrics.data?.versions.map((row) => row.version) ?? []}
            labels={prompt.labels}
            environment={search.prodEnv}
            model={search.prodModel}
            scoresAllModels={metrics.data?.scoresAllModels ?? false}
          />
          <GenerationList promptId={prompt.id} promptName={prompt.name} />
        </>
      )}
      <OnlineEvaluationCard promptId={prompt.id} mayEdit={prompt.can["label.protected"] && prompt.archivedAt === null} />
      <GenerationDialog promptId={prompt.id} archived={prompt.archivedAt !== null} generationId={search.generation} onClose={() => setSearch({ generation: undefined })} />
    </div>
  );
}

/** A filter's options, with the chosen value kept even when this range has none of it (a link). */
const withChosen = (values: string[], chosen: string | undefined) => [...new Set([...values, ...(chosen ? [chosen] : [])])];

/** What to do when nothing has come in yet. */
function NoProductionData({ name, range }: { name: string; range: ProductionRange }) {
  return (
    <div className="grid gap-2 rounded-lg border border-dashed border-border p-6 text-center text-sm text-muted-foreground" data-testid="production-empty">
      <p className="font-medium text-foreground">{PRODUCTION_MSG.empty}</p>
      <p>
        Nothing arrived for <code className="font-mono text-xs break-all">{name}</code> in the {RANGE_LABELS[range].toLowerCase()}. Link your generations to this prompt
        (the Langfuse SDKs' <code className="font-mono text-xs">prompt</code>, or OpenTelemetry spans with its name and version) and send them with a key that has the{" "}
        <code className="font-mono text-xs">ingest</code> scope: see "Production signals" in the README, and{" "}
        <a className="text-primary underline underline-offset-4" href="/api/docs">
          the API reference
        </a>
        .
      </p>
    </div>
  );
}

/**
 * A version's score figures, by name then type. A name sent with two types is two figures: each named with
 * its type, as the comparison names them ("quality (boolean)", "quality (numeric)"). The answer carries the
 * version's most counted series; the cell says how many more it has.
 */
function ScoreCell({ scores, omitted, label }: { scores: VersionFigures["scores"]; omitted: number; label: string }) {
  if (scores.length === 0) return <span className="text-muted-foreground">–</span>;
  const typed = (name: string) => scores.filter((score) => score.name === name).length > 1;
  return (
    <ul className="grid gap-0.5" aria-label={label}>
      {scores.map((score) => (
        <li key={`${score.dataType}\n${score.name}`} className="whitespace-nowrap">
          <span className="font-medium">{typed(score.name) ? `${score.name} (${score.dataType})` : score.name}</span> {scoreText(score)}
        </li>
      ))}
      {omitted > 0 && (
        <li className="whitespace-nowrap text-muted-foreground" data-testid="production-scores-omitted">
          and {plural(omitted, "more score")}, each given less often (not shown)
        </li>
      )}
    </ul>
  );
}

/** The figures per version, newest first, each with its generations and latency over the range. */
function VersionFiguresTable({ metrics }: { metrics: Metrics }) {
  const bucket = metrics.bucket;
  // A version with no generations in the range (scores only) has no chart.
  const bucketsOf = (version: number) => {
    const points = metrics.series.find((line) => line.version === version)?.points ?? [];
    return points.length === 0 ? [] : chartBuckets(points, metrics);
  };
  return (
    <section aria-labelledby="production-figures-heading" className="grid min-w-0 gap-2">
      <h3 id="production-figures-heading" className="text-sm font-semibold">
        Figures per version
      </h3>
      <p className="text-xs text-muted-foreground" data-testid="production-chart-legend">
        The charts show every UTC {bucket} of the range, oldest first, empty ones too; the darker part of a bar is errors.
      </p>
      {metrics.scoresAllModels && <ScoresAllModelsNote id="production-scores-all-models" />}
      <Table aria-label="Production figures per version">
        <TableHeader>
          <TableRow>
            <TableHead>Version</TableHead>
            <TableHead className="text-right">Generations</TableHead>
            <TableHead className="text-right">Error rate</TableHead>
            <TableHead className="text-right">Latency p50 / p95</TableHead>
            <TableHead className="text-right">First token p50</TableHead>
            <TableHead className="text-right">Tokens (mean)</TableHead>
            <TableHead className="text-right">Cost (mean)</TableHead>
            <TableHead aria-describedby={metrics.scoresAllModels ? "production-scores-all-models" : undefined}>{metrics.scoresAllModels ? "Scores (all models)" : "Scores"}</TableHead>
            <TableHead>Generations per {bucket} (UTC)</TableHead>
            <TableHead>Latency p50 per {bucket} (UTC)</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {metrics.versions.map((row) => {
            const buckets = bucketsOf(row.version);
            const version = versionLabel(row.version);
            const when = (at: Date) => `${bucketText(at, bucket)} (UTC)`;
            const withGenerations = buckets.filter((point) => point.generations > 0).length;
            return (
              <TableRow key={row.version} data-version={row.version}>
                <TableHead scope="row" className="font-mono">
                  {versionLabel(row.version)}
                </TableHead>
                <TableCell className="text-right tabular-nums">{row.generations.toLocaleString("en-US")}</TableCell>
                <TableCell className="text-right tabular-nums">{row.errorRate === null ? "–" : formatRate(row.errorRate)}</TableCell>
                <TableCell className="text-right whitespace-nowrap tabular-nums">
                  {formatMs(row.latencyP50Ms)} / {formatMs(row.latencyP95Ms)}
                </TableCell>
                <TableCell className="text-right tabular-nums">{formatMs(row.ttftP50Ms)}</TableCell>
                <TableCell className="text-right tabular-nums">{row.meanTokens === null ? "–" : Math.round(row.meanTokens).toLocaleString("en-US")}</TableCell>
                <TableCell className="text-right whitespace-nowrap tabular-nums">
                  {formatCost(row.cost)} ({formatCost(row.meanCost)})
                </TableCell>
                <TableCell className="text-xs">
                  <ScoreCell scores={row.scores} omitted={row.scoresOmitted} label={`${version}: scores`} />
                </TableCell>
                {/* relative: the hidden figures (position: absolute) stay inside the table's scroll box, not widening the page. */}
                <TableCell className="relative">
                  <MiniBars
                    values={buckets.map((point) => point.generations)}
                    marked={buckets.map((point) => point.errors)}
                    label={`${version}: generations per ${bucket} (UTC), errors darker, ${plural(withGenerations, bucket)} of ${buckets.length} with generations`}
                    data={{
                      label: `${version}: generations and errors per ${bucket} (UTC)`,
                      items: buckets.map((point) =>
                        point.generations === 0 ? `${when(point.at)}: no generations` : `${when(point.at)}: ${plural(point.generations, "generation")}, ${plural(point.errors, "error")}`,
                      ),
                    }}
                  />
                </TableCell>
                <TableCell className="relative">
                  <Sparkline
                    values={buckets.map((point) => point.latencyP50Ms)}
                    label={`${version}: median latency per ${bucket} (UTC)`}
                    data={{
                      label: `${version}: median latency per ${bucket} (UTC), each ${bucket}`,
                      items: buckets.map(
                        (point) => `${when(point.at)}: ${point.latencyP50Ms !== null ? formatMs(point.latencyP50Ms) : point.generations === 0 ? "no generations" : "no latency"}`,
                      ),
                    }}
                  />
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </section>
  );
}

/** The generations of the range and filters, newest first, 50 a page with "Load more", and their export. */
function GenerationList({ promptId, promptName }: { promptId: string; promptName: string }) {
  const [search, setSearch] = usePromptSearch();
  const input = { promptId, ...productionSpan(search.prodRange ?? DEFAULT_PRODUCTION_RANGE), environment: search.prodEnv, model: search.prodModel };
  const generations = trpc.production.generations.useInfiniteQuery(input, { getNextPageParam: (page) => page.nextCursor ?? undefined });
  const items = generations.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <section aria-labelledby="production-generations-heading" className="grid min-w-0 gap-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="production-generations-heading" className="text-sm font-semibold">
          Generations
        </h3>
        {items.length > 0 && <GenerationExport promptName={promptName} filters={input} />}
      </div>
      {generations.isPending ? (
        <Skeleton className="h-20 w-full" aria-label="Loading the generations" />
      ) : generations.isError ? (
        <LoadFailure title="The generations could not be loaded" error={generations.error} onRetry={() => void generations.refetch()} />
      ) : items.length === 0 ? (
        <p className="text-sm text-muted-foreground">No generations in this range.</p>
      ) : (
        <>
          <GenerationTable generations={items} onOpen={(id) => setSearch({ generation: id })} />
          {generations.hasNextPage && (
            <div>
              <Button variant="outline" disabled={generations.isFetchingNextPage} onClick={() => void generations.fetchNextPage()}>
                {generations.isFetchingNextPage ? "Loading…" : "Load more"}
              </Button>
            </div>
          )}
        </>
      )}
    </section>
  );
}

/** The scores a generation has beyond those listed (its newest), said after them. */
const andMore = (generation: Generation) => (generation.moreScores > 0 ? `, and ${moreScoresText(generation)}` : "");

function GenerationTable({ generations, onOpen }: { generations: Generation[]; onOpen(id: string): void }) {
  return (
    <Table aria-label="Generations">
      <TableHeader>
        <TableRow>
          <TableHead>When</TableHead>
          <TableHead>Version</TableHead>
          <TableHead>Model</TableHead>
          <TableHead>Environment</TableHead>
          <TableHead>Status</TableHead>
          <TableHead className="text-right">Latency</TableHead>
          <TableHead className="text-right">Tokens in / out</TableHead>
          <TableHead className="text-right">Cost</TableHead>
          <TableHead>Scores</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {generations.map((generation) => {
          const startedAt = new Date(generation.startedAt);
          return (
            <TableRow key={generation.id} data-generation={generation.id} className="cursor-pointer" onClick={() => onOpen(generation.id)}>
              <TableCell className="whitespace-nowrap">
                {/* The row opens on a click anywhere; the button is its keyboard and screen-reader door. */}
                <button
                  type="button"
                  className="text-primary underline-offset-4 hover:underline"
                  aria-label={`Open the generation of ${formatDateTime(startedAt)}`}
                  onClick={(event) => {
                    event.stopPropagation();
                    onOpen(generation.id);
                  }}
                >
                  <time dateTime={generation.startedAt}>{formatDateTime(startedAt)}</time>
                </button>
              </TableCell>
              <TableCell className="font-mono">{generation.version === null ? "–" : versionLabel(generation.version)}</TableCell>
              <TableCell className="font-mono text-xs">
                {/* A fine-tuned model's id can run to 100 characters without a space: cut, whole on hover. */}
                <span className="block max-w-56 truncate" title={generation.model ?? undefined}>
                  {generation.model ?? "–"}
                </span>
              </TableCell>
              <TableCell>{generation.environment}</TableCell>
              <TableCell className="min-w-32 max-w-72">
                <Badge variant={generation.status === "error" ? "destructive" : "secondary"}>{generation.status === "error" ? "Error" : "OK"}</Badge>
                {generation.error && (
                  <span className="mt-1 line-clamp-2 block text-xs whitespace-normal text-destructive" title={generation.error}>
                    {generation.error}
                  </span>
                )}
              </TableCell>
              <TableCell className="text-right tabular-nums">{formatMs(generation.latencyMs)}</TableCell>
              <TableCell className="text-right whitespace-nowrap tabular-nums">
                {formatTokens(generation.tokens.input, generation.tokens.output)}
              </TableCell>
              <TableCell className="text-right tabular-nums">{formatCost(generation.cost)}</TableCell>
              <TableCell className="text-xs">
                {generation.scores.length === 0
                  ? "–"
                  : generation.scores.map((score) => `${score.name}: ${score.stringValue ?? score.value ?? "–"}`).join(", ") + andMore(generation)}
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
