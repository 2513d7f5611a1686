// /analytics: runtime fetches, versions, ratings and bookmarks of the prompts the person
// may read in the active organization (or one of its teams), for the last 7, 30 or 90 UTC days.
// Every figure comes from analytics.overview; the CSV holds the table's own numbers. Runs on models
// (Playground and API runs) are counted per prompt and version beside the fetches.
import { useMemo, useState } from "react";
import { Link, getRouteApi } from "@tanstack/react-router";
import { ArrowDown, ArrowUp, Download } from "lucide-react";
import type { RouterOutputs } from "@promptly/api";
import { versionLabel, type AnalyticsRange } from "@promptly/shared";
import { LoadFailure } from "@/components/layout/load-failure";
import { WorkspaceGate } from "@/components/layout/workspace-gate";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { RunFiguresTable } from "@/components/runs/run-figures";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { trpc } from "@/lib/trpc";
import { plural } from "@/lib/plural";
import { saveFile } from "@/lib/save-file";
import { useWorkspace } from "@/lib/workspace";
import { ChartSection, Lines, SeriesKey, SeriesTable, Sparkline, StackedBars, type Series } from "./charts.tsx";
import { analyticsCsv } from "./csv.ts";
import { RangeSelect, shortDay } from "./range-select.tsx";

type Overview = RouterOutputs["analytics"]["overview"];
type PromptRow = Overview["prompts"][number];

const routeApi = getRouteApi("/app/analytics");
const ALL_TEAMS = "all";
/** Prompts drawn one by one in "by prompt"; the rest are summed as "Other prompts". */
const CHART_PROMPTS = 5;

const sum = (values: number[]) => values.reduce((total, n) => total + n, 0);

