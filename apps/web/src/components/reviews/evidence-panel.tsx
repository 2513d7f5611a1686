// A change request's evidence: the proposed version's latest finished evaluation beside the production
// version's (on the same cases where one evaluation ran both), each linked, and the team's required pass rate.
import { Link } from "@tanstack/react-router";
import { FlaskConical } from "lucide-react";
import { EVALUATION_MSG, versionLabel } from "@promptly/shared";
import type { RouterOutputs } from "@promptly/api";
import { formatPassRate } from "@/components/evaluations/evaluation-format";
import { LoadFailure } from "@/components/layout/load-failure";
import { formatCost, formatMs } from "@/components/runs/run-format";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatDateTime } from "@/lib/dates";
import { trpc } from "@/lib/trpc";

type Evidence = RouterOutputs["changeRequests"]["evidence"];
type VersionEvidence = NonNullable<Evidence["candidate"]>;

interface EvidencePanelProps {
  changeRequestId: string;
  promptId: string;
  proposedVersion: number;
  productionVersion: number | null;
}

export function EvidencePanel({ changeRequestId, promptId, proposedVersion, productionVersion }: EvidencePanelProps) {
  const evidence = trpc.changeRequests.evidence.useQuery({ id: changeRequestId });
  return (
    <Card data-testid="evidence-panel">
      <CardHeader>
        <CardTitle level={2} className="flex items-center gap-2 text-lg">
          <FlaskConical aria-hidden="true" className="size-5 text-muted-foreground" />
          Evaluations
        </CardTitle>
        <CardDescription>
          {evidence.data
            ? evidence.data.requiredPassRate === null
              ? "This team requires no pass rate before production moves."
              : `This team requires the proposed version to pass ${formatPassRate(evidence.data.requiredPassRate)} of its cases in its latest evaluation before production moves.`
            : "The proposed version's latest evaluation beside production's."}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid min-w-0 gap-3">
        {evidence.isPending ? (
          <Skeleton className="h-24" aria-label="Loading the evaluations" />
        ) : evidence.isError ? (
          <LoadFailure title="The evaluations could not be loaded" error={evidence.error} onRetry={() => void evidence.refetch()} />
        ) : (
          <EvidenceTable evidence={evidence.data} promptId={promptId} proposedVersion={proposedVersion} productionVersion={productionVersion} />
        )}
      </CardContent>
    </Card>
  );
}

function EvidenceTable({ evidence, promptId, proposedVersion, productionVersion }: { evidence: Evidence } & Omit<EvidencePanelProps, "changeRequestId">) {
  const rows: { role: string; version: number | null; figures: VersionEvidence | null }[] = [
    { role: "Proposed", version: proposedVersion, figures: evidence.candidate },
    ...(productionVersion !== null && productionVersion !== proposedVersion ? [{ role: "Production", version: productionVersion, figures: evidence.production }] : []),
  ];
  return (
    <>
      <Table aria-label="Evaluations of the proposed and production versions">
        <TableHeader>
          <TableRow>
            <TableHead>Version</TableHead>
            <TableHead className="text-right">Pass rate</TableHead>
            <TableHead className="text-right">Cases passed</TableHead>
            <TableHead className="text-right">p50 latency</TableHead>
            <TableHead className="text-right">Tokens</TableHead>
            <TableHead className="text-right">Cost</TableHead>
            <TableHead>Evaluation</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map(({ role, version, figures }) => (
            <TableRow key={role} data-testid="evidence-row" data-role={role.toLowerCase()}>
              <TableCell className="whitespace-nowrap">
                {role} <span className="font-mono">{version === null ? "" : versionLabel(version)}</span>
              </TableCell>
              {figures ? (
                <>
                  <TableCell className="text-right font-medium tabular-nums">{formatPassRate(figures.passRate)}</TableCell>
                  <TableCell className="text-right tabular-nums">
                    {figures.passed} of {figures.total}
                    {figures.errors > 0 && (
                      <span className="block text-destructive" title={figures.firstError ?? undefined}>
                        {EVALUATION_MSG.casesCouldNotRun(figures.errors)}
                      </span>
                    )}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{formatMs(figures.p50Ms)}</TableCell>
                  <TableCell className="text-right tabular-nums">{figures.tokens.toLocaleString("en-US")}</TableCell>
                  <TableCell className="text-right tabular-nums">{formatCost(figures.cost)}</TableCell>
                  <TableCell className="whitespace-nowrap">
                    <Link
                      to="/prompts/$promptId"
                      params={{ promptId }}
                      search={{ tab: "evaluations", evaluation: figures.evaluationId }}
                      className="text-primary underline underline-offset-4"
                    >
                      {formatDateTime(figures.createdAt)}
                      <span className="sr-only">{`: the evaluation of ${role.toLowerCase()} ${version === null ? "" : versionLabel(version)}`}</span>
                    </Link>
                  </TableCell>
                </>
              ) : (
                <TableCell colSpan={6} className="text-muted-foreground">
                  No finished evaluation of this version yet.
                </TableCell>
              )}
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {evidence.candidate && evidence.production && !evidence.sameCases && (
        <p className="text-sm text-muted-foreground">The two evaluations ran different test cases: compare their figures with care.</p>
      )}
    </>
  );
}
