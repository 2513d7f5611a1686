// Two versions' production figures compared, one item per figure: the verdict's sentence, each side's
// value and count, and the difference's 95% interval. The Production tab and a change request's
// production evidence show the same list.
import { versionLabel } from "@promptly/shared";
import type { RouterOutputs } from "@promptly/api";
import { formatMs, formatRate } from "@/components/runs/run-format";

type Comparison = RouterOutputs["production"]["compare"];
type Metric = Comparison["metrics"][number];

/** A side's value as the metric reads: a rate in percent, a latency in ms or s, a mean as it is. */
function valueText(metric: Metric, value: number | null): string {
  if (value === null) return "–";
  if (metric.kind === "proportion") return formatRate(value);
  if (metric.unit === "ms") return formatMs(value);
  return value.toLocaleString("en-US", { maximumFractionDigits: 2 });
}

/** The difference's interval in the metric's units (points for rates). */
function intervalText(metric: Metric): string {
  if (metric.lower === null || metric.upper === null) return "–";
  const scale = metric.kind === "proportion" ? 100 : 1;
  const unit = metric.kind === "proportion" ? " points" : metric.unit ? ` ${metric.unit}` : "";
  // Grouped like the counts beside it: a latency interval of +144,706.81 ms, not +144706.81.
  const decimals = metric.kind === "proportion" ? 1 : 2;
  const signed = (value: number) => {
    const rounded = Number((value * scale).toFixed(decimals)) || 0; // no "-0"
    return `${rounded > 0 ? "+" : ""}${rounded.toLocaleString("en-US", { maximumFractionDigits: decimals })}`;
  };
  return `${signed(metric.lower)} to ${signed(metric.upper)}${unit}`;
}

export function ComparisonList({ comparison }: { comparison: Comparison }) {
  const { a, b } = comparison;
  return (
    <ul className="grid gap-3" aria-label={`${versionLabel(b)} against ${versionLabel(a)}`}>
      {comparison.metrics.map((metric) => (
        <li key={metric.metric} className="grid gap-1 rounded-md border border-border p-3 text-sm wrap-anywhere" data-metric={metric.metric}>
          <p className="font-medium">{metric.verdict}</p>
          <p className="text-muted-foreground">
            {metric.metric}: {versionLabel(a)} {valueText(metric, metric.a.value)} ({metric.a.n.toLocaleString("en-US")}), {versionLabel(b)} {valueText(metric, metric.b.value)} (
            {metric.b.n.toLocaleString("en-US")}); difference 95% CI {intervalText(metric)}
            {metric.lowerIsBetter ? ", lower is better" : ""}.{metric.note ? ` ${metric.note}.` : ""}
          </p>
        </li>
      ))}
    </ul>
  );
}
