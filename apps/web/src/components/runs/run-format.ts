// How a run's figures read: times in ms or s, costs in US dollars down to fractions of a cent, rates in percent.
import type { RUN_STATUSES } from "@promptly/shared";

export type RunStatus = (typeof RUN_STATUSES)[number];

const NONE = "–";

/** 850 ms, 1.2 s, 12 s; "–" when unknown (no first token came). */
export function formatMs(ms: number | null): string {
  if (ms === null) return NONE;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  return `${seconds < 10 ? seconds.toFixed(1) : Math.round(seconds).toLocaleString("en-US")} s`;
}

const cents = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 2 });
// A run often costs a fraction of a cent: two significant digits say how much.
const fractions = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumSignificantDigits: 2 });

/** $1.25, $0.0012, $0; "–" when unknown (no price for the model, or no usage reported). */
export function formatCost(dollars: number | null): string {
  if (dollars === null) return NONE;
  if (dollars === 0) return "$0";
  return dollars >= 1 ? cents.format(dollars) : fractions.format(dollars);
}

/** Tokens in / out, each "–" when the provider reported none; means are rounded. */
export function formatTokens(input: number | null, output: number | null): string {
  const one = (n: number | null) => (n === null ? NONE : Math.round(n).toLocaleString("en-US"));
  return `${one(input)} / ${one(output)}`;
}

/** 0.333… reads 33%; a rate under 1% that is not zero reads "<1%", one over 99% that is not all ">99%". */
export function formatRate(rate: number): string {
  if (rate > 0 && rate < 0.01) return "<1%";
  if (rate > 0.99 && rate < 1) return ">99%";
  return `${Math.round(rate * 100)}%`;
}

export const RUN_STATUS_LABELS: Record<RunStatus, string> = { succeeded: "Succeeded", failed: "Failed", stopped: "Stopped" };
