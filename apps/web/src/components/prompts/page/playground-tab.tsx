// The Playground tab: the shown version's template or messages, editable without saving; the variable
// form from the (edited) prompt's contract; one to three model columns side by side (stacked on a
// phone). Run (Ctrl/Cmd+Enter) streams every column at once, Stop ends them all. Runs of an edited
// body are recorded as drafts: listed with the version, not counted in its figures. Only Save as new
// version, through the editor, keeps anything.
import { useEffect, useState, type KeyboardEvent } from "react";
import { useNavigate } from "@tanstack/react-router";
import { Play, Plus, RotateCcw, Square, Trash2 } from "lucide-react";
import {
  compile, effectiveContract, extractPlaceholders, isPlaceholder, versionLabel, type ChatMessage, type ChatRole, type PromptMessage, type PromptVersionBody,
  type VariableContract, type VariableProblem,
} from "@promptly/shared";
import { TestCaseDialog, type TestCaseSeed } from "@/components/evaluations/test-case-dialog";
import { LoadFailure } from "@/components/layout/load-failure";
import { keepPlaygroundDraft } from "@/components/prompts/editor/playground-draft";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { RoleSelect } from "@/components/prompts/role-select";
import { Skeleton } from "@/components/ui/skeleton";
import { Textarea } from "@/components/ui/textarea";
import { useMe } from "@/hooks/use-me";
import { trpc, trpcClient } from "@/lib/trpc";
import { placeholderText } from "./chat-messages.tsx";
import { PlaygroundColumn } from "./playground-column.tsx";
import { configWithParameters, parametersOf, settingsFromVersion } from "./playground-settings.ts";
import { forgetPlayground, keepPlayground, readPlayground } from "./playground-store.ts";
import { typedValues, type FieldValue } from "./try-values.ts";
import type { PromptDetail } from "./types.ts";
import { MAX_COLUMNS, pendingToolCalls, usePlaygroundColumns, type ColumnSeed, type PlaygroundColumn as Column, type RunInput, type Turn } from "./use-playground-columns.ts";
import { versionText } from "./version-select.tsx";
import { VariableFields } from "./variable-field.tsx";

/**
 * A run's input travels in the event stream's URL, which the server reads to 16 KB (with the headers)
 * and proxies often to 8 KB: an edited prompt or conversation that makes it longer than this (encoded)
 * is staged first, posted to the server, and the run names it. The variables stay in the URL: past
 * RUN_URL_INPUT_MAX they are refused here, in words, rather than by the server.
 */
const RUN_URL_STAGE_FROM = 6_000;
const RUN_URL_INPUT_MAX = 12_000;
const variablesTooLong = (length: number) =>
  `The variables' values are too long to run from the playground (${length.toLocaleString("en-US")} characters once encoded for the address, at most ${RUN_URL_INPUT_MAX.toLocaleString("en-US")}). Shorten them.`;
const encodedLength = (input: RunInput) => encodeURIComponent(JSON.stringify({ json: input })).length;
/** Stands for a staged draft's id when measuring (a uuid's length). */
const SOME_DRAFT_ID = "00000000-0000-0000-0000-000000000000";

/** What a run sends of the edited prompt and the conversation, inline or staged. */
type DraftBody = Pick<RunInput, "template" | "messages" | "followUp">;

const sameMessage = (a: PromptMessage, b: PromptMessage) =>
  isPlaceholder(a) || isPlaceholder(b) ? isPlaceholder(a) && isPlaceholder(b) && a.name === b.name : a.role === b.role && a.content === b.content;
const sameMessages = (a: PromptMessage[], b: PromptMessage[]) => a.length === b.length && a.every((m, i) => sameMessage(m, b[i]!));

/** What a column runs: the version's number, the body compiled, its contract, and whether the body is the edited one (sent with the run). */
interface ColumnPrompt {
  number: number;
  body: PromptVersionBody;
  contract: VariableContract[];
  sendsEdit: boolean;
}

const savedBody = (version: PromptDetail["version"]): PromptVersionBody =>
  version.type === "text"
    ? { type: "text", template: version.template ?? "", variables: version.variables }
    : { type: "chat", messages: version.messages ?? [], variables: version.variables };

