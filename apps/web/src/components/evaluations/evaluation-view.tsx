// One evaluation: its progress (polled every second while queued or running) with done / could not
// run / remaining and Cancel, the figures per version (passed, failed, could not run, the pass rate
// over the cases judged) with the cases that could not run, their first reason and "Retry cases in
// error", then Results (cases x versions: each output and each
// assertion's verdict with its reason) or Compare (two versions: the cases that flipped, their outputs diffed).
// Both read a page of cases at a time with their texts cut short; an output, an error, a judge's reason or a case
// (its variables and expected output) cut short opens whole on request.
import { useEffect, useRef, useState } from "react";
import { ArrowLeft, Check, Square, X } from "lucide-react";
import { toast } from "sonner";
import { versionLabel } from "@promptly/shared";
import type { RouterOutputs } from "@promptly/api";
import { LoadFailure } from "@/components/layout/load-failure";
import { LineDiff } from "@/components/prompts/page/line-diff";
import { usePromptSearch } from "@/components/prompts/page/route-api";
import type { PromptDetail } from "@/components/prompts/page/types";
import { formatCost, formatMs } from "@/components/runs/run-format";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Progress } from "@/components/ui/progress";
import { Skeleton, SkeletonRows } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { ErrorDetails } from "@/components/ui/error-details";
import { formatDateTime } from "@/lib/dates";
import { trpc } from "@/lib/trpc";
import { assertionText, caseCut, expectedText, previewText, variablesText } from "./assertion-text.ts";
import { CasesNotRun } from "./cases-not-run.tsx";
import { EvaluationStatusBadge, ItemStatusBadge, formatPassRate, isActive } from "./evaluation-format.tsx";
import { VersionPicker } from "@/components/prompts/version-picker";

type Summary = RouterOutputs["evaluations"]["get"];
type Results = RouterOutputs["evaluations"]["results"];
/** Which item: the evaluation, its case's position and the version. */
type ItemKey = { id: string; position: number; version: number };
type Case = Results["cases"][number];
type Cell = Case["versions"][number];

interface EvaluationViewProps {
  prompt: PromptDetail;
  id: string;
  onBack(): void;
}

export function EvaluationView({ prompt, id, onBack }: EvaluationViewProps) {
  const summary = trpc.evaluations.get.useQuery({ id }, { refetchInterval: (query) => (query.state.data && isActive(query.state.data.status) ? 1_000 : false) });
  return (
    <div className="grid min-w-0 gap-5" data-testid="evaluation-view">
      <div>
        <Button variant="ghost" size="sm" onClick={onBack}>
          <ArrowLeft aria-hidden="true" />
          All evaluations
        </Button>
      </div>
      {summary.isPending ? (
        <div role="status" aria-label="Loading the evaluation" className="grid gap-2">
          <Skeleton className="h-8 w-2/3" />
          <Skeleton className="h-24" />
        </div>
      ) : summary.isError ? (
        <LoadFailure title="The evaluation could not be loaded" error={summary.error} onRetry={() => void summary.refetch()} />
      ) : (
        <EvaluationDetail prompt={prompt} summary={summary.data} />
      )}
    </div>
  );
}

