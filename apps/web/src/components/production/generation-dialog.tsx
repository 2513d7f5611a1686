// One generation, opened from the Production tab (production.generation): its version, model and
// figures, its trace and observation ids (to find it in the application's own traces), its error, its
// input and output when the team keeps them (to its members and organization admins), its scores, and the person's own thumbs up or down to give, change or remove.
import type { ReactNode } from "react";
import { versionLabel } from "@promptly/shared";
import type { RouterOutputs } from "@promptly/api";
import { LoadFailure } from "@/components/layout/load-failure";
import { formatCost, formatMs, formatTokens } from "@/components/runs/run-format";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Skeleton } from "@/components/ui/skeleton";
import { formatDateTime } from "@/lib/dates";
import { trpc } from "@/lib/trpc";
import { CopyButton } from "@/components/prompts/page/copy-button";
import { ScoreButtons } from "./score-buttons.tsx";
import { moreScoresText } from "./more-scores.ts";

type Generation = RouterOutputs["production"]["generation"];

export function GenerationDialog({ promptId, archived, generationId, onClose }: { promptId: string; archived: boolean; generationId: string | undefined; onClose(): void }) {
  return (
    <Dialog open={generationId !== undefined} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-3xl">{generationId && <GenerationDetail promptId={promptId} archived={archived} id={generationId} />}</DialogContent>
    </Dialog>
  );
}

function GenerationDetail({ promptId, archived, id }: { promptId: string; archived: boolean; id: string }) {
  const generation = trpc.production.generation.useQuery({ promptId, id });
  if (generation.isPending || generation.isError) {
    return (
      <>
        <DialogTitle>Generation</DialogTitle>
        <DialogDescription className="sr-only">{generation.isPending ? "Loading the generation" : "The generation could not be loaded"}</DialogDescription>
        {generation.isPending ? (
          <Skeleton className="h-48 w-full" aria-label="Loading the generation" />
        ) : (
          <LoadFailure title="The generation could not be loaded" error={generation.error} onRetry={() => void generation.refetch()} />
        )}
      </>
    );
  }
  return <GenerationBody promptId={promptId} archived={archived} generation={generation.data} />;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="grid gap-2" aria-label={title}>
      <h3 className="text-sm font-semibold">{title}</h3>
      {children}
    </section>
  );
}

function IdLine({ label, value }: { label: string; value: string | null }) {
  return (
    <div className="flex min-w-0 flex-wrap items-center gap-2 text-sm">
      <span className="text-muted-foreground">{label}</span>
      {value ? (
        <>
          <code className="min-w-0 font-mono text-xs break-all">{value}</code>
          <CopyButton text={value} label={`Copy the ${label.toLowerCase()}`} />
        </>
      ) : (
        <span>–</span>
      )}
    </div>
  );
}

function GenerationBody({ promptId, archived, generation }: { promptId: string; archived: boolean; generation: Generation }) {
  const startedAt = new Date(generation.startedAt);
  const facts: [string, string][] = [
    ["Model", generation.model ?? "–"],
    ["Environment", generation.environment],
    ["Latency", formatMs(generation.latencyMs)],
    ["First token", formatMs(generation.ttftMs)],
    ["Tokens in / out", formatTokens(generation.tokens.input, generation.tokens.output)],
    ["Cost", formatCost(generation.cost)],
    ["User", generation.userRef ?? "–"],
    ["Session", generation.sessionRef ?? "–"],
  ];
  const plain = (text: string | null) => <pre className="max-h-80 overflow-auto rounded-md bg-muted p-3 font-mono text-sm break-words whitespace-pre-wrap">{text ?? "–"}</pre>;
  return (
    <>
      <DialogHeader>
        <DialogTitle className="flex flex-wrap items-center gap-2">
          Generation of {generation.version === null ? "an unknown version" : versionLabel(generation.version)}
          <Badge variant={generation.status === "error" ? "destructive" : "secondary"}>{generation.status === "error" ? "Error" : "OK"}</Badge>
        </DialogTitle>
        <DialogDescription>
          <time dateTime={generation.startedAt}>{formatDateTime(startedAt)}</time>
        </DialogDescription>
      </DialogHeader>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-4" aria-label="Generation facts">
        {facts.map(([term, value]) => (
          <div key={term} className="min-w-0">
            <dt className="text-muted-foreground">{term}</dt>
            <dd className="break-words">{value}</dd>
          </div>
        ))}
      </dl>
      <div className="grid gap-2">
        <IdLine label="Trace id" value={generation.traceId} />
        <IdLine label="Observation id" value={generation.observationId} />
      </div>
      {generation.error && (
        <Alert variant="destructive">
          <AlertTitle>Error</AlertTitle>
          <AlertDescription className="break-words">{generation.error}</AlertDescription>
        </Alert>
      )}
      {!generation.textKept ? (
        <p className="text-sm text-muted-foreground">This team does not keep generations' input and output; a team admin can turn that on in the team's settings.</p>
      ) : !generation.textReadable ? (
        <p className="text-sm text-muted-foreground">Only members of this prompt's team and organization admins see its generations' input and output.</p>
      ) : (
        <>
          <Section title="Input">{plain(generation.input)}</Section>
          <Section title="Output">{plain(generation.output)}</Section>
        </>
      )}
      <Section title="Scores">
        {generation.scores.length === 0 ? (
          <p className="text-sm text-muted-foreground">No scores yet.</p>
        ) : (
          <ul className="grid gap-1 text-sm">
            {generation.scores.map((score) => (
              <li key={score.id}>
                <span className="font-medium">{score.name}</span>: {score.stringValue ?? score.value ?? "–"} <span className="text-muted-foreground">({score.source})</span>
                {score.comment && <span className="block text-muted-foreground">“{score.comment}”</span>}
              </li>
            ))}
            {generation.moreScores > 0 && <li className="text-muted-foreground">and {moreScoresText(generation)}</li>}
          </ul>
        )}
        <ScoreButtons promptId={promptId} generationId={generation.id} own={generation.ownThumbs} archived={archived} />
      </Section>
    </>
  );
}
