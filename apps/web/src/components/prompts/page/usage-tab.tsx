// The Usage tab: the prompt's runtime fetches per UTC day by version, by label and by API
// key, for the last 7, 30 or 90 days, as tables (days without fetches are left out). Key names are
// shown to those who manage the team's keys (as the Teams page does); others see "API key 1", "API key 2"…
import { useState } from "react";
import type { AnalyticsRange } from "@promptly/shared";
import { RangeSelect, shortDay } from "@/components/analytics/range-select";
import { LoadFailure } from "@/components/layout/load-failure";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableFooter, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { trpc } from "@/lib/trpc";
import type { PromptDetail } from "./types.ts";

interface Column {
  name: string;
  daily: number[];
  total: number;
}

function UsageTable({ title, corner, days, columns }: { title: string; corner: string; days: string[]; columns: Column[] }) {
  // Newest day first; only days with a fetch.
  const rows = days.map((day, i) => ({ day, i })).filter(({ i }) => columns.some((c) => c.daily[i])).reverse();
  const headingId = `usage-${title.toLowerCase().replace(/\W+/g, "-")}`;
  return (
    <section aria-labelledby={headingId} className="grid min-w-0 gap-2">
      <h3 id={headingId} className="text-sm font-semibold">
        {title}
      </h3>
      <Table aria-label={title}>
        <TableHeader>
          <TableRow>
            <TableHead>{corner}</TableHead>
            {columns.map((column) => (
              <TableHead key={column.name} className="text-right">
                {column.name}
              </TableHead>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map(({ day, i }) => (
            <TableRow key={day}>
              <TableHead scope="row" className="font-normal">
                <time dateTime={day}>{shortDay(day)}</time>
              </TableHead>
              {columns.map((column) => (
                <TableCell key={column.name} className="text-right tabular-nums">
                  {column.daily[i]}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
        <TableFooter>
          <TableRow>
            <TableHead scope="row">Total</TableHead>
            {columns.map((column) => (
              <TableCell key={column.name} className="text-right font-medium tabular-nums">
                {column.total}
              </TableCell>
            ))}
          </TableRow>
        </TableFooter>
      </Table>
    </section>
  );
}

export function UsageTab({ prompt }: { prompt: PromptDetail }) {
  const [days, setDays] = useState<AnalyticsRange>(30);
  const usage = trpc.analytics.prompt.useQuery({ promptId: prompt.id, days });
  return (
    <div className="grid min-w-0 gap-4">
      <RangeSelect id="usage-range" value={days} onChange={setDays} />
      {usage.isPending ? (
        <Skeleton className="h-40 w-full" aria-label="Loading usage" />
      ) : usage.isError ? (
        <LoadFailure title="The usage could not be loaded" error={usage.error} onRetry={usage.refetch} />
      ) : usage.data.keys.length === 0 ? (
        <p className="rounded-lg border border-dashed border-border p-6 text-center text-sm text-muted-foreground">
          No runtime fetches of this prompt in the last {days} days. Fetches through the API with a key show here within seconds.
        </p>
      ) : (
        <>
          <p className="text-sm" data-testid="usage-total">
            {usage.data.total.reduce((sum, n) => sum + n, 0)} fetches in the last {days} days (UTC days).
          </p>
          <UsageTable
            title="Fetches per day by version"
            corner="Day (UTC)"
            days={usage.data.days}
            columns={usage.data.versions.map((v) => ({ ...v, name: `v${v.version}` }))}
          />
          <UsageTable title="Fetches per day by label" corner="Day (UTC)" days={usage.data.days} columns={usage.data.labels.map((l) => ({ ...l, name: l.label }))} />
          <UsageTable title="Fetches per day by API key" corner="Day (UTC)" days={usage.data.days} columns={usage.data.keys} />
        </>
      )}
    </div>
  );
}
