// One column of the playground: the version it runs, its connection, model and parameters; the answer as it streams,
// the conversation when continued, the run's figures (time to first token, total time, tokens, cost)
// and, when it failed, the provider's reason in plain words.
import { useId, type ReactNode } from "react";
import { CornerDownLeft, ListPlus, LoaderCircle, Save, TriangleAlert, X } from "lucide-react";
import type { RouterOutputs } from "@promptly/api";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ErrorDetails } from "@/components/ui/error-details";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { ModelInput } from "@/components/providers/model-input";
import { Label } from "@/components/ui/label";
import { ConnectionSelect } from "@/components/providers/connection-select";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Textarea } from "@/components/ui/textarea";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import { cn } from "@/lib/utils";
import type { ColumnSettings } from "./playground-settings.ts";
import { pendingToolCalls, type PlaygroundColumn as Column, type ToolCall, type Turn } from "./use-playground-columns.ts";

type Connection = RouterOutputs["playground"]["connections"][number];

interface PlaygroundColumnProps {
  column: Column;
  number: number;
  connections: Connection[];
  /** The connection in use: the one chosen, else the first offered. */
  connectionId: string;
  /** The versions a column may run ("edited" is the body being edited above), each with its name. */
  versions: { value: string; label: string }[];
  onVersion(version: string): void;
  /** A note under the version (the one it runs could not be read, say). */
  versionNote?: string;
  removable: boolean;
  canSave: boolean;
  onSettings(patch: Partial<ColumnSettings>): void;
  onReply(reply: string): void;
  onContinue(): void;
  /** The person's result for a pending tool call, as typed. */
  onToolResult(callId: string, result: string): void;
  /** Sends the results of every pending tool call and continues the conversation. */
  onSendToolResults(): void;
  onSave(): void;
  /** Opens the test case dialog with this run's variables and answer. */
  onSaveCase(): void;
  onRemove(): void;
}