function Filters({ days, teamId, onChange }: { days: AnalyticsRange; teamId?: string; onChange: (patch: { days?: AnalyticsRange; teamId?: string }) => void }) {
  const { teams } = useWorkspace();
  return (
    <div className="grid gap-3 sm:flex sm:flex-wrap sm:items-end">
      <RangeSelect id="analytics-range" value={days} onChange={(next) => onChange({ days: next, teamId })} />
      <div className="grid gap-1.5">
        <Label htmlFor="analytics-team">Team</Label>
        <Select value={teamId ?? ALL_TEAMS} onValueChange={(next) => onChange({ days, teamId: next === ALL_TEAMS ? undefined : next })}>
          <SelectTrigger id="analytics-team" className="w-full sm:w-56">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={ALL_TEAMS}>All teams</SelectItem>
            {teams.map((team) => (
              <SelectItem key={team.id} value={team.id}>
                {team.name}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
    </div>
  );
}

/** Monday (UTC) of each week the range touches, as the server groups versions (date_trunc('week')). */
function weeksOf(days: string[]): string[] {
  const weeks = days.map((day) => {
    const date = new Date(`${day}T00:00:00Z`);
    date.setUTCDate(date.getUTCDate() - ((date.getUTCDay() + 6) % 7));
    return date.toISOString().slice(0, 10);
  });
  return [...new Set(weeks)];
}

function Empty({ children }: { children: string }) {
  return <p className="rounded-lg border border-dashed border-border p-6 text-center text-sm text-muted-foreground">{children}</p>;
}

function FetchCharts({ overview, range }: { overview: Overview; range: string }) {
  const ranked = [...overview.prompts].filter((p) => p.fetches > 0).sort((a, b) => b.fetches - a.fetches || a.name.localeCompare(b.name));
  const total = sum(ranked.map((p) => p.fetches));
  if (!total) {
    return (
      <section aria-labelledby="fetches-heading" className="grid gap-2">
        <h2 id="fetches-heading" className="text-base font-semibold">
          Runtime fetches
        </h2>
        <Empty>{`No runtime fetches ${range}. Fetches of these prompts through the API with a key show here within seconds.`}</Empty>
      </section>
    );
  }
  const shown = ranked.slice(0, CHART_PROMPTS);
  const rest = ranked.slice(CHART_PROMPTS);
  const byPrompt: Series[] = shown.map((p) => ({ name: p.name, values: p.daily }));
  if (rest.length) byPrompt.push({ name: "Other prompts", values: overview.days.map((_, i) => sum(rest.map((p) => p.daily[i] ?? 0))) });
  const byLabel: Series[] = overview.labels.map((l) => ({ name: l.label, values: l.daily }));
  const days = overview.days;
  return (
    <>
      <p className="text-sm" data-testid="analytics-total">
        {plural(total, "runtime fetch", "runtime fetches")} {range}, of {plural(ranked.length, "prompt")}.
      </p>
      <div className="grid gap-4 lg:grid-cols-2">
        <ChartSection
          id="by-prompt"
          title="Fetches per day by prompt"
          summary={`Most fetched: ${shown[0]!.name} (${plural(shown[0]!.fetches, "fetch", "fetches")}).`}
          table={<SeriesTable caption="Fetches per day by prompt" corner="Day (UTC)" labels={days} series={byPrompt} />}
        >
          <StackedBars labels={days} series={byPrompt} />
        </ChartSection>
        <ChartSection
          id="by-label"
          title="Fetches per day by label"
          summary={byLabel.map((s) => `${s.name}: ${sum(s.values)}`).join(", ") + "."}
          table={<SeriesTable caption="Fetches per day by label" corner="Day (UTC)" labels={days} series={byLabel} />}
        >
          <StackedBars labels={days} series={byLabel} />
        </ChartSection>
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <SeriesKey series={byPrompt} />
        <SeriesKey series={byLabel} />
      </div>
      <section aria-labelledby="top-heading" className="rounded-lg border border-border p-4">
        <h2 id="top-heading" className="text-base font-semibold">
          Top prompts by fetches
        </h2>
        <ol className="mt-2 grid gap-2">
          {ranked.slice(0, 10).map((p, i) => (
            <li key={p.id} className="flex min-w-0 items-center gap-3 text-sm">
              <span className="w-5 shrink-0 text-right text-muted-foreground">{i + 1}.</span>
              <span className="min-w-0 flex-1 truncate font-medium">{p.name}</span>
              <Sparkline values={p.daily} />
              <span className="w-20 shrink-0 text-right tabular-nums">{plural(p.fetches, "fetch", "fetches")}</span>
            </li>
          ))}
        </ol>
      </section>
    </>
  );
}

/** Per prompt and version: runs, error rate, latency, tokens and cost over the range. */
function RunFigures({ overview, range }: { overview: Overview; range: string }) {
  const names = new Map(overview.prompts.map((p) => [p.id, p.name]));
  const rows = overview.runs
    .filter((row) => names.has(row.promptId))
    .map((row) => ({
      ...row,
      key: `${row.promptId}-${row.version}`,
      prompt: (
        <Link
          to="/prompts/$promptId"
          params={{ promptId: row.promptId }}
          search={{ tab: "runs", runVersion: row.version }}
          aria-label={`${names.get(row.promptId)} ${versionLabel(row.version)}: its runs`}
          className="font-medium text-primary underline-offset-4 hover:underline"
        >
          {names.get(row.promptId)}
        </Link>
      ),
    }))
    .sort((a, b) => names.get(a.promptId)!.localeCompare(names.get(b.promptId)!) || b.version - a.version);
  const runs = sum(rows.map((row) => row.runs));
  return (
    <section aria-labelledby="runs-heading" className="grid gap-2">
      <h2 id="runs-heading" className="text-base font-semibold">
        Runs on models
      </h2>
      {rows.length ? (
        <>
          <p className="text-sm" data-testid="analytics-runs-total">
            {plural(runs, "run")} {range}, of {plural(new Set(rows.map((row) => row.promptId)).size, "prompt")}.
          </p>
          <RunFiguresTable label="Runs per prompt and version" rows={rows} />
        </>
      ) : (
        <Empty>{`No runs on models ${range}. Runs from a prompt's Playground and from applications through the API's run endpoint show here.`}</Empty>
      )}
    </section>
  );
}

function ActivityCharts({ overview, range }: { overview: Overview; range: string }) {
  const weeks = weeksOf(overview.days);
  const perWeek = weeks.map((week) => overview.versionsPerWeek.find((w) => w.week === week)?.count ?? 0);
  const versions = sum(perWeek);
  const starLabels = overview.ratings.map((r) => plural(r.stars, "star"));
  const ratingCount = sum(overview.ratings.map((r) => r.count));
  const bookmarks = overview.bookmarks;
  const added = sum(bookmarks.map((b) => b.added));
  return (
    <div className="grid gap-4 lg:grid-cols-3">
      {versions ? (
        <ChartSection
          id="versions"
          title="Versions saved per week"
          summary={`${plural(versions, "version")} saved ${range}.`}
          table={<SeriesTable caption="Versions saved per week" corner="Week of (UTC)" labels={weeks} series={[{ name: "Versions", values: perWeek }]} />}
        >
          <StackedBars labels={weeks} series={[{ name: "Versions", values: perWeek }]} />
        </ChartSection>
      ) : (
        <EmptyCard id="versions" title="Versions saved per week" text={`No versions saved ${range}.`} />
      )}
      {ratingCount ? (
        <ChartSection
          id="ratings"
          title="Ratings distribution"
          summary={`${plural(ratingCount, "rating")} in all: ${overview.ratings.map((r) => `${r.count} × ${r.stars}`).join(", ")}.`}
          table={<SeriesTable caption="Ratings distribution" corner="Stars" labels={starLabels} series={[{ name: "Ratings", values: overview.ratings.map((r) => r.count) }]} />}
        >
          <StackedBars labels={starLabels} series={[{ name: "Ratings", values: overview.ratings.map((r) => r.count) }]} dayLabels={false} />
        </ChartSection>
      ) : (
        <EmptyCard id="ratings" title="Ratings distribution" text="No ratings yet." />
      )}
      {bookmarks.at(-1)?.total ? (
        <ChartSection
          id="bookmarks"
          title="Bookmarks over time"
          summary={`${plural(bookmarks.at(-1)!.total, "bookmark")} now, ${added} added ${range}.`}
          table={
            <SeriesTable
              caption="Bookmarks over time"
              corner="Day (UTC)"
              labels={overview.days}
              series={[{ name: "Bookmarks", values: bookmarks.map((b) => b.total) }, { name: "Added", values: bookmarks.map((b) => b.added) }]}
            />
          }
        >
          <Lines labels={overview.days} series={[{ name: "Bookmarks", values: bookmarks.map((b) => b.total) }]} />
        </ChartSection>
      ) : (
        <EmptyCard id="bookmarks" title="Bookmarks over time" text="No bookmarks yet." />
      )}
    </div>
  );
}

function EmptyCard({ id, title, text }: { id: string; title: string; text: string }) {
  return (
    <section aria-labelledby={`${id}-heading`} className="grid content-start gap-2 rounded-lg border border-border p-4">
      <h2 id={`${id}-heading`} className="text-base font-semibold">
        {title}
      </h2>
      <Empty>{text}</Empty>
    </section>
  );
}

type SortKey = "name" | "fetches" | "lastFetched" | "productionVersion" | "rating" | "bookmarks";
const COLUMNS: { key: SortKey; label: string; numeric?: boolean }[] = [
  { key: "name", label: "Prompt" },
  { key: "fetches", label: "Fetches", numeric: true },
  { key: "lastFetched", label: "Last fetched" },
  { key: "productionVersion", label: "Production version", numeric: true },
  { key: "rating", label: "Rating", numeric: true },
  { key: "bookmarks", label: "Bookmarks", numeric: true },
];

function sortValue(row: PromptRow, key: SortKey): string | number {
  if (key === "name") return row.name;
  if (key === "rating") return row.ratingCount ? row.ratingAverage : -1;
  if (key === "lastFetched") return row.lastFetched ?? "";
  if (key === "productionVersion") return row.productionVersion ?? -1;
  return row[key];
}

const download = (name: string, text: string) => saveFile(name, text, "text/csv;charset=utf-8");

function PromptTable({ overview, days }: { overview: Overview; days: AnalyticsRange }) {
  const [sort, setSort] = useState<{ key: SortKey; descending: boolean }>({ key: "fetches", descending: true });
  const rows = useMemo(() => {
    const sorted = [...overview.prompts].sort((a, b) => {
      const x = sortValue(a, sort.key);
      const y = sortValue(b, sort.key);
      const order = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
      return (sort.descending ? -order : order) || a.name.localeCompare(b.name);
    });
    return sorted;
  }, [overview.prompts, sort]);
  const toggle = (key: SortKey) => setSort((current) => ({ key, descending: current.key === key ? !current.descending : key !== "name" }));
  return (
    <section aria-labelledby="prompts-heading" className="grid gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="prompts-heading" className="text-base font-semibold">
          Prompts
        </h2>
        <Button variant="outline" size="sm" disabled={!rows.length} onClick={() => download(`promptly-analytics-${days}-days.csv`, analyticsCsv(overview, rows))}>
          <Download aria-hidden="true" />
          Download CSV
        </Button>
      </div>
      {rows.length === 0 ? (
        <Empty>No prompts you can read here yet.</Empty>
      ) : (
        <Table aria-label="Prompts">
          <TableHeader>
            <TableRow>
              {COLUMNS.map((column) => {
                const active = sort.key === column.key;
                return (
                  <TableHead
                    key={column.key}
                    aria-sort={active ? (sort.descending ? "descending" : "ascending") : undefined}
                    className={column.numeric ? "text-right" : undefined}
                  >
                    <button type="button" className="inline-flex items-center gap-1 font-medium hover:underline" onClick={() => toggle(column.key)}>
                      {column.label}
                      {active && (sort.descending ? <ArrowDown aria-hidden="true" className="size-3" /> : <ArrowUp aria-hidden="true" className="size-3" />)}
                    </button>
                  </TableHead>
                );
              })}
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={row.id}>
                <TableCell>
                  <span className="font-medium">{row.name}</span>
                  <span className="block text-xs text-muted-foreground">{row.teamName}</span>
                </TableCell>
                <TableCell className="text-right tabular-nums">{row.fetches}</TableCell>
                <TableCell>{row.lastFetched ? shortDay(row.lastFetched) : "Never"}</TableCell>
                <TableCell className="text-right tabular-nums">{row.productionVersion === null ? "–" : `v${row.productionVersion}`}</TableCell>
                <TableCell className="text-right tabular-nums">{row.ratingCount ? `${row.ratingAverage.toFixed(1)} (${row.ratingCount})` : "–"}</TableCell>
                <TableCell className="text-right tabular-nums">{row.bookmarks}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </section>
  );
}

function Overview({ organizationId }: { organizationId: string }) {
  const search = routeApi.useSearch();
  const navigate = routeApi.useNavigate();
  const { teams } = useWorkspace();
  const days: AnalyticsRange = search.days ?? 30;
  // A team that is not one of the active organization's (another organization chosen meanwhile) means all teams.
  const teamId = teams.some((team) => team.id === search.teamId) ? search.teamId : undefined;
  const query = trpc.analytics.overview.useQuery({ organizationId, teamId, days });
  const range = `in the last ${days} days`;
  return (
    <>
      <Filters days={days} teamId={teamId} onChange={(patch) => void navigate({ search: patch, replace: true })} />
      {query.isPending ? (
        <Skeleton className="h-64 w-full" aria-label="Loading" />
      ) : query.isError ? (
        <LoadFailure title="The analytics could not be loaded" error={query.error} onRetry={query.refetch} />
      ) : (
        <>
          <FetchCharts overview={query.data} range={range} />
          <RunFigures overview={query.data} range={range} />
          <ActivityCharts overview={query.data} range={range} />
          <PromptTable overview={query.data} days={days} />
        </>
      )}
    </>
  );
}

export function AnalyticsPage() {
  return (
    <div className="min-w-0 space-y-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">Analytics</h1>
        <p className="text-sm text-muted-foreground">Usage of the prompts you can read, by UTC day. Runtime fetches are counted every few seconds.</p>
      </div>
      <WorkspaceGate>{(organization) => <Overview organizationId={organization.id} />}</WorkspaceGate>
    </div>
  );
}