function EvaluationDetail({ prompt, summary }: { prompt: PromptDetail; summary: Summary }) {
  const [search, setSearch] = usePromptSearch();
  const active = isActive(summary.status);
  const versions = summary.versions.map((version) => version.version);
  const comparable = versions.length >= 2;
  // Once it ends (seen running here), its last results and comparison at once, whichever tab shows now: a tab
  // away when it ended would otherwise show its cells pending from its cache.
  const utils = trpc.useUtils();
  const wasActive = useRef(active);
  useEffect(() => {
    if (wasActive.current && !active) {
      void utils.evaluations.results.invalidate({ id: summary.id });
      void utils.evaluations.compare.invalidate({ id: summary.id });
    }
    wasActive.current = active;
  }, [active, summary.id, utils]);
  const view = comparable && search.evaluationView === "compare" ? "compare" : "results";
  return (
    <>
      <header className="grid min-w-0 gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <h2 className="text-lg font-semibold">Evaluation of {versions.map(versionLabel).join(", ")}</h2>
          <EvaluationStatusBadge status={summary.status} />
        </div>
        <p className="text-sm wrap-anywhere text-muted-foreground">
          Started {formatDateTime(summary.createdAt)} on {summary.connectionName}, {summary.model ? <span className="font-mono">{summary.model}</span> : "each version's model"}
          {summary.finishedAt ? `; ended ${formatDateTime(summary.finishedAt)}` : ""}.
        </p>
      </header>
      <EvaluationProgress summary={summary} canCancel={prompt.can.run} />
      <VersionFigures summary={summary} canRetry={prompt.can.run} />
      <Tabs value={view} onValueChange={(next) => setSearch({ evaluationView: next as "results" | "compare" }, { replace: true })} className="min-w-0 gap-4">
        <TabsList aria-label="The evaluation's results">
          <TabsTrigger value="results">Results</TabsTrigger>
          {comparable && <TabsTrigger value="compare">Compare versions</TabsTrigger>}
        </TabsList>
        <TabsContent value="results" className="min-w-0">
          <ResultsMatrix id={summary.id} versions={versions} active={active} />
        </TabsContent>
        {comparable && (
          <TabsContent value="compare" className="min-w-0">
            <CompareVersions summary={summary} />
          </TabsContent>
        )}
      </Tabs>
    </>
  );
}

function EvaluationProgress({ summary, canCancel }: { summary: Summary; canCancel: boolean }) {
  const utils = trpc.useUtils();
  const cancel = trpc.evaluations.cancel.useMutation({
    async onSuccess(next) {
      toast.success("Evaluation cancelled");
      utils.evaluations.get.setData({ id: next.id }, next);
      await utils.evaluations.invalidate();
    },
    onError: (error) => toast.error(error.message),
  });
  const finished = summary.done + summary.errors;
  const remaining = Math.max(0, summary.total - finished);
  const active = isActive(summary.status);
  return (
    <section aria-labelledby="evaluation-progress" className="grid min-w-0 gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <h3 id="evaluation-progress" className="mr-auto text-sm font-semibold">
          Progress
        </h3>
        {active && canCancel && (
          <Button variant="destructive" size="sm" disabled={cancel.isPending} onClick={() => cancel.mutate({ id: summary.id })}>
            <Square aria-hidden="true" />
            {cancel.isPending ? "Cancelling..." : "Cancel evaluation"}
          </Button>
        )}
      </div>
      <Progress value={finished} max={Math.max(1, summary.total)} aria-label="Evaluation progress" aria-valuetext={`${finished} of ${summary.total}`} />
      <p className="text-sm tabular-nums" data-testid="evaluation-counts" aria-live="polite">
        {`${summary.done} done · ${summary.errors} could not run${active ? ` · ${remaining} remaining` : remaining > 0 ? ` · ${remaining} not run` : ""}`}
      </p>
    </section>
  );
}

