// One run, opened from the Runs tab (runs.get): who ran which version on which connection and model,
// its figures, the provider's error or the notice, the parameters and variables, the compiled input
// (the text, or the messages by role) and the output.
import type { ReactNode } from "react";
import { versionLabel } from "@promptly/shared";
import type { RouterOutputs } from "@promptly/api";
import { LoadFailure } from "@/components/layout/load-failure";
import { formatCost, formatMs, formatTokens } from "@/components/runs/run-format";
import { RunStatusBadge } from "@/components/runs/run-status-badge";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { ErrorDetails } from "@/components/ui/error-details";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Skeleton } from "@/components/ui/skeleton";
import { formatDateTime } from "@/lib/dates";
import { trpc } from "@/lib/trpc";
import { ChatMessages } from "./chat-messages.tsx";
import { CopyButton } from "./copy-button.tsx";
import { prettyJson } from "./version-body.ts";

type Run = RouterOutputs["runs"]["get"];

/** Who ran it: the person, the key ("API key …"), or nobody left to name. */
export function actorName(actor: Run["actor"]): string {
  if (!actor) return "Former member or deleted key";
  return actor.kind === "apiKey" ? `API key: ${actor.name}` : actor.name;
}

export function RunDialog({ promptId, runId, onClose }: { promptId: string; runId: string | undefined; onClose(): void }) {
  return (
    <Dialog open={runId !== undefined} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-3xl">{runId && <RunDetail promptId={promptId} runId={runId} />}</DialogContent>
    </Dialog>
  );
}

function RunDetail({ promptId, runId }: { promptId: string; runId: string }) {
  const run = trpc.runs.get.useQuery({ id: runId });
  if (run.isPending) {
    return (
      <>
        <DialogTitle>Run</DialogTitle>
        <DialogDescription className="sr-only">Loading the run</DialogDescription>
        <Skeleton className="h-48 w-full" aria-label="Loading the run" />
      </>
    );
  }
  if (run.isError || run.data.promptId !== promptId) {
    return (
      <>
        <DialogTitle>Run</DialogTitle>
        <DialogDescription className="sr-only">The run could not be loaded</DialogDescription>
        {run.isError ? <LoadFailure title="The run could not be loaded" error={run.error} onRetry={() => void run.refetch()} /> : <p className="text-sm">This run is of another prompt.</p>}
      </>
    );
  }
  return <RunBody run={run.data} />;
}

function RunBody({ run }: { run: Run }) {
  const facts: [string, string][] = [
    ["Who", actorName(run.actor)],
    ["Connection", run.connectionName],
    ["Model", run.model],
    ["Tokens in / out", formatTokens(run.inputTokens, run.outputTokens)],
    ["First token", formatMs(run.ttftMs)],
    ["Total", formatMs(run.totalMs)],
    ["Cost", formatCost(run.cost)],
  ];
  const plain = (text: string) => <pre className="font-mono text-sm break-words whitespace-pre-wrap">{text}</pre>;
  return (
    <>
      <DialogHeader>
        <DialogTitle className="flex flex-wrap items-center gap-2">
          Run of {versionLabel(run.version)}
          {run.draft && ", edited in the Playground"} <RunStatusBadge status={run.status} />
        </DialogTitle>
        <DialogDescription>
          <time dateTime={run.createdAt.toISOString()}>{formatDateTime(run.createdAt)}</time>
        </DialogDescription>
      </DialogHeader>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-4" aria-label="Run facts">
        {facts.map(([term, value]) => (
          <div key={term} className="min-w-0">
            <dt className="text-xs text-muted-foreground">{term}</dt>
            <dd className="break-words">{value}</dd>
          </div>
        ))}
      </dl>
      {run.status === "failed" && run.error && (
        <Alert variant="destructive">
          <AlertTitle>The run failed</AlertTitle>
          <AlertDescription>
            <p>{run.error}</p>
            <ErrorDetails detail={run.errorDetail} />
          </AlertDescription>
        </Alert>
      )}
      {run.status === "stopped" && (
        <Alert>
          <AlertTitle>Stopped before the answer ended</AlertTitle>
          <AlertDescription>The output below is what had come.</AlertDescription>
        </Alert>
      )}
      {run.notice && (
        <Alert>
          <AlertTitle>Notice</AlertTitle>
          <AlertDescription>{run.notice}</AlertDescription>
        </Alert>
      )}
      <Part title="Parameters">{Object.keys(run.parameters).length ? plain(prettyJson(run.parameters)) : <Muted>The provider's defaults.</Muted>}</Part>
      <Part title="Variables">{Object.keys(run.variables).length ? plain(prettyJson(run.variables)) : <Muted>None.</Muted>}</Part>
      <Part title="Input" copy={run.input.type === "text" ? run.input.text : prettyJson(run.input.messages)}>
        {run.input.type === "text" ? plain(run.input.text) : <ChatMessages messages={readableMessages(run.input.messages)} label="Input messages" render={plain} />}
      </Part>
      <Part title="Output" copy={run.output || undefined}>
        {run.output ? plain(run.output) : <Muted>{run.toolCalls.length ? "No text: the model called tools." : "No output."}</Muted>}
      </Part>
      {run.toolCalls.length > 0 && (
        <Part title="Tool calls" copy={prettyJson(run.toolCalls)}>
          {plain(run.toolCalls.map(toolCallText).join("\n"))}
        </Part>
      )}
      {run.schemaMatched !== null && (
        <Part title="Response format">{plain(run.schemaMatched ? "The answer matched it." : `The answer did not match it: ${run.schemaProblem ?? ""}`)}</Part>
      )}
    </>
  );
}

function Part({ title, copy, children }: { title: string; copy?: string; children: ReactNode }) {
  const id = `run-part-${title.toLowerCase()}`;
  return (
    <section aria-labelledby={id} className="grid min-w-0 gap-2">
      <div className="flex items-center justify-between gap-2">
        <h3 id={id} className="text-sm font-semibold">
          {title}
        </h3>
        {copy !== undefined && <CopyButton text={copy} label={`Copy ${title.toLowerCase()}`} />}
      </div>
      <div className="min-w-0 rounded-md border border-border bg-muted/40 p-3">{children}</div>
    </section>
  );
}

const Muted = ({ children }: { children: string }) => <p className="text-sm text-muted-foreground">{children}</p>;

/** A tool call in one line: `get_weather({"city":"Oslo"})`. */
const toolCallText = (call: Run["toolCalls"][number]) => `${call.name}(${call.arguments})`;

/** The sent messages as role and text: a turn's tool calls after its text, a tool result as the person's (it is what the author gave). */
const readableMessages = (messages: Extract<Run["input"], { type: "chat" }>["messages"]) =>
  messages.map((message) =>
    message.role === "tool"
      ? { role: "user" as const, content: `Tool result (${message.toolCallId}): ${message.content}` }
      : { role: message.role, content: [message.content, ...(message.toolCalls ?? []).map((call) => `Tool call: ${toolCallText(call)}`)].filter(Boolean).join("\n") },
  );
