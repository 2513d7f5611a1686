// A change request's production evidence, beside its evaluations: the two versions the move decides
// between, compared on what the team's applications reported (the Production tab's comparison, over its
// default range, up to when the request closed). Starting a split compares its candidate with production's
// version, a promotion or a plain move the proposed version with the one it replaces (shown when the
// proposed version has production data), and a rollback the split production serves now.
import { Link } from "@tanstack/react-router";
import { Gauge } from "lucide-react";
import { PRODUCTION_RANGE_HOURS, versionLabel } from "@promptly/shared";
import type { RouterOutputs } from "@promptly/api";
import { ComparisonList } from "@/components/production/comparison-list";
import { DEFAULT_PRODUCTION_RANGE, productionSpan } from "@/components/production/production-search";
import { LoadFailure } from "@/components/layout/load-failure";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { formatDateTime } from "@/lib/dates";
import { trpc } from "@/lib/trpc";

type ChangeRequest = RouterOutputs["changeRequests"]["get"];

/** The two versions to compare, as production.compare takes them; null when the request moves nothing to compare. */
function comparedVersions(request: ChangeRequest): { a: number; b: number } | { label: string } | null {
  if (request.proposedVersion === null || request.baseVersion === null) return null;
  // A rollback keeps production's version alone: the split it ends is production's own, while it lasts.
  if (request.proposedVersion === request.baseVersion) return request.closedAt === null ? { label: request.label } : null;
  return { a: request.baseVersion, b: request.proposedVersion };
}

export function ProductionEvidence({ request }: { request: ChangeRequest }) {
  const versions = comparedVersions(request);
  const end = request.closedAt ?? null;
  const span = productionSpan(DEFAULT_PRODUCTION_RANGE, end ? end.getTime() : Date.now());
  const comparison = trpc.production.compare.useQuery({ promptId: request.promptId, ...versions, ...span }, { enabled: versions !== null, retry: false });
  // A split (its start or its end) is decided on this evidence, even while it says there is not enough yet.
  const aboutSplit = request.proposedWeight !== null || request.proposedVersion === request.baseVersion;
  if (versions === null) return null;
  if (comparison.isPending) return aboutSplit ? <Skeleton className="h-32" aria-label="Loading the production evidence" /> : null;
  if (comparison.isError) {
    // A rollback whose split has ended meanwhile has nothing left to compare.
    if (comparison.error.data?.code === "BAD_REQUEST") return null;
    return <LoadFailure title="The production evidence could not be loaded" error={comparison.error} onRetry={() => void comparison.refetch()} />;
  }
  const { a, b } = comparison.data;
  if (!aboutSplit && !comparison.data.metrics.some((metric) => metric.b.n > 0)) return null;
  return (
    <Card data-testid="production-evidence" role="region" aria-labelledby="production-evidence-heading">
      <CardHeader>
        <CardTitle level={2} id="production-evidence-heading" className="flex items-center gap-2 text-lg">
          <Gauge aria-hidden="true" className="size-5 text-muted-foreground" />
          Production
        </CardTitle>
        <CardDescription>
          {`${versionLabel(b)} against ${versionLabel(a)} on what your applications reported over the ${PRODUCTION_RANGE_HOURS[DEFAULT_PRODUCTION_RANGE] / 24} days ${end ? `up to ${formatDateTime(end)}` : "up to now"}, each difference with its 95% confidence interval.`}{" "}
          <Link
            to="/prompts/$promptId"
            params={{ promptId: request.promptId }}
            search={{ tab: "production", prodA: a, prodB: b }}
            className="font-medium text-foreground underline underline-offset-4"
          >
            Open the Production tab
          </Link>
        </CardDescription>
      </CardHeader>
      <CardContent className="min-w-0">
        <ComparisonList comparison={comparison.data} />
      </CardContent>
    </Card>
  );
}