export function PlaygroundColumn(props: PlaygroundColumnProps) {
  const { column, number, connections, connectionId, onSettings } = props;
  const label = `Model ${number}`;
  const connectionFieldId = useId();
  const versionFieldId = useId();
  const connection = connections.find((item) => item.id === connectionId);
  const running = column.streaming !== null;
  const pending = running ? [] : pendingToolCalls(column.turns);
  // A failed run is not a conversation to carry on: no Continue after it.
  const answered = !running && column.run?.status !== "failed" && column.turns.at(-1)?.role === "assistant" && pending.length === 0;

  return (
    <section aria-label={label} data-testid="playground-column" className="grid min-w-0 content-start gap-4 rounded-lg border p-4">
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-sm font-semibold">{label}</h3>
        {props.removable && (
          <Button variant="ghost" size="icon" aria-label={`Remove ${label.toLowerCase()}`} onClick={props.onRemove}>
            <X aria-hidden="true" />
          </Button>
        )}
      </div>

      {/* The version first and the answer right under it: a wide screen shows every column's answer without scrolling. */}
      <div className="grid gap-1.5">
        <div className="flex items-center gap-2">
          <Label htmlFor={versionFieldId} className="shrink-0">
            Version
          </Label>
          <Select value={String(column.version)} onValueChange={props.onVersion}>
            <SelectTrigger id={versionFieldId} className="w-full min-w-0" aria-describedby={props.versionNote ? `${versionFieldId}-note` : undefined}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {props.versions.map((item) => (
                <SelectItem key={item.value} value={item.value}>
                  {item.label}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        {props.versionNote && (
          <p id={`${versionFieldId}-note`} className="text-sm text-muted-foreground">
            {props.versionNote}
          </p>
        )}
      </div>

      <div aria-label={`Output of ${label.toLowerCase()}`} aria-live="polite" aria-busy={running} role="log" data-testid="column-output" className="grid min-h-24 content-start gap-3 rounded-md bg-muted/50 p-3 text-sm">
        {column.turns.length === 0 && column.streaming === null && !column.refusal && <p className="text-muted-foreground">The answer shows here.</p>}
        {column.turns.map((turn, index) => (
          <TurnView key={index} turn={turn} calls={column.turns} />
        ))}
        {column.streaming !== null && (
          <TurnText role="assistant">
            {column.streaming}
            <LoaderCircle aria-hidden="true" className="ml-1 inline size-4 animate-spin align-text-bottom text-muted-foreground" />
          </TurnText>
        )}
      </div>

      {column.stopped && <p className="text-sm text-muted-foreground">Stopped: the answer is what came before Stop.</p>}
      {column.refusal && (
        <Alert variant="destructive">
          <TriangleAlert aria-hidden="true" />
          <AlertTitle>Not run</AlertTitle>
          <AlertDescription>{column.refusal}</AlertDescription>
        </Alert>
      )}
      {column.run?.status === "failed" && (
        <Alert variant="destructive">
          <TriangleAlert aria-hidden="true" />
          <AlertTitle>The run failed</AlertTitle>
          <AlertDescription>
            <p>{column.run.error}</p>
            <ErrorDetails detail={column.run.errorDetail} />
          </AlertDescription>
        </Alert>
      )}
      {column.run?.notice && <p className="text-sm text-muted-foreground">{column.run.notice}</p>}
      {column.run && <RunFigures run={column.run} />}

      {pending.length > 0 && (
        <form
          className="grid gap-2"
          aria-label={`Answer the tool calls of ${label.toLowerCase()}`}
          onSubmit={(event) => {
            event.preventDefault();
            props.onSendToolResults();
          }}
        >
          {pending.map((call) => (
            <FormField key={call.id} label={`Result of ${call.name}`}>
              <Textarea rows={2} value={column.toolResults[call.id] ?? ""} onChange={(event) => props.onToolResult(call.id, event.target.value)} />
            </FormField>
          ))}
          <div>
            <Button type="submit" variant="outline" size="sm" disabled={pending.some((call) => !(column.toolResults[call.id] ?? "").trim())}>
              <CornerDownLeft aria-hidden="true" />
              Send tool result{pending.length === 1 ? "" : "s"}
            </Button>
          </div>
        </form>
      )}
      {answered && (
        <form
          className="grid gap-2"
          aria-label={`Continue with ${label.toLowerCase()}`}
          onSubmit={(event) => {
            event.preventDefault();
            props.onContinue();
          }}
        >
          <FormField label="Your reply">
            <Textarea
              rows={2}
              value={column.reply}
              onChange={(event) => props.onReply(event.target.value)}
              onKeyDown={(event) => {
                // Ctrl/Cmd+Enter here continues this conversation rather than running every column again.
                if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
                  event.preventDefault();
                  event.stopPropagation();
                  props.onContinue();
                }
              }}
            />
          </FormField>
          <div>
            <Button type="submit" variant="outline" size="sm" disabled={!column.reply.trim()}>
              <CornerDownLeft aria-hidden="true" />
              Continue
            </Button>
          </div>
        </form>
      )}

      <div className="grid gap-3 sm:grid-cols-2">
        <FormField label="Connection" className="sm:col-span-2" id={connectionFieldId}>
          <ConnectionSelect id={connectionFieldId} value={connectionId} onValueChange={(next) => onSettings({ connectionId: next })} connections={connections} placeholder="Choose a connection" />
        </FormField>
        <FormField label="Model" className="sm:col-span-2" description={connection?.models.length ? undefined : "Any model the provider offers."}>
          <ModelInput models={connection?.models} value={column.settings.model} onChange={(event) => onSettings({ model: event.target.value })} />
        </FormField>
        <FormField label="Temperature" error={column.errors.temperature}>
          <Input type="number" inputMode="decimal" step="0.1" min={0} max={2} placeholder="Default" value={column.settings.temperature} onChange={(event) => onSettings({ temperature: event.target.value })} />
        </FormField>
        <FormField label="Max tokens" error={column.errors.maxTokens}>
          <Input type="number" inputMode="numeric" step="1" min={1} placeholder="Default" value={column.settings.maxTokens} onChange={(event) => onSettings({ maxTokens: event.target.value })} />
        </FormField>
        <FormField label="Top p" error={column.errors.topP}>
          <Input type="number" inputMode="decimal" step="0.05" min={0} max={1} placeholder="Default" value={column.settings.topP} onChange={(event) => onSettings({ topP: event.target.value })} />
        </FormField>
        <FormField label="Stop sequences" description="One per line." error={column.errors.stop}>
          <Textarea rows={1} className="min-h-9" value={column.settings.stop} onChange={(event) => onSettings({ stop: event.target.value })} />
        </FormField>
      </div>

      {props.canSave && (
        <div className="flex flex-wrap gap-2 border-t pt-3">
          {answered && (
            <Button variant="outline" size="sm" onClick={props.onSaveCase} aria-label={`Save as test case from ${label.toLowerCase()}`}>
              <ListPlus aria-hidden="true" />
              Save as test case
            </Button>
          )}
          <Tooltip>
            <TooltipTrigger asChild>
              <Button variant="outline" size="sm" onClick={props.onSave} aria-label={`Save as new version with ${label.toLowerCase()}`}>
                <Save aria-hidden="true" />
                Save as new version
              </Button>
            </TooltipTrigger>
            <TooltipContent>Opens the editor with the edited prompt and this column's model and parameters; nothing is saved before you save there.</TooltipContent>
          </Tooltip>
        </div>
      )}
    </section>
  );
}

function TurnText({ role, title, children }: { role: "assistant" | "user"; title?: string; children: ReactNode }) {
  return (
    <div className={cn("grid gap-1", role === "user" && "border-l-2 pl-2")}>
      <span className="text-xs font-medium text-muted-foreground">{title ?? (role === "user" ? "You" : "Answer")}</span>
      <p className="whitespace-pre-wrap break-words">{children}</p>
    </div>
  );
}

/** A turn: an answer (its text, then each tool it called with the arguments), a reply, or a tool result (named by its call). */
function TurnView({ turn, calls }: { turn: Turn; calls: readonly Turn[] }) {
  if (turn.role === "tool") {
    const call = calls.flatMap((other) => (other.role === "assistant" ? (other.toolCalls ?? []) : [])).find((item) => item.id === turn.toolCallId);
    return (
      <TurnText role="user" title={`Result of ${call?.name ?? "a tool call"}`}>
        {turn.content}
      </TurnText>
    );
  }
  if (turn.role === "user" || !turn.toolCalls?.length) return <TurnText role={turn.role}>{turn.content}</TurnText>;
  return (
    <div className="grid gap-2">
      {turn.content && <TurnText role="assistant">{turn.content}</TurnText>}
      {turn.toolCalls.map((call) => (
        <ToolCallView key={call.id} call={call} />
      ))}
    </div>
  );
}

/** A tool call as the model made it: the tool's name and its arguments (pretty when they are JSON). */
function ToolCallView({ call }: { call: ToolCall }) {
  let args = call.arguments;
  try {
    args = JSON.stringify(JSON.parse(call.arguments), null, 2);
  } catch {
    // Shown as the model wrote them.
  }
  return (
    <div className="grid gap-1 rounded-md border bg-background p-2" data-testid="tool-call">
      <span className="text-xs font-medium text-muted-foreground">Tool call: {call.name}</span>
      <pre className="overflow-x-auto whitespace-pre-wrap break-words font-mono text-xs">{args}</pre>
    </div>
  );
}

const milliseconds = (ms: number | null) => (ms === null ? "—" : ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(2)} s`);
const dollars = (cost: number | null) => (cost === null ? "Unknown" : `$${cost < 0.01 ? cost.toFixed(6) : cost.toFixed(4)}`);
const count = (value: number | null) => (value === null ? "—" : value.toLocaleString("en-US"));

/** The recorded run's figures. */
function RunFigures({ run }: { run: NonNullable<Column["run"]> }) {
  const figures: [string, string][] = [
    ["Time to first token", milliseconds(run.ttftMs)],
    ["Total time", milliseconds(run.totalMs)],
    ["Tokens in", count(run.inputTokens)],
    ["Tokens out", count(run.outputTokens)],
    ["Cost", dollars(run.cost)],
  ];
  return (
    <dl data-testid="run-figures" className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
      {figures.map(([name, value]) => (
        <div key={name} className="contents">
          <dt className="text-muted-foreground">{name}</dt>
          <dd className="text-right font-mono tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
