// The playground's model columns: their settings, and each one's run as it streams through the
// `playground.run` subscription (server-sent events). A column's conversation grows with its answers
// and the person's replies; Stop, a removed column or a closed tab unsubscribes, which aborts the
// provider call on the server (the run is recorded as stopped there). A run whose edited prompt is
// staged first (too long for the stream's URL) starts once it is staged, unless stopped meanwhile.
import { useEffect, useRef, useState } from "react";
import type { RouterInputs, RouterOutputs } from "@promptly/api";
import { trpcClient } from "@/lib/trpc";
import type { ColumnSettings, ParameterErrors } from "./playground-settings.ts";

export type RunInput = RouterInputs["playground"]["run"];
type RecordedRun = RouterOutputs["runs"]["get"];
/** A column's run: its subscription, or the staging before it (cancelled the same way). */
type Unsubscribable = { unsubscribe(): void };

/** A tool call the model made: its id, the tool's name and the arguments as the model wrote them. */
export type ToolCall = RecordedRun["toolCalls"][number];

/**
 * One turn after the compiled prompt: an answer (with the tools it called, if any), the person's reply
 * to it, or the person's result for one of those tool calls.
 */
export type Turn =
  | { role: "assistant"; content: string; toolCalls?: ToolCall[] }
  | { role: "user"; content: string }
  | { role: "tool"; toolCallId: string; content: string };

/** The tool calls the conversation's last turn made and no result answers yet (they must be answered to go on). */
export const pendingToolCalls = (turns: readonly Turn[]): ToolCall[] => {
  const last = turns.at(-1);
  return last?.role === "assistant" ? (last.toolCalls ?? []) : [];
};

/** What a column runs: a saved version by its number, or the body being edited above the columns. */
export type ColumnVersion = number | "edited";

export interface PlaygroundColumn {
  id: number;
  version: ColumnVersion;
  settings: ColumnSettings;
  errors: ParameterErrors;
  turns: Turn[];
  /** The answer coming now; null when nothing runs. */
  streaming: string | null;
  /** The last run as recorded (figures, status, the provider's error). */
  run: RecordedRun | null;
  /** Why the server refused the run before any call (contract, connection, limit...). */
  refusal: string | null;
  /** Stopped by the person: the answer is what came before Stop. */
  stopped: boolean;
  reply: string;
  /** The person's result for each pending tool call, by the call's id. */
  toolResults: Record<string, string>;
}

export const MAX_COLUMNS = 3;

let lastColumnId = 0;
const newColumn = (settings: ColumnSettings, version: ColumnVersion, kept?: Pick<PlaygroundColumn, "turns" | "run">): PlaygroundColumn => ({
  id: ++lastColumnId, version, settings, errors: {}, turns: [], streaming: null, run: null, refusal: null, stopped: false, reply: "", toolResults: {}, ...kept,
});

/** A column to start with: its version and settings, and what it last answered (a restored playground). */
export type ColumnSeed = { version: ColumnVersion; settings: ColumnSettings } & Partial<Pick<PlaygroundColumn, "turns" | "run">>;
const seeded = ({ version, settings, turns = [], run = null }: ColumnSeed) => newColumn(settings, version, { turns, run });

export function usePlaygroundColumns(initialColumns: () => ColumnSeed[]) {
  const [columns, setColumns] = useState<PlaygroundColumn[]>(() => initialColumns().map(seeded));
  const subscriptions = useRef(new Map<number, Unsubscribable>());

  // Leaving the tab (or the page) ends every run.
  useEffect(() => {
    const running = subscriptions.current;
    return () => {
      for (const subscription of running.values()) subscription.unsubscribe();
      running.clear();
    };
  }, []);

  const change = (id: number, patch: Partial<PlaygroundColumn> | ((column: PlaygroundColumn) => Partial<PlaygroundColumn>)) =>
    setColumns((current) => current.map((column) => (column.id === id ? { ...column, ...(typeof patch === "function" ? patch(column) : patch) } : column)));

  const end = (id: number) => {
    subscriptions.current.get(id)?.unsubscribe();
    subscriptions.current.delete(id);
  };

  /**
   * Runs one column: `input` as it is, or as `input()` stages it first (an edited prompt too long for
   * the URL); `turns` is its conversation so far (empty for a fresh run), already in the input.
   */
  const start = (id: number, input: RunInput | (() => Promise<RunInput>), turns: Turn[]) => {
    end(id);
    change(id, { turns, streaming: "", run: null, refusal: null, stopped: false, errors: {} });
    if (typeof input !== "function") {
      subscribe(id, input);
      return;
    }
    const staging: Unsubscribable = { unsubscribe() {} };
    subscriptions.current.set(id, staging);
    input().then(
      (staged) => {
        if (subscriptions.current.get(id) === staging) subscribe(id, staged);
      },
      (error: unknown) => {
        if (subscriptions.current.get(id) !== staging) return;
        end(id);
        change(id, { refusal: error instanceof Error ? error.message : String(error), streaming: null });
      },
    );
  };

  const subscribe = (id: number, input: RunInput) => {
    const subscription: Unsubscribable = trpcClient.playground.run.subscribe(input, {
      onData(event) {
        if (subscriptions.current.get(id) !== subscription) return;
        if (event.type === "delta") {
          change(id, (column) => ({ streaming: (column.streaming ?? "") + event.text }));
          return;
        }
        // The stream ends after its done event; the link would open it again, so it is closed here.
        end(id);
        const { run } = event;
        // An answer that called tools is a turn even without text: its calls wait for the person's results.
        const answer: Turn | null = run.toolCalls.length
          ? { role: "assistant", content: run.output, toolCalls: run.toolCalls }
          : run.output
            ? { role: "assistant", content: run.output }
            : null;
        change(id, (column) => ({ run, streaming: null, toolResults: {}, turns: answer ? [...column.turns, answer] : column.turns }));
      },
      onError(error) {
        if (subscriptions.current.get(id) !== subscription) return;
        end(id);
        change(id, { refusal: error.message, streaming: null });
      },
      onConnectionStateChange(state) {
        // A connection that failed (the server unreachable, an answer that is not an event stream) is not retried forever.
        if (state.state !== "connecting" || !state.error || subscriptions.current.get(id) !== subscription) return;
        end(id);
        change(id, { refusal: state.error.message, streaming: null });
      },
    });
    subscriptions.current.set(id, subscription);
  };

  /** Stops every running column; what came before stays shown. */
  const stopAll = () => {
    for (const id of [...subscriptions.current.keys()]) end(id);
    setColumns((current) =>
      current.map((column) =>
        column.streaming === null
          ? column
          : { ...column, streaming: null, stopped: true, turns: column.streaming ? [...column.turns, { role: "assistant", content: column.streaming }] : column.turns },
      ),
    );
  };

  const add = (seed: ColumnSeed) => setColumns((current) => (current.length >= MAX_COLUMNS ? current : [...current, seeded(seed)]));
  const remove = (id: number) => {
    end(id);
    setColumns((current) => (current.length > 1 ? current.filter((column) => column.id !== id) : current));
  };

  /** Ends every run and starts over with these columns. */
  const reset = (seeds: ColumnSeed[]) => {
    for (const id of [...subscriptions.current.keys()]) end(id);
    setColumns(seeds.map(seeded));
  };

  return { columns, change, start, stopAll, add, remove, reset, running: columns.some((column) => column.streaming !== null) };
}
