// Two versions' production figures compared, one item per figure: the verdict's sentence, each side's
// value and count, and the difference's 95% interval (since the split began, for a current split's two
// sides). The Production tab and a change request's production evidence show the same list. A comparison
// covers the two versions' most counted scores; the list says how many more it left out.
import { PRODUCTION_SCORES_MAX, versionLabel } from "@promptly/shared";
import type { RouterOutputs } from "@promptly/api";
import { formatDateTime } from "@/lib/dates";
import { plural } from "@/lib/plural";
import { comparisonIntervalText, comparisonValueText } from "./comparison-format.ts";

type Comparison = RouterOutputs["production"]["compare"];

export function ComparisonList({ comparison }: { comparison: Comparison }) {
  const { a, b } = comparison;
  const list = (
    <ul className="grid gap-3" aria-label={`${versionLabel(b)} against ${versionLabel(a)}`}>
      {comparison.metrics.map((metric) => (
        <li key={metric.metric} className="grid gap-1 rounded-md border border-border p-3 text-sm wrap-anywhere" data-metric={metric.metric}>
          <p className="font-medium">{metric.verdict}</p>
          <p className="text-muted-foreground">
            {metric.metric}: {versionLabel(a)} {comparisonValueText(metric, "a")} ({metric.a.n.toLocaleString("en-US")}), {versionLabel(b)} {comparisonValueText(metric, "b")} (
            {metric.b.n.toLocaleString("en-US")}); difference 95% CI {comparisonIntervalText(metric)}
            {metric.lowerIsBetter ? ", lower is better" : ""}.{metric.note ? ` ${metric.note}.` : ""}
          </p>
        </li>
      ))}
    </ul>
  );
  if (comparison.since === null && comparison.scoresOmitted === 0) return list;
  return (
    <div className="grid gap-3">
      {comparison.since !== null && (
        <p className="text-sm text-muted-foreground" data-testid="comparison-since">
          Since the split began {formatDateTime(new Date(comparison.since))}.
        </p>
      )}
      {list}
      {comparison.scoresOmitted > 0 && (
        <p className="text-sm text-muted-foreground" data-testid="comparison-scores-omitted">
          {plural(comparison.scoresOmitted, "more score")} not compared: only the {PRODUCTION_SCORES_MAX} given most often are.
        </p>
      )}
    </div>
  );
}
