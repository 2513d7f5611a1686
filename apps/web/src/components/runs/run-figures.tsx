// Runs on models per version, as a table: runs, error rate, p50/p95 total time, mean tokens in / out and
// mean cost. The Runs tab shows one prompt's; /analytics every readable prompt's (a Prompt column first).
import type { ReactNode } from "react";
import { versionLabel, type VersionRunStats } from "@promptly/shared";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatCost, formatMs, formatRate, formatTokens } from "./run-format.ts";

export interface RunFiguresRow extends VersionRunStats {
  /** Set when the table lists several prompts (its first column). */
  prompt?: ReactNode;
  key: string;
}

export function RunFiguresTable({ label, rows }: { label: string; rows: RunFiguresRow[] }) {
  const withPrompt = rows.some((row) => row.prompt !== undefined);
  return (
    <Table aria-label={label}>
      <TableHeader>
        <TableRow>
          {withPrompt && <TableHead>Prompt</TableHead>}
          <TableHead>Version</TableHead>
          <TableHead className="text-right">Runs</TableHead>
          <TableHead className="text-right">Error rate</TableHead>
          <TableHead className="text-right">p50 time</TableHead>
          <TableHead className="text-right">p95 time</TableHead>
          <TableHead className="text-right">Mean tokens in / out</TableHead>
          <TableHead className="text-right">Mean cost</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((row) => (
          <TableRow key={row.key} data-version={row.version}>
            {withPrompt && <TableCell>{row.prompt}</TableCell>}
            <TableHead scope="row" className="font-mono font-normal">
              {versionLabel(row.version)}
            </TableHead>
            <TableCell className="text-right tabular-nums">{row.runs.toLocaleString("en-US")}</TableCell>
            <TableCell className="text-right tabular-nums">{formatRate(row.errorRate)}</TableCell>
            <TableCell className="text-right tabular-nums">{formatMs(row.p50TotalMs)}</TableCell>
            <TableCell className="text-right tabular-nums">{formatMs(row.p95TotalMs)}</TableCell>
            <TableCell className="text-right tabular-nums">{formatTokens(row.meanInputTokens, row.meanOutputTokens)}</TableCell>
            <TableCell className="text-right tabular-nums">{formatCost(row.meanCost)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** One version's figures in a line, for beside a version in the History tab. */
export function runFiguresLine(row: VersionRunStats): string {
  const runs = `${row.runs.toLocaleString("en-US")} run${row.runs === 1 ? "" : "s"}`;
  return [runs, `${formatRate(row.errorRate)} errors`, `p50 ${formatMs(row.p50TotalMs)}`, `p95 ${formatMs(row.p95TotalMs)}`, `${formatTokens(row.meanInputTokens, row.meanOutputTokens)} tokens in / out`, `${formatCost(row.meanCost)} a run`].join(" · ");
}