function VersionFigures({ summary, canRetry }: { summary: Summary; canRetry: boolean }) {
  return (
    <section aria-labelledby="evaluation-figures" className="grid min-w-0 gap-2">
      <h3 id="evaluation-figures" className="text-sm font-semibold">
        Figures per version
      </h3>
      <CasesNotRun evaluation={summary} canRetry={canRetry} />
      <Table aria-label="Figures per version">
        <TableHeader>
          <TableRow>
            <TableHead>Version</TableHead>
            <TableHead className="text-right">Pass rate</TableHead>
            <TableHead className="text-right">Passed</TableHead>
            <TableHead className="text-right">Failed</TableHead>
            <TableHead className="text-right">Could not run</TableHead>
            <TableHead className="text-right">p50 latency</TableHead>
            <TableHead className="text-right">Tokens</TableHead>
            <TableHead className="text-right">Cost</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {summary.versions.map((version) => (
            <TableRow key={version.version} data-version={version.version}>
              <TableCell className="font-mono">{versionLabel(version.version)}</TableCell>
              <TableCell className="text-right tabular-nums">{formatPassRate(version.passRate)}</TableCell>
              <TableCell className="text-right tabular-nums">{version.passed.toLocaleString("en-US")}</TableCell>
              <TableCell className="text-right tabular-nums">{version.failed.toLocaleString("en-US")}</TableCell>
              <TableCell className={`text-right tabular-nums${version.errors ? " text-destructive" : ""}`}>{version.errors.toLocaleString("en-US")}</TableCell>
              <TableCell className="text-right tabular-nums">{formatMs(version.p50Ms)}</TableCell>
              <TableCell className="text-right tabular-nums">{version.tokens.toLocaleString("en-US")}</TableCell>
              <TableCell className="text-right tabular-nums">{formatCost(version.cost)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </section>
  );
}

/** A page still running: some of its cases have not run on every version yet. */
const unfinished = (page: Results | undefined) => !page || page.cases.some((testCase) => testCase.versions.some((cell) => cell.status === "pending"));

/**
 * The matrix, a page of cases at a time, each page its own query (keyed by its cursor, the last position
 * of the page before): while the evaluation runs, only the pages with cases not run yet are polled, not
 * every page loaded (a finished case does not change until the evaluation ends).
 */
function ResultsMatrix({ id, versions, active }: { id: string; versions: number[]; active: boolean }) {
  const utils = trpc.useUtils();
  const [pageCount, setPageCount] = useState(1);
  const cursors: (number | undefined)[] = [undefined];
  // A page not read yet ends the chain until it is.
  for (let next = utils.evaluations.results.getData({ id })?.nextCursor; typeof next === "number" && cursors.length < pageCount; ) {
    cursors.push(next);
    next = utils.evaluations.results.getData({ id, cursor: next })?.nextCursor;
  }
  const pages = trpc.useQueries((t) =>
    cursors.map((cursor) => t.evaluations.results({ id, cursor }, { refetchInterval: (query) => (active && unfinished(query.state.data) ? 3_000 : false) })),
  );
  const [first] = pages;
  const last = pages.at(-1)!;
  if (!first?.data) {
    if (first?.isError) return <LoadFailure title="The results could not be loaded" error={first.error} onRetry={() => void first.refetch()} />;
    return <SkeletonRows label="Loading the results" />;
  }
  const cases = pages.flatMap((page) => page.data?.cases ?? []);
  return (
    <div className="grid min-w-0 gap-3">
      <Table aria-label="Results">
        <TableHeader>
          <TableRow>
            <TableHead>Case</TableHead>
            {versions.map((version) => (
              <TableHead key={version}>{versionLabel(version)}</TableHead>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody>
          {cases.map((testCase) => (
            <TableRow key={testCase.position} data-testid="result-row" className="align-top">
              <TableCell className="max-w-64 min-w-40 whitespace-normal">
                <span className="font-medium">Case {testCase.position + 1}</span>
                <CaseLines testCase={testCase} item={{ id, position: testCase.position, version: versions[0]! }} />
              </TableCell>
              {versions.map((version) => {
                const cell = testCase.versions.find((item) => item.version === version);
                return (
                  <TableCell key={version} className="max-w-96 min-w-56 whitespace-normal" data-version={version}>
                    {cell ? <ResultCell cell={cell} item={{ id, position: testCase.position, version }} /> : "–"}
                  </TableCell>
                );
              })}
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {last.isError && !last.data ? (
        <LoadFailure title="More cases could not be loaded" error={last.error} onRetry={() => void last.refetch()} />
      ) : (
        (!last.data || last.data.nextCursor !== null) && (
          <div>
            <Button variant="outline" size="sm" disabled={!last.data} onClick={() => setPageCount(pages.length + 1)}>
              {last.data ? "Show more cases" : "Loading..."}
            </Button>
          </div>
        )
      )}
    </div>
  );
}

function ResultCell({ cell, item }: { cell: Cell; item: ItemKey }) {
  return (
    <div className="grid min-w-0 gap-1.5">
      <div className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
        <ItemStatusBadge status={cell.status} />
        {cell.latencyMs !== null && <span className="tabular-nums">{formatMs(cell.latencyMs)}</span>}
        {cell.rateLimited > 0 && <span>{cell.rateLimited === 1 ? "1 rate limit retried" : `${cell.rateLimited} rate limits retried`}</span>}
      </div>
      {cell.output !== null && <p className="line-clamp-6 text-sm whitespace-pre-wrap wrap-anywhere">{previewText(cell.output, cell.outputCut)}</p>}
      {cell.outputCut && <ShowWhole item={item} part="output" />}
      {cell.error && (
        <div className="text-sm wrap-anywhere text-destructive">
          <p>{previewText(cell.error, cell.errorCut)}</p>
          <ErrorDetails detail={cell.errorDetail} />
        </div>
      )}
      {cell.errorCut && <ShowWhole item={item} part="error" />}
      {cell.results && cell.results.length > 0 && <AssertionOutcomes outcomes={cell.results} item={item} />}
    </div>
  );
}

/** A case's variables and expected output in a line each, cut short; whole on request when anything is left out. */
function CaseLines({ testCase, item }: { testCase: Omit<Case, "versions">; item: ItemKey }) {
  return (
    <span className="mt-1 grid gap-1 text-xs wrap-anywhere text-muted-foreground">
      <span>{variablesText(testCase.variables, testCase.variableCount)}</span>
      {testCase.expected && <span>{expectedText(testCase.expected)}</span>}
      {caseCut(testCase.variables, testCase.variableCount, testCase.expected) && (
        <ShowWhole item={item} part="case" />
      )}
    </span>
  );
}

/** What of an item a dialog shows whole: its output, its error, a verdict's reason, or its case (variables and expected output, alike on every version). */
type WholePart = "output" | "error" | "reason" | "case";
/** Which part, and for a reason, which verdict (its index in the item's results, and its assertion in words). */
type WholeOf = { part: WholePart; index?: number; assertion?: string };

/**
 * "Show the whole …": the part of the item read whole in a dialog when opened. Its name goes on to say whose (the
 * case, its version, a reason's assertion): a page holds many alike.
 */
function ShowWhole({ item, ...of }: { item: ItemKey } & WholeOf) {
  const [open, setOpen] = useState(false);
  const whose = of.part === "case" ? ` ${item.position + 1}` : ` of case ${item.position + 1} on ${versionLabel(item.version)}${of.assertion ? ` (${of.assertion})` : ""}`;
  return (
    <span className="block">
      <Button variant="link" size="sm" className="h-auto p-0" aria-label={`Show the whole ${of.part}${whose}`} onClick={() => setOpen(true)}>
        Show the whole {of.part}
      </Button>
      {open && <WholeTextDialog item={item} {...of} onClose={() => setOpen(false)} />}
    </span>
  );
}

/** A variable's value as written: a text as it is, anything else as JSON. */
const valueText = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value, null, 2));

/**
 * One item's output, error, judge's reason or case whole, read when opened (the matrix holds their first characters
 * only). The case's variables come in the server's order, its preview's; a text the item no longer holds (it changed
 * since the page loaded) is said to be gone.
 */
function WholeTextDialog({ item, part, index = 0, assertion, onClose }: { item: ItemKey; onClose(): void } & WholeOf) {
  const whole = trpc.evaluations.item.useQuery(item);
  const text = !whole.data ? null : part === "error" ? whole.data.error : part === "reason" ? whole.data.results?.[index]?.reason : whole.data.output;
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-3xl">
        <DialogHeader>
          <DialogTitle>{part === "case" ? `Case ${item.position + 1}` : `Case ${item.position + 1} on ${versionLabel(item.version)}`}</DialogTitle>
          <DialogDescription>
            {part === "case" ? "The case's variables and expected output, whole." : part === "reason" && assertion ? `The whole reason for the assertion “${assertion}”.` : `The whole ${part}.`}
          </DialogDescription>
        </DialogHeader>
        {whole.isPending ? (
          <SkeletonRows label={`Loading the ${part}`} />
        ) : whole.isError ? (
          <LoadFailure title={`The ${part} could not be loaded`} error={whole.error} onRetry={() => void whole.refetch()} />
        ) : part === "case" ? (
          <dl className="grid max-h-[60vh] gap-2 overflow-auto text-sm" data-testid="whole-case">
            {Object.entries(whole.data.variables).map(([variable, value]) => (
              <div key={variable} className="grid gap-0.5">
                <dt className="font-mono text-xs wrap-anywhere text-muted-foreground">{variable}</dt>
                <dd className="whitespace-pre-wrap wrap-anywhere">{valueText(value)}</dd>
              </div>
            ))}
            {whole.data.expected !== null && (
              <div className="grid gap-0.5">
                <dt className="text-xs text-muted-foreground">Expected output</dt>
                <dd className="whitespace-pre-wrap wrap-anywhere" data-testid="whole-expected">
                  {whole.data.expected}
                </dd>
              </div>
            )}
          </dl>
        ) : text ? (
          <pre className={`max-h-[60vh] overflow-auto text-sm whitespace-pre-wrap wrap-anywhere${part === "error" ? " text-destructive" : ""}`} data-testid={`whole-${part}`}>
            {text}
          </pre>
        ) : (
          <p className="text-sm text-muted-foreground">No longer on this item.</p>
        )}
      </DialogContent>
    </Dialog>
  );
}

/** An item's verdicts (or its failed ones only), each judge's reason cut short opening whole. */
function AssertionOutcomes({ outcomes, item, failedOnly = false }: { outcomes: NonNullable<Cell["results"]>; item: ItemKey; failedOnly?: boolean }) {
  return (
    <ul className="grid gap-1 text-xs" aria-label="Assertions">
      {outcomes.map(
        (outcome, index) =>
          !(failedOnly && outcome.pass) && (
            <li key={index} className="flex min-w-0 gap-1.5" data-pass={outcome.pass}>
              {outcome.pass ? <Check aria-hidden="true" className="size-3.5 shrink-0 text-green-700 dark:text-green-400" /> : <X aria-hidden="true" className="size-3.5 shrink-0 text-destructive" />}
              <span className="min-w-0 wrap-anywhere">
                <span className="sr-only">{outcome.pass ? "Passed: " : "Failed: "}</span>
                {assertionText(outcome)}
                {outcome.reason && <span className="text-muted-foreground"> — {previewText(outcome.reason, outcome.reasonCut)}</span>}
                {outcome.reasonCut && <ShowWhole item={item} part="reason" index={index} assertion={assertionText(outcome)} />}
              </span>
            </li>
          ),
      )}
    </ul>
  );
}

function CompareVersions({ summary }: { summary: Summary }) {
  const [search, setSearch] = usePromptSearch();
  const versions = summary.versions.map((version) => version.version);
  const base = search.base !== undefined && versions.includes(search.base) ? search.base : versions[0]!;
  const candidate = search.candidate !== undefined && versions.includes(search.candidate) ? search.candidate : (versions.find((version) => version !== base) ?? base);
  const active = isActive(summary.status);
  const comparison = trpc.evaluations.compare.useInfiniteQuery({ id: summary.id, base, candidate }, { enabled: !active && base !== candidate, getNextPageParam: (page) => page.nextCursor ?? undefined });
  const flippedCount = comparison.data?.pages[0]!.flippedCount ?? 0;
  const flipped = comparison.data?.pages.flatMap((page) => page.flipped) ?? [];
  return (
    <div className="grid min-w-0 gap-4">
      <div className="flex flex-wrap items-end gap-3">
        <VersionPicker id="compare-base" label="Base" versions={versions} value={base} onChange={(version) => setSearch({ base: version }, { replace: true })} />
        <VersionPicker id="compare-candidate" label="Candidate" versions={versions} value={candidate} onChange={(version) => setSearch({ candidate: version }, { replace: true })} />
      </div>
      {base === candidate ? (
        <p className="text-sm text-muted-foreground">Choose two different versions.</p>
      ) : active ? (
        <p className="text-sm text-muted-foreground">The comparison is ready when the evaluation ends.</p>
      ) : comparison.isPending ? (
        <SkeletonRows label="Loading the comparison" />
      ) : comparison.isError ? (
        <LoadFailure title="The comparison could not be loaded" error={comparison.error} onRetry={() => void comparison.refetch()} />
      ) : (
        <section aria-labelledby="flipped-cases" className="grid min-w-0 gap-3">
          <h3 id="flipped-cases" className="text-sm font-semibold">
            {flippedCount === 0
              ? `No case flipped between ${versionLabel(base)} and ${versionLabel(candidate)}`
              : `${flippedCount} ${flippedCount === 1 ? "case" : "cases"} flipped between ${versionLabel(base)} and ${versionLabel(candidate)}`}
          </h3>
          <ol className="grid min-w-0 gap-4">
            {flipped.map((testCase) => (
              <li key={testCase.position} className="grid min-w-0 gap-2 rounded-lg border p-3" data-testid="flipped-case" aria-label={`Case ${testCase.position + 1}`}>
                <div className="flex flex-wrap items-center gap-2 text-sm">
                  <span className="font-medium">Case {testCase.position + 1}</span>
                  <span className="text-muted-foreground">{versionLabel(base)}</span>
                  <ItemStatusBadge status={testCase.base.status} />
                  <span aria-hidden="true">→</span>
                  <span className="text-muted-foreground">{versionLabel(candidate)}</span>
                  <ItemStatusBadge status={testCase.candidate.status} />
                </div>
                <CaseLines testCase={testCase} item={{ id: summary.id, position: testCase.position, version: base }} />
                <OutputsDiff id={summary.id} position={testCase.position} base={testCase.base} candidate={testCase.candidate} />
                {[testCase.base, testCase.candidate].map(
                  (cell) =>
                    cell.results?.some((outcome) => !outcome.pass) && (
                      <div key={cell.version} className="grid gap-1">
                        <p className="text-xs font-medium">{versionLabel(cell.version)} failed</p>
                        <AssertionOutcomes outcomes={cell.results} item={{ id: summary.id, position: testCase.position, version: cell.version }} failedOnly />
                      </div>
                    ),
                )}
              </li>
            ))}
          </ol>
          {comparison.hasNextPage && (
            <div>
              <Button variant="outline" size="sm" disabled={comparison.isFetchingNextPage} onClick={() => void comparison.fetchNextPage()}>
                {comparison.isFetchingNextPage ? "Loading..." : "Show more cases"}
              </Button>
            </div>
          )}
        </section>
      )}
    </div>
  );
}

/** Two versions' outputs of a case diffed: their first characters, or (asked for, when either was cut) both read whole. */
function OutputsDiff({ id, position, base, candidate }: { id: string; position: number; base: Cell; candidate: Cell }) {
  const [whole, setWhole] = useState(false);
  const label = `Case ${position + 1} output`;
  if (whole) return <WholeOutputsDiff id={id} position={position} base={base.version} candidate={candidate.version} label={label} />;
  return (
    <>
      <LineDiff before={base.output ?? ""} after={candidate.output ?? ""} label={label} />
      {(base.outputCut || candidate.outputCut) && (
        <div>
          <Button variant="link" size="sm" className="h-auto p-0" onClick={() => setWhole(true)}>
            The outputs are cut short: compare them whole
          </Button>
        </div>
      )}
    </>
  );
}

function WholeOutputsDiff({ id, position, base, candidate, label }: { id: string; position: number; base: number; candidate: number; label: string }) {
  const before = trpc.evaluations.item.useQuery({ id, position, version: base });
  const after = trpc.evaluations.item.useQuery({ id, position, version: candidate });
  if (before.isPending || after.isPending) return <SkeletonRows label="Loading the outputs" />;
  if (before.isError || after.isError)
    return <LoadFailure title="The outputs could not be loaded" error={(before.error ?? after.error)!} onRetry={() => void Promise.all([before.refetch(), after.refetch()])} />;
  return <LineDiff before={before.data.output ?? ""} after={after.data.output ?? ""} label={label} />;
}
