// The Analytics page's charts (Recharts, loaded only with this page). Each chart is drawn for the eye
// (hidden from assistive technology, not focusable) and told by a visually hidden table of the same
// numbers under the chart's heading.
import type { ReactNode } from "react";
import { Bar, BarChart, CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { shortDay } from "./range-select.tsx";

/** Distinct hues that hold contrast on light and dark backgrounds. */
const SERIES_COLORS = ["#2563eb", "#16a34a", "#d97706", "#db2777", "#7c3aed", "#0891b2", "#64748b"];

export interface Series {
  name: string;
  values: number[];
}

/** A chart card: its heading, the drawing (aria-hidden) and the same numbers as a table for screen readers. */
export function ChartSection({ id, title, summary, children, table }: { id: string; title: string; summary: string; children: ReactNode; table: ReactNode }) {
  return (
    <section aria-labelledby={`${id}-heading`} className="min-w-0 rounded-lg border border-border p-4">
      <h2 id={`${id}-heading`} className="text-base font-semibold">
        {title}
      </h2>
      <p className="mb-2 text-sm text-muted-foreground">{summary}</p>
      <div aria-hidden="true" className="h-56 w-full">
        {children}
      </div>
      <div className="sr-only">{table}</div>
    </section>
  );
}

/** Rows of `labels` (days, weeks, stars) by series, as a plain table. */
export function SeriesTable({ caption, corner, labels, series }: { caption: string; corner: string; labels: string[]; series: Series[] }) {
  return (
    <table>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{corner}</th>
          {series.map((s) => (
            <th key={s.name} scope="col">
              {s.name}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {labels.map((label, i) => (
          <tr key={label}>
            <th scope="row">{label}</th>
            {series.map((s) => (
              <td key={s.name}>{s.values[i]}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const rowsOf = (labels: string[], series: Series[]) =>
  labels.map((label, i) => Object.fromEntries([["label", label], ...series.map((s, j) => [`s${j}`, s.values[i] ?? 0])]));

const axis = { fontSize: 12, stroke: "currentColor" } as const;

/** Stacked bars per label (day, week, stars) with one colour per series. */
export function StackedBars({ labels, series, dayLabels = true }: { labels: string[]; series: Series[]; dayLabels?: boolean }) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={rowsOf(labels, series)} accessibilityLayer={false} margin={{ top: 4, right: 4, bottom: 0, left: -16 }}>
        <CartesianGrid strokeDasharray="3 3" opacity={0.3} />
        <XAxis dataKey="label" tick={axis} tickFormatter={dayLabels ? shortDay : undefined} minTickGap={12} />
        <YAxis allowDecimals={false} tick={axis} />
        <Tooltip labelFormatter={(label) => (dayLabels ? shortDay(String(label)) : String(label))} />
        {series.map((s, j) => (
          <Bar key={s.name} dataKey={`s${j}`} name={s.name} stackId="all" fill={SERIES_COLORS[j % SERIES_COLORS.length]} isAnimationActive={false} />
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}

export function Lines({ labels, series }: { labels: string[]; series: Series[] }) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <LineChart data={rowsOf(labels, series)} accessibilityLayer={false} margin={{ top: 4, right: 4, bottom: 0, left: -16 }}>
        <CartesianGrid strokeDasharray="3 3" opacity={0.3} />
        <XAxis dataKey="label" tick={axis} tickFormatter={shortDay} minTickGap={12} />
        <YAxis allowDecimals={false} tick={axis} />
        <Tooltip labelFormatter={(label) => shortDay(String(label))} />
        {series.map((s, j) => (
          <Line key={s.name} dataKey={`s${j}`} name={s.name} dot={false} stroke={SERIES_COLORS[j % SERIES_COLORS.length]} isAnimationActive={false} />
        ))}
      </LineChart>
    </ResponsiveContainer>
  );
}

/** A small line of a prompt's fetches per day, beside its figures (its numbers are in the table). */
export function Sparkline({ values }: { values: number[] }) {
  return (
    <div aria-hidden="true" className="h-8 w-24 shrink-0">
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={values.map((value, i) => ({ i, value }))} accessibilityLayer={false}>
          <Line dataKey="value" dot={false} stroke={SERIES_COLORS[0]} strokeWidth={1.5} isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}

/** Series names with their colours, as a list (the charts carry no legend of their own). */
export function SeriesKey({ series }: { series: Series[] }) {
  return (
    <ul aria-hidden="true" className="mt-2 flex flex-wrap gap-x-3 gap-y-1 text-xs text-muted-foreground">
      {series.map((s, j) => (
        <li key={s.name} className="flex min-w-0 items-center gap-1">
          <span className="size-2 shrink-0 rounded-full" style={{ background: SERIES_COLORS[j % SERIES_COLORS.length] }} />
          <span className="truncate">{s.name}</span>
        </li>
      ))}
    </ul>
  );
}