/** The body's contract: its version's variables, any it adds as required strings, and those of the prompts it includes (the server resolves the includes of what it runs). */
function contractOf(detail: PromptDetail, body: PromptVersionBody): VariableContract[] {
  const own = effectiveContract(body);
  const included = detail.resolved?.ok ? detail.resolved.variables.filter((variable) => !own.some((mine) => mine.name === variable.name)) : [];
  return [...own, ...included];
}

const byName = (contracts: VariableContract[]) => contracts.filter((variable, index) => contracts.findIndex((other) => other.name === variable.name) === index);

export function PlaygroundTab({ prompt }: { prompt: PromptDetail }) {
  const version = prompt.version;
  const navigate = useNavigate();
  const connections = trpc.playground.connections.useQuery({ promptId: prompt.id });
  // The connection a column starts on, and why; none when no default qualifies (never a failing or untested one).
  const chosenConnection = trpc.playground.defaultConnection.useQuery({ promptId: prompt.id });
  const savedMessages = version.messages ?? [];
  // The playground as this person left it on this prompt (this browser's storage), until Reset.
  const userId = useMe().data?.user.id;
  const [kept] = useState(() => (userId ? readPlayground(userId, prompt.id) : null));
  const keptEdit = kept?.fromVersion === version.version ? kept : null;
  const [template, setTemplate] = useState(keptEdit?.template ?? version.template ?? "");
  const [messages, setMessages] = useState<PromptMessage[]>(keptEdit?.messages ?? savedMessages);
  // Shared by name by every column, and kept when a column's version changes (a value no version uses is set aside, not lost).
  const [fields, setFields] = useState<Record<string, FieldValue>>(kept?.fields ?? {});
  // What fills each placeholder of the (edited) messages: a list of messages, none until added.
  const [fills, setFills] = useState<Record<string, ChatMessage[]>>(kept?.fills ?? {});
  const [problems, setProblems] = useState<VariableProblem[]>([]);
  const defaults = () => settingsFromVersion(version.model, version.config);
  const fresh = (): ColumnSeed[] => [{ version: "edited", settings: defaults() }];
  const { columns, change, start, stopAll, add, remove, reset, running } = usePlaygroundColumns(() =>
    kept ? kept.columns.filter((column) => column.version === "edited" || column.version <= prompt.latestVersion) : fresh(),
  );
  const [caseSeed, setCaseSeed] = useState<TestCaseSeed | null>(null);

  const edited = version.type === "text" ? template !== (version.template ?? "") : !sameMessages(messages, savedMessages);
  const body: PromptVersionBody =
    version.type === "text" ? { type: "text", template, variables: version.variables } : { type: "chat", messages, variables: version.variables };

  // The other saved versions the columns run, read as the page reads a version.
  const otherNumbers = [...new Set(columns.flatMap((column) => (column.version === "edited" || column.version === version.version ? [] : [column.version])))];
  const others = trpc.useQueries((t) => otherNumbers.map((number) => t.prompts.get({ id: prompt.id, version: number })));
  const detailOf = (number: number) => (number === version.version ? prompt : others[otherNumbers.indexOf(number)]?.data);
  /** The column's prompt; undefined while its version loads (or when it could not be read). */
  const promptOf = (column: Column): ColumnPrompt | undefined => {
    if (column.version === "edited") return { number: version.version, body, contract: contractOf(prompt, body), sendsEdit: edited };
    const detail = detailOf(column.version);
    if (!detail) return undefined;
    const saved = savedBody(detail.version);
    return { number: column.version, body: saved, contract: contractOf(detail, saved), sendsEdit: false };
  };
  const columnPrompts = columns.map(promptOf);
  const contract = byName(columnPrompts.flatMap((item) => item?.contract ?? []));
  // Values typed for variables none of the chosen versions uses: kept, shown apart, used again when a version asks for them.
  const asideFields = Object.entries(fields).filter(([name, value]) => value !== "" && value !== false && !contract.some((variable) => variable.name === name));
  const oneVersion = new Set(columns.map((column) => (column.version === "edited" ? version.version : column.version))).size === 1;
  const placeholderNames = [...new Set(columnPrompts.flatMap((item) => (item ? extractPlaceholders(item.body) : [])))];
  const placeholders = Object.fromEntries(placeholderNames.map((name) => [name, fills[name] ?? []]));
  const offered = connections.data ?? [];
  const connectionOf = (column: Column) =>
    offered.some((item) => item.id === column.settings.connectionId) ? column.settings.connectionId : (chosenConnection.data?.connectionId ?? "");
  const unchosen = columns.some((column) => !connectionOf(column));
  const loading = columnPrompts.some((item) => !item);

  /** The problems of the variables as typed for one column's version (none when they fit its contract). */
  const problemsOf = (item: ColumnPrompt) => {
    const { values, problems: unparsed } = typedValues(item.contract, fields);
    const result = compile(item.body, values, placeholders);
    return { values, found: [...unparsed, ...(result.ok ? [] : result.problems.filter((p) => !unparsed.some((u) => u.variable === p.variable)))] };
  };

  /** Each given column's variables as typed, or null (with the problems shown) when they do not fit its version's contract. */
  const checkedValues = (items: ColumnPrompt[]) => {
    const checked = items.map(problemsOf);
    const found = checked.flatMap((item) => item.found).filter((problem, index, all) => all.findIndex((other) => other.variable === problem.variable) === index);
    setProblems(found);
    return found.length ? null : checked.map((item) => item.values);
  };

  /** Stages a draft once, however many columns run it (the server keeps it a while for them all). */
  const stager = () => {
    let staged: Promise<string> | undefined;
    return (body: DraftBody) => (staged ??= trpcClient.playground.stage.mutate({ promptId: prompt.id, ...body }).then((result) => result.draftId));
  };

  /**
   * The column's run input: inline when it fits the URL, else a function that stages the edited prompt
   * and conversation first and answers the input naming the draft; null (said in the column) when refused.
   */
  const inputFor = (column: Column, item: ColumnPrompt, variables: Record<string, unknown>, followUp: Turn[], stage: (body: DraftBody) => Promise<string>): RunInput | (() => Promise<RunInput>) | null => {
    const parameters = parametersOf(column.settings);
    if ("errors" in parameters) {
      change(column.id, { errors: parameters.errors });
      return null;
    }
    const base: RunInput = {
      promptId: prompt.id,
      version: item.number,
      connectionId: connectionOf(column),
      model: column.settings.model.trim() || undefined,
      variables,
      ...(extractPlaceholders(item.body).length > 0 && { placeholders }),
      parameters: parameters.parameters,
    };
    // Only an edited body is sent: the version's own is on the server.
    const body: DraftBody = { ...(item.sendsEdit && (version.type === "text" ? { template } : { messages })), ...(followUp.length > 0 && { followUp }) };
    const inline: RunInput = { ...base, ...body };
    // Staging costs a request first: only a long edited prompt or conversation is worth it.
    const staging = Object.keys(body).length > 0 && encodedLength(inline) > RUN_URL_STAGE_FROM;
    const length = encodedLength(staging ? { ...base, draftId: SOME_DRAFT_ID } : inline);
    if (length > RUN_URL_INPUT_MAX) {
      change(column.id, { refusal: variablesTooLong(length) });
      return null;
    }
    return staging ? async () => ({ ...base, draftId: await stage(body) }) : inline;
  };

  const runAll = () => {
    if (running || !offered.length || unchosen || loading) return;
    const items = columnPrompts as ColumnPrompt[];
    const values = checkedValues(items);
    if (!values) return;
    const stage = stager();
    const inputs = columns.map((column, index) => [column, inputFor(column, items[index]!, values[index]!, [], stage)] as const);
    if (inputs.some(([, input]) => !input)) return;
    for (const [column, input] of inputs) start(column.id, input!, []);
  };

  const continueWith = (column: Column) => {
    const reply = column.reply.trim();
    const item = promptOf(column);
    if (!reply || column.streaming !== null || !item) return;
    const values = checkedValues([item]);
    const turns: Turn[] = [...column.turns, { role: "user", content: reply }];
    const input = values && inputFor(column, item, values[0]!, turns, stager());
    if (!input) return;
    change(column.id, { reply: "" });
    start(column.id, input, turns);
  };

  /** The person's result for each tool call the last answer made, sent as tool turns: the conversation goes on. */
  const sendToolResults = (column: Column) => {
    const calls = pendingToolCalls(column.turns);
    const item = promptOf(column);
    if (!calls.length || column.streaming !== null || !item || calls.some((call) => !(column.toolResults[call.id] ?? "").trim())) return;
    const values = checkedValues([item]);
    const turns: Turn[] = [...column.turns, ...calls.map((call): Turn => ({ role: "tool", toolCallId: call.id, content: column.toolResults[call.id]! }))];
    const input = values && inputFor(column, item, values[0]!, turns, stager());
    if (!input) return;
    change(column.id, { toolResults: {} });
    start(column.id, input, turns);
  };

  const saveAsVersion = (column: Column) => {
    const parameters = parametersOf(column.settings);
    if ("errors" in parameters) {
      change(column.id, { errors: parameters.errors });
      return;
    }
    const key = keepPlaygroundDraft({
      fromVersion: version.version,
      type: version.type,
      template: version.type === "text" ? template : null,
      messages: version.type === "chat" ? messages : null,
      variables: version.variables,
      model: column.settings.model.trim(),
      config: configWithParameters(version.config, parameters.parameters),
    });
    void navigate({ to: "/prompts/$promptId/new-version", params: { promptId: prompt.id }, search: { draft: key } });
  };

  /** A test case from the column's run: the variables as filled in, and its first answer (to the prompt itself) as the expected output. */
  const saveAsCase = (column: Column) => {
    const answer = column.turns.find((turn) => turn.role === "assistant")?.content;
    setCaseSeed({ variables: typedValues(contract, fields).values, placeholders, expected: answer });
  };

  // Kept as it is after each change (not while answers stream in: once they have come).
  useEffect(() => {
    if (!userId || running) return;
    keepPlayground(userId, prompt.id, {
      fromVersion: version.version,
      template: version.type === "text" ? template : null,
      messages: version.type === "chat" ? messages : null,
      fields,
      fills,
      columns: columns.map((column) => ({ version: column.version, settings: column.settings, turns: column.turns, run: column.run })),
    });
  }, [userId, prompt.id, version.version, version.type, template, messages, fields, fills, columns, running]);

  /** Starts over: one column on the edited body, no values, the version's own template; nothing kept. */
  const resetAll = () => {
    if (userId) forgetPlayground(userId, prompt.id);
    reset(fresh());
    setTemplate(version.template ?? "");
    setMessages(savedMessages);
    setFields({});
    setFills({});
    setProblems([]);
  };

  const versionChoices = [
    { value: "edited", label: "Edited" },
    ...Array.from({ length: prompt.latestVersion }, (_, index) => prompt.latestVersion - index).map((number) => ({ value: String(number), label: versionText(prompt, number) })),
  ];

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      runAll();
    }
  };

  return (
    // From 1280 px the columns and their answers sit beside the prompt and variables; narrower, below them.
    <div className="grid min-w-0 gap-6 xl:grid-cols-[minmax(0,2fr)_minmax(0,3fr)] xl:items-start" onKeyDown={onKeyDown}>
      <div className="grid min-w-0 gap-6">
      <section aria-labelledby="playground-prompt" className="grid min-w-0 gap-3">
        <div className="flex flex-wrap items-center gap-2">
          <h2 id="playground-prompt" className="text-base font-semibold">
            {version.type === "text" ? "Template" : "Messages"}
          </h2>
          <span className="text-sm text-muted-foreground">from {versionLabel(version.version)}</span>
          {edited && <Badge variant="secondary">Edited, not saved</Badge>}
          {edited && (
            <Button
              variant="ghost"
              size="sm"
              onClick={() => {
                setTemplate(version.template ?? "");
                setMessages(savedMessages);
              }}
            >
              <RotateCcw aria-hidden="true" />
              Back to {versionLabel(version.version)}
            </Button>
          )}
        </div>
        {version.type === "text" ? (
          <Textarea aria-label="Template" rows={8} className="font-mono" value={template} onChange={(event) => setTemplate(event.target.value)} />
        ) : (
          <MessagesEditor messages={messages} onChange={setMessages} />
        )}
      </section>

      {placeholderNames.length > 0 && (
        <section aria-labelledby="playground-placeholders" className="grid min-w-0 gap-3">
          <h2 id="playground-placeholders" className="text-base font-semibold">
            Placeholders
          </h2>
          <p className="text-sm text-muted-foreground">The messages each placeholder stands for in this run (none: it adds nothing).</p>
          {placeholderNames.map((name) => (
            <PlaceholderFill key={name} name={name} messages={fills[name] ?? []} onChange={(messages) => setFills((current) => ({ ...current, [name]: messages }))} />
          ))}
        </section>
      )}

      <section aria-labelledby="playground-variables" className="grid min-w-0 gap-3">
        <h2 id="playground-variables" className="text-base font-semibold">
          Variables
        </h2>
        {contract.length === 0 && <p className="text-sm text-muted-foreground">This prompt has no variables.</p>}
        <VariableFields contract={contract} fields={fields} setFields={setFields} problems={problems} className="md:grid-cols-2" />
        {asideFields.length > 0 && (
          <div data-testid="variables-aside" className="grid gap-1 rounded-md border border-dashed p-3 text-sm">
            <h3 className="font-medium">{oneVersion ? "Not used by this version" : "Not used by these versions"}</h3>
            <p className="text-muted-foreground">Kept for a version that uses them.</p>
            <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3">
              {asideFields.map(([name, value]) => (
                <div key={name} className="contents">
                  <dt className="font-mono">{name}</dt>
                  <dd className="truncate">{String(value)}</dd>
                </div>
              ))}
            </dl>
          </div>
        )}
      </section>
      </div>

      <section aria-labelledby="playground-models" className="grid min-w-0 gap-3">
        <div className="flex flex-wrap items-center gap-2">
          <h2 id="playground-models" className="mr-auto text-base font-semibold">
            Models
          </h2>
          <Button variant="ghost" size="sm" onClick={resetAll} disabled={running}>
            <RotateCcw aria-hidden="true" />
            Reset
          </Button>
          <Button
            variant="outline"
            size="sm"
            disabled={columns.length >= MAX_COLUMNS}
            onClick={() => add({ version: columns.at(-1)!.version, settings: { ...defaults(), connectionId: connectionOf(columns.at(-1)!) } })}
          >
            <Plus aria-hidden="true" />
            Add model
          </Button>
          {running ? (
            <Button variant="destructive" onClick={stopAll}>
              <Square aria-hidden="true" />
              Stop
            </Button>
          ) : (
            <Button onClick={runAll} disabled={!offered.length || unchosen || loading} aria-keyshortcuts="Control+Enter Meta+Enter">
              <Play aria-hidden="true" />
              Run
            </Button>
          )}
        </div>
        <p className="text-sm text-muted-foreground">Ctrl+Enter (⌘+Enter) runs every column at once: columns on two versions compare them, on one version compare models. Runs of an edited prompt are recorded as drafts, apart from the version's figures.</p>
        {connections.isPending ? (
          <Skeleton className="h-40 w-full" />
        ) : connections.isError ? (
          <LoadFailure title="The connections could not be loaded" error={connections.error} onRetry={connections.refetch} />
        ) : offered.length === 0 ? (
          <Alert>
            <AlertTitle>No model connection for this team</AlertTitle>
            <AlertDescription>An organization admin adds one under Model Providers (and may open it to this team).</AlertDescription>
          </Alert>
        ) : (
          <>
          {chosenConnection.data && (
            <p role="status" data-testid="connection-notice" className={chosenConnection.data.connectionId ? "text-sm text-muted-foreground" : "text-sm text-destructive"}>
              {chosenConnection.data.message}
            </p>
          )}
          <div className="grid min-w-0 grid-cols-1 gap-4 md:grid-cols-2">
            {columns.map((column, index) => (
              <PlaygroundColumn
                key={column.id}
                column={column}
                number={index + 1}
                connections={offered}
                connectionId={connectionOf(column)}
                versions={versionChoices}
                onVersion={(next) => change(column.id, { version: next === "edited" ? "edited" : Number(next) })}
                versionNote={column.version !== "edited" && !columnPrompts[index] ? (others[otherNumbers.indexOf(column.version)]?.isError ? "This version could not be loaded." : "Loading the version…") : undefined}
                removable={columns.length > 1}
                canSave={prompt.can.write && !prompt.archivedAt}
                onSettings={(patch) => change(column.id, (current) => ({ settings: { ...current.settings, ...patch } }))}
                onReply={(reply) => change(column.id, { reply })}
                onContinue={() => continueWith(column)}
                onToolResult={(callId, result) => change(column.id, (current) => ({ toolResults: { ...current.toolResults, [callId]: result } }))}
                onSendToolResults={() => sendToolResults(column)}
                onSave={() => saveAsVersion(column)}
                onSaveCase={() => saveAsCase(column)}
                onRemove={() => remove(column.id)}
              />
            ))}
          </div>
          </>
        )}
      </section>
      {prompt.can.write && !prompt.archivedAt && (
        <TestCaseDialog promptId={prompt.id} open={caseSeed !== null} onOpenChange={(open) => !open && setCaseSeed(null)} seed={caseSeed ?? undefined} />
      )}
    </div>
  );
}

