// How a comparison's figures read: each side's value (a rate in percent, a latency in ms or s, a cost in
// dollars, a mean as it is) and the difference's interval, with as many decimals as tell them apart.
import { differenceDecimals } from "@promptly/shared";
import type { RouterOutputs } from "@promptly/api";
import { formatCost, formatMs } from "../runs/run-format.ts";

type Metric = RouterOutputs["production"]["compare"]["metrics"][number];

/** The most decimals of a percent a rate is shown with. */
const MAX_RATE_DECIMALS = 3;

/** A rate in percent: whole where that tells it from 0 and from the other side's, else with the decimals that do (0.10% against 0.13%). */
function rateText(value: number, other: number | null): string {
  const percent = value * 100;
  const otherPercent = other === null ? null : other * 100;
  let decimals = 0;
  const unclear = () =>
    (percent !== 0 && Number(percent.toFixed(decimals)) === 0) ||
    (otherPercent !== null && otherPercent !== percent && otherPercent.toFixed(decimals) === percent.toFixed(decimals));
  while (decimals < MAX_RATE_DECIMALS && unclear()) decimals += 1;
  return `${Number(percent.toFixed(decimals)).toLocaleString("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals })}%`;
}

/** A side's value as the metric reads; `side` names it, so a rate is told apart from the other side's. */
export function comparisonValueText(metric: Metric, side: "a" | "b"): string {
  const value = metric[side].value;
  if (value === null) return "–";
  if (metric.kind === "proportion") return rateText(value, metric[side === "a" ? "b" : "a"].value);
  if (metric.unit === "ms") return formatMs(value);
  if (metric.unit === "USD") return formatCost(value);
  return value.toLocaleString("en-US", { maximumFractionDigits: 2 });
}

/** The difference's interval in the metric's units (points for rates, dollars for costs). */
export function comparisonIntervalText(metric: Metric): string {
  if (metric.lower === null || metric.upper === null) return "–";
  if (metric.unit === "USD") {
    // Two significant digits of each end, as costs read elsewhere: +$0.0000050, not 0.
    const signed = (value: number) => (value === 0 ? "$0" : `${value < 0 ? "-" : "+"}${formatCost(Math.abs(value))}`);
    return `${signed(metric.lower)} to ${signed(metric.upper)}`;
  }
  const scale = metric.kind === "proportion" ? 100 : 1;
  const unit = metric.kind === "proportion" ? " points" : metric.unit ? ` ${metric.unit}` : "";
  // The decimals the verdict's sentence uses; grouped like the counts beside it: +144,706.81 ms, not +144706.81.
  const decimals = differenceDecimals(metric.kind, metric.lower, metric.upper);
  const signed = (value: number) => {
    const rounded = Number((value * scale).toFixed(decimals)) || 0; // no "-0"
    return `${rounded > 0 ? "+" : ""}${rounded.toLocaleString("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals })}`;
  };
  return `${signed(metric.lower)} to ${signed(metric.upper)}${unit}`;
}
