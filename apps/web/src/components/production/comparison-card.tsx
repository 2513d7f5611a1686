// Two versions compared on every figure they share (error rate, latency, each score): the verdict's
// sentence, each side's value and the difference's interval. The versions are chosen in the card (kept
// in the URL); by default a split label's version and candidate (production's first), else the two
// newest versions with data, the older as the baseline.
import { versionLabel } from "@promptly/shared";
import { LoadFailure } from "@/components/layout/load-failure";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { Skeleton } from "@/components/ui/skeleton";
import { trpc } from "@/lib/trpc";
import { VersionPicker } from "@/components/prompts/version-picker";
import { usePromptSearch } from "@/components/prompts/page/route-api";
import { ComparisonList } from "./comparison-list.tsx";
import { DEFAULT_PRODUCTION_RANGE, productionSpan } from "./production-search.ts";
import { ScoresAllModelsNote } from "./scores-all-models-note.tsx";

interface Label {
  name: string;
  version: number;
  split: { version: number; weight: number } | null;
}

/**
 * `versionsWithData`: the versions the figures show (none while they load or when they failed; a split's two still compare).
 * `scoresAllModels`: the figures' answer says the scores are every model's (a model chosen), and so are the comparison's.
 */
export function ComparisonCard({
  promptId,
  versionsWithData,
  labels,
  environment,
  model,
  scoresAllModels,
}: {
  promptId: string;
  versionsWithData: number[];
  labels: Label[];
  environment?: string;
  model?: string;
  scoresAllModels: boolean;
}) {
  const [search, setSearch] = usePromptSearch();
  const split = labels.find((label) => label.name === "production" && label.split) ?? labels.find((label) => label.split);
  const versions = [...new Set([...versionsWithData, ...(split ? [split.version, split.split!.version] : [])])].sort((x, y) => y - x);
  if (versions.length < 2) return null;
  const b = search.prodB ?? split?.split!.version ?? versions[0]!;
  const a = search.prodA ?? split?.version ?? versions.find((version) => version !== b)!;
  const choose = (side: "prodA" | "prodB", value: string) => setSearch({ [side]: Number(value) }, { replace: true });
  return (
    <Card role="region" aria-labelledby="production-compare-heading">
      <CardHeader>
        <CardTitle id="production-compare-heading">Compare two versions</CardTitle>
        <CardDescription>
          Each figure of the candidate against the baseline over the same range, with its 95% confidence interval.
          {split &&
            ` The ${split.name} label is split: ${versionLabel(split.version)} serves ${100 - split.split!.weight}% of fetches, ${versionLabel(split.split!.version)} ${split.split!.weight}%.`}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="grid gap-3 sm:grid-cols-2">
          {(
            [
              ["prodA", "Baseline", a],
              ["prodB", "Candidate", b],
            ] as const
          ).map(([side, label, value]) => (
            <VersionPicker key={side} id={`production-${side}`} label={label} versions={versions} value={value} onChange={(version) => choose(side, String(version))} triggerClassName="w-full" />
          ))}
        </div>
        {a === b ? (
          <p className="text-sm text-muted-foreground">Choose two different versions to compare.</p>
        ) : (
          <>
            {scoresAllModels && <ScoresAllModelsNote id="production-compare-scores-all-models" />}
            <ComparisonResult promptId={promptId} a={a} b={b} environment={environment} model={model} />
          </>
        )}
      </CardContent>
    </Card>
  );
}

function ComparisonResult({ promptId, a, b, environment, model }: { promptId: string; a: number; b: number; environment?: string; model?: string }) {
  const [search] = usePromptSearch();
  const comparison = trpc.production.compare.useQuery({ promptId, a, b, environment, model, ...productionSpan(search.prodRange ?? DEFAULT_PRODUCTION_RANGE) });
  if (comparison.isPending) return <Skeleton className="h-24 w-full" aria-label="Loading the comparison" />;
  if (comparison.isError) return <LoadFailure title="The comparison could not be loaded" error={comparison.error} onRetry={() => void comparison.refetch()} />;
  return <ComparisonList comparison={comparison.data} />;
}