/** The messages a run puts where a placeholder is: role and content, added and removed. */
function PlaceholderFill({ name, messages, onChange }: { name: string; messages: ChatMessage[]; onChange(messages: ChatMessage[]): void }) {
  const update = (index: number, patch: Partial<ChatMessage>) => onChange(messages.map((message, i) => (i === index ? { ...message, ...patch } : message)));
  return (
    <fieldset className="grid gap-2 rounded-md border border-dashed p-3" aria-label={`Placeholder ${name}`}>
      <legend className="px-1 font-mono text-sm">{name}</legend>
      {messages.length === 0 && <p className="text-sm text-muted-foreground">No messages: the placeholder adds nothing.</p>}
      <ol className="grid gap-2">
        {messages.map((message, index) => (
          <li key={index} className="grid gap-2">
            <div className="flex items-center gap-2">
              <RoleSelect value={message.role} onChange={(role) => update(index, { role })} label={`Role of ${name} message ${index + 1}`} className="w-36" />
              <Button variant="ghost" size="icon" className="ml-auto" aria-label={`Remove ${name} message ${index + 1}`} onClick={() => onChange(messages.filter((_, i) => i !== index))}>
                <Trash2 aria-hidden="true" />
              </Button>
            </div>
            <Textarea aria-label={`${name} message ${index + 1}`} rows={2} value={message.content} onChange={(event) => update(index, { content: event.target.value })} />
          </li>
        ))}
      </ol>
      <div>
        <Button variant="outline" size="sm" onClick={() => onChange([...messages, { role: messages.at(-1)?.role === "user" ? "assistant" : "user", content: "" }])}>
          <Plus aria-hidden="true" />
          Add a message to {name}
        </Button>
      </div>
    </fieldset>
  );
}

