// A test case's assertions, edited as a list: each a kind, its value and, for a judged one, the
// connection and model that judge (the connections the Playground offers for this prompt).
import { useId } from "react";
import { Plus, Trash2 } from "lucide-react";
import { ASSERTION_TYPES, TEST_CASE_ASSERTIONS_MAX, type Assertion, type AssertionType } from "@promptly/shared";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { ModelInput } from "@/components/providers/model-input";
import { ConnectionSelect } from "@/components/providers/connection-select";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Textarea } from "@/components/ui/textarea";
import { trpc } from "@/lib/trpc";
import { ASSERTION_LABELS, ASSERTION_VALUE_LABELS } from "./assertion-text.ts";

/** An assertion as the form holds it: the value always a string, the judge's fields when set. */
export interface AssertionDraft {
  type: string;
  value: string;
  connectionId?: string;
  model?: string;
  /** The name of the scores it writes, once it has one (an online evaluation's assertion). */
  name?: string;
}

/** A stored assertion as the form holds it. */
export const toDraft = (assertion: Omit<AssertionDraft, "value" | "name"> & { value?: string }): AssertionDraft => ({ ...assertion, value: assertion.value ?? "" });

/**
 * A failed parse's issues split: the first problem of each assertion by its index (issues under
 * `assertions.<index>`), shown beside it, and the others, the form's own to show.
 */
export function assertionIssues<Issue extends { path: PropertyKey[]; message: string }>(issues: readonly Issue[]): { byAssertion: Record<number, string>; others: Issue[] } {
  const byAssertion: Record<number, string> = {};
  const others: Issue[] = [];
  for (const issue of issues) {
    if (issue.path[0] === "assertions" && typeof issue.path[1] === "number") byAssertion[issue.path[1]] ??= issue.message;
    else others.push(issue);
  }
  return { byAssertion, others };
}

/** The drafts as the procedures take them (a kind without a value sends none). */
export const toAssertions = (drafts: AssertionDraft[]): Assertion[] =>
  drafts.map(({ type, value, connectionId, model }) => ({
    type: type as AssertionType,
    ...(type !== "json" && type !== "responseSchema" && { value }),
    ...(type === "judge" && { connectionId: connectionId || undefined, model: model?.trim() || undefined }),
  }));

interface AssertionEditorProps {
  promptId: string;
  assertions: AssertionDraft[];
  /** A problem per assertion, by its index. */
  errors: Record<number, string>;
  disabled: boolean;
  onChange(assertions: AssertionDraft[]): void;
}

export function AssertionEditor({ promptId, assertions, errors, disabled, onChange }: AssertionEditorProps) {
  // Asked at once, not when a judge is chosen: the connection select then opens with its options.
  const connections = trpc.playground.connections.useQuery({ promptId });
  const update = (index: number, patch: Partial<AssertionDraft>) => onChange(assertions.map((assertion, i) => (i === index ? { ...assertion, ...patch } : assertion)));
  return (
    <fieldset className="grid min-w-0 gap-3" disabled={disabled}>
      <legend className="mb-2 text-sm font-semibold">Assertions</legend>
      {assertions.length === 0 && <p className="text-sm text-muted-foreground">No assertions: the case passes whenever the version answers.</p>}
      <ol className="grid min-w-0 gap-3">
        {assertions.map((assertion, index) => (
          <AssertionRow
            key={index}
            number={index + 1}
            assertion={assertion}
            error={errors[index]}
            connections={connections.data ?? []}
            onChange={(patch) => update(index, patch)}
            onRemove={() => onChange(assertions.filter((_, i) => i !== index))}
          />
        ))}
      </ol>
      <div>
        <Button type="button" variant="outline" size="sm" disabled={assertions.length >= TEST_CASE_ASSERTIONS_MAX} onClick={() => onChange([...assertions, { type: "contains", value: "" }])}>
          <Plus aria-hidden="true" />
          Add assertion
        </Button>
      </div>
    </fieldset>
  );
}

interface AssertionRowProps {
  number: number;
  assertion: AssertionDraft;
  error?: string;
  connections: { id: string; name: string; models: string[] }[];
  onChange(patch: Partial<AssertionDraft>): void;
  onRemove(): void;
}

function AssertionRow({ number, assertion, error, connections, onChange, onRemove }: AssertionRowProps) {
  const kindId = useId();
  const connectionId = useId();
  const type = assertion.type as AssertionType;
  const valueLabel = ASSERTION_VALUE_LABELS[type];
  const connection = connections.find((item) => item.id === assertion.connectionId);
  const numeric = type === "maxLength" || type === "maxLatencyMs" || type === "maxCost";
  return (
    <li className="grid min-w-0 gap-3 rounded-md border p-3" data-testid="assertion-row">
      <div className="flex min-w-0 items-end gap-2">
        <FormField label={`Assertion ${number}`} id={kindId} className="min-w-0 flex-1">
          <Select value={assertion.type} onValueChange={(next) => onChange({ type: next })}>
            <SelectTrigger id={kindId} className="w-full">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {ASSERTION_TYPES.map((kind) => (
                <SelectItem key={kind} value={kind}>
                  {ASSERTION_LABELS[kind]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </FormField>
        <Button type="button" variant="ghost" size="icon" aria-label={`Remove assertion ${number}`} onClick={onRemove}>
          <Trash2 aria-hidden="true" />
        </Button>
      </div>
      {valueLabel && (
        <FormField label={`${valueLabel} of assertion ${number}`} error={error}>
          {type === "judge" || type === "jsonSchema" || type === "toolArguments" ? (
            <Textarea
              rows={3}
              className={type === "jsonSchema" ? "font-mono" : undefined}
              placeholder={type === "judge" ? "e.g. The answer is polite and names the product." : undefined}
              value={assertion.value}
              onChange={(event) => onChange({ value: event.target.value })}
            />
          ) : (
            <Input
              type={numeric ? "number" : "text"}
              inputMode={numeric ? "decimal" : undefined}
              min={numeric ? 0 : undefined}
              step={numeric ? "any" : undefined}
              autoComplete="off"
              value={assertion.value}
              onChange={(event) => onChange({ value: event.target.value })}
            />
          )}
        </FormField>
      )}
      {assertion.name && <p className="text-sm text-muted-foreground">Score: {assertion.name}</p>}
      {!valueLabel && error && (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
      {type === "judge" && (
        <div className="grid min-w-0 gap-3 sm:grid-cols-2">
          <FormField label={`Judge's connection of assertion ${number}`} id={connectionId}>
            <ConnectionSelect id={connectionId} value={assertion.connectionId ?? ""} onValueChange={(next) => onChange({ connectionId: next })} connections={connections} placeholder="Choose a connection" />
          </FormField>
          <FormField label={`Judge's model of assertion ${number}`}>
            <ModelInput models={connection?.models} value={assertion.model ?? ""} onChange={(event) => onChange({ model: event.target.value })} />
          </FormField>
        </div>
      )}
    </li>
  );
}
