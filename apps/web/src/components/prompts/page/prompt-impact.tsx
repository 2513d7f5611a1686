// What archiving or deleting a prompt touches, said in its confirmation: the labels it carries and how
// often API keys fetched it today and yesterday (the usage counters are kept per UTC day).
import { PROTECTED_LABEL, versionLabel } from "@promptly/shared";
import { Badge } from "@/components/ui/badge";
import { trpc } from "@/lib/trpc";
import type { PromptDetail } from "./types.ts";

function fetchesText(total: number[] | undefined, failed: boolean): string {
  if (failed) return "Its fetches could not be counted.";
  if (!total) return "Counting its fetches...";
  const fetches = total.slice(-2).reduce((sum, n) => sum + n, 0);
  return `Fetched ${fetches === 1 ? "once" : `${fetches} times`} by API keys today and yesterday (UTC).`;
}

/** Rendered inside an open dialog only: it asks for the prompt's usage when it appears. */
export function PromptImpact({ prompt }: { prompt: PromptDetail }) {
  const usage = trpc.analytics.prompt.useQuery({ promptId: prompt.id, days: 7 });
  return (
    <>
      {prompt.labels.length === 0 ? (
        <p>It carries no labels.</p>
      ) : (
        <div className="grid gap-1.5">
          <p>Labels it carries:</p>
          <ul aria-label="Labels it carries" className="flex flex-wrap gap-1.5">
            {prompt.labels.map((label) => (
              <li key={label.name}>
                <Badge variant={label.name === PROTECTED_LABEL ? "default" : "secondary"}>{`${label.name} → ${versionLabel(label.version)}`}</Badge>
              </li>
            ))}
          </ul>
        </div>
      )}
      <p role="status">{fetchesText(usage.data?.total, usage.isError)}</p>
    </>
  );
}