/** A chat prompt's messages, edited in place: role and content, added and removed; a placeholder is its own block, removed or kept. */
function MessagesEditor({ messages, onChange }: { messages: PromptMessage[]; onChange(messages: PromptMessage[]): void }) {
  const update = (index: number, patch: { role?: ChatRole; content?: string }) =>
    onChange(messages.map((message, i) => (i === index && !isPlaceholder(message) ? { ...message, ...patch } : message)));
  const remove = (index: number) => onChange(messages.filter((_, i) => i !== index));
  const lastRole = messages.filter((message) => !isPlaceholder(message)).at(-1);
  return (
    <div className="grid gap-3">
      <ol className="grid gap-3">
        {messages.map((message, index) =>
          isPlaceholder(message) ? (
            <li key={index} className="flex items-center gap-2 rounded-md border border-dashed bg-muted/40 p-3" data-placeholder={message.name}>
              <span className="font-mono text-sm text-muted-foreground">{placeholderText(message.name)}</span>
              <Button variant="ghost" size="icon" className="ml-auto" aria-label={`Remove message ${index + 1}`} onClick={() => remove(index)}>
                <Trash2 aria-hidden="true" />
              </Button>
            </li>
          ) : (
          <li key={index} className="grid gap-2 rounded-md border p-3">
            <div className="flex items-center gap-2">
              <RoleSelect value={message.role} onChange={(role) => update(index, { role })} label={`Role of message ${index + 1}`} className="w-36" />
              <Button variant="ghost" size="icon" className="ml-auto" aria-label={`Remove message ${index + 1}`} onClick={() => remove(index)}>
                <Trash2 aria-hidden="true" />
              </Button>
            </div>
            <Textarea aria-label={`Message ${index + 1}`} rows={3} className="font-mono" value={message.content} onChange={(event) => update(index, { content: event.target.value })} />
          </li>
          ),
        )}
      </ol>
      <div>
        <Button variant="outline" size="sm" onClick={() => onChange([...messages, { role: lastRole && !isPlaceholder(lastRole) && lastRole.role === "user" ? "assistant" : "user", content: "" }])}>
          <Plus aria-hidden="true" />
          Add message
        </Button>
      </div>
    </div>
  );
}
