// Runs of prompt versions on real models: compiled by the shared compile (the same contract errors as
// everywhere), sent to the provider through its SDK and streamed back, limited (runs at once per
// organization, a timeout, a size cut) and always recorded, whatever their end: succeeded, failed
// (the provider's reason in plain words) or stopped (Stop, a closed page).
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { Prisma, hotQuery, type Db, type DbOrTx } from "@promptly/db";
import {
  bodyIncludes, DEFAULT_MAX_CONCURRENT_RUNS, MSG, RUNTIME_MSG, RUN_MSG, RUN_ANSWER_TOOL_CALLS_MAX, RUN_OUTPUT_MAX_CHARS, RUN_STATUSES, compile, displayName, isPlaceholder, runParametersSchema,
  unfilledPlaceholders, type ChatMessage, type PromptMessage, type PromptVersionBody, type RunParameters, type VariableContract, type listRunsInput, type runPromptInput,
} from "@promptly/shared";
import type { ApiConfig } from "../types.ts";
import { DomainError, fail } from "../../errors.ts";
import { instantSortValue, decodeKeysetCursor, encodeKeysetCursor } from "../platform/keyset-cursor.ts";
import { storableJson, storableText } from "../platform/storable-text.ts";
import { allowModel, allowTeamConnection, findRunConnection, openRunConnection, type RunConnectionRow } from "../models/connections.ts";
import { builtInModelPrice, costAt } from "../models/prices.ts";
import { withStagedDraft } from "./playground-drafts.ts";
import { describeProviderError, providerTimedOut, streamModelAnswer, toolCallLength, wholeModelAnswer, type ModelInput } from "../models/provider-client.ts";
import { resolveIncludes, type IncludeBody, type IncludeReader } from "../prompts/prompt-includes.ts";
import { schemaMismatch } from "../prompts/json-schemas.ts";
import { TOOLS_MSG, toolCallSchema, within, type PromptTool, type ResponseFormat, type ToolCall } from "@promptly/shared";

type Config = Pick<ApiConfig, "secret" | "allowPrivateProviderUrls" | "providerTimeoutMs" | "providerMaxConcurrentRuns">;

export const promptRunItem = z.object({
  id: z.string(),
  promptId: z.string(),
  version: z.number(),
  userId: z.string().nullable(),
  apiKeyId: z.string().nullable(),
  /**
   * Who ran it, named: the person's display name, or the API key's name (to those who manage the team's
   * keys; others read "API key", as analytics does). Null when the person or the key was deleted since.
   */
  actor: z.object({ kind: z.enum(["person", "apiKey"]), name: z.string() }).nullable(),
  connectionId: z.string().nullable(),
  connectionName: z.string(),
  model: z.string(),
  parameters: runParametersSchema,
  variables: z.record(z.string(), z.unknown()),
  input: z.union([
    z.object({ type: z.literal("text"), text: z.string() }),
    z.object({
      type: z.literal("chat"),
      messages: z.array(
        z.union([
          z.object({ role: z.enum(["system", "user", "assistant"]), content: z.string(), toolCalls: z.array(toolCallSchema).optional() }),
          z.object({ role: z.literal("tool"), toolCallId: z.string(), content: z.string() }),
        ]),
      ),
    }),
  ]),
  output: z.string(),
  /** The tools the model called, each with its arguments as the model wrote them (JSON text). */
  toolCalls: z.array(toolCallSchema),
  /** Whether the answer matched the version's response format (its JSON Schema, or any JSON object); null when there was none to check. */
  schemaMatched: z.boolean().nullable(),
  /** Why the answer did not match it. */
  schemaProblem: z.string().nullable(),
  inputTokens: z.number().nullable(),
  outputTokens: z.number().nullable(),
  ttftMs: z.number().nullable(),
  totalMs: z.number(),
  /** US dollars; null: the model's price is unknown (or the provider reported no usage, or not all of it: an answer cut or stopped before its end). */
  cost: z.number().nullable(),
  status: z.enum(RUN_STATUSES),
  error: z.string().nullable(),
  /** The provider's or the network's own words for the failure, behind the plain words of `error`. */
  errorDetail: z.string().nullable(),
  /** Said of a run that succeeded with something to know, e.g. that the answer was cut. */
  notice: z.string().nullable(),
  /** A run of the playground's edited, unsaved template or messages, or of a continued conversation: not the version as saved. */
  draft: z.boolean(),
  createdAt: z.date(),
});
export type PromptRunItem = z.infer<typeof promptRunItem>;

/** In the list, each tool call's arguments are cut at this many characters (runs.get has them whole). */
const LISTED_TOOL_ARGUMENTS_MAX = 1_000;
/** A listed tool call's id and name, cut at this many characters (a provider's are a few dozen). */
const LISTED_TOOL_NAME_MAX = 200;

/** The list's rows: everything but the (possibly long) input and output, the tool calls' arguments cut at LISTED_TOOL_ARGUMENTS_MAX. */
const promptRunSummary = promptRunItem.omit({ input: true, output: true, variables: true });
export const promptRunPage = z.object({ items: z.array(promptRunSummary), nextCursor: z.string().nullable() });

/** `providerStatus`: on a run the provider failed, the HTTP status it answered (null: none, e.g. unreachable). */
export type RunEvent = { type: "delta"; text: string } | { type: "done"; run: PromptRunItem; providerStatus?: number | null };

/**
 * Whether a whole answer (`output`, null when there is none to check: a failure, a cut answer, tool
 * calls instead of one) matches the response format: a JSON Schema's answer is JSON that it accepts,
 * a JSON object answer is a JSON object; a text format (or none) checks nothing.
 */
export function answerMatch(format: ResponseFormat | null, output: string | null): { schemaMatched: boolean | null; schemaProblem: string | null } {
  if (output === null || !format || format.type === "text") return { schemaMatched: null, schemaProblem: null };
  let value: unknown;
  try {
    value = JSON.parse(output);
  } catch {
    return { schemaMatched: false, schemaProblem: TOOLS_MSG.answerNotJson };
  }
  if (format.type === "json_object") {
    const isObject = value !== null && typeof value === "object" && !Array.isArray(value);
    return { schemaMatched: isObject, schemaProblem: isObject ? null : TOOLS_MSG.answerNotObject };
  }
  const problem = schemaMismatch(format.schema, value);
  return { schemaMatched: problem === null, schemaProblem: problem };
}

/** Who runs: a person or a team's API key. */
export type RunActor = { userId: string; apiKeyId?: null } | { userId?: null; apiKeyId: string };

/** Who a tRPC caller runs (and stages playground drafts) as: its API key when it is one, else the person. */
export const runActorOf = (caller: { userId: string; apiKey?: { id: string } }): RunActor =>
  caller.apiKey ? { apiKeyId: caller.apiKey.id } : { userId: caller.userId };

/** The prompt a run is of, as the procedure builder loaded and allowed it. */
export interface RunPrompt {
  id: string;
  teamId: string;
  organizationId: string;
  /** Who follows the includes of the version (or draft) run: the playground's person. Absent: the version comes resolved (REST's run). */
  reader?: IncludeReader;
}

const runSelect = {
  id: true, promptId: true, version: true, userId: true, apiKeyId: true, connectionId: true, connectionName: true, model: true, parameters: true,
  variables: true, input: true, output: true, inputTokens: true, outputTokens: true, ttftMs: true, totalMs: true, cost: true, status: true,
  error: true, errorDetail: true, notice: true, draft: true, createdAt: true, toolCalls: true, schemaMatched: true, schemaProblem: true,
} as const;

/** The person's or key's name, read with the run (runSelect's rows carry no names). */
const actorSelect = { user: { select: { email: true, profile: { select: { fullName: true } } } }, apiKey: { select: { name: true } } } as const;

type ActorRow = Prisma.PromptRunGetPayload<{ select: typeof actorSelect }>;

/** The run's actor as readers see it; `showKeyNames`: the reader manages the team's keys. */
function actorOf(row: ActorRow, showKeyNames: boolean): PromptRunItem["actor"] {
  if (row.user) return { kind: "person", name: displayName(row.user.profile?.fullName, row.user.email) };
  if (row.apiKey) return { kind: "apiKey", name: showKeyNames ? row.apiKey.name : "API key" };
  return null;
}

/** A run just recorded, as its actor's own answer names it (a person is named; a key's caller runs with its key). */
const toItem = (row: ActorRow & Record<string, unknown>, showKeyNames = true): PromptRunItem => {
  const { user: _user, apiKey: _apiKey, ...rest } = row;
  return promptRunItem.parse({ ...rest, actor: actorOf(row, showKeyNames) });
};

/** Runs in progress per organization, in this process. */
const inProgress = new Map<string, number>();

function takeSlot(organizationId: string, limit: number): () => void {
  const running = inProgress.get(organizationId) ?? 0;
  if (running >= limit) fail("RATE_LIMITED", RUN_MSG.tooManyRuns(limit), "TOO_MANY_RUNS");
  inProgress.set(organizationId, running + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (inProgress.get(organizationId) ?? 1) - 1;
    if (left > 0) inProgress.set(organizationId, left);
    else inProgress.delete(organizationId);
  };
}

/** A number from a version's free-form config, under any of its usual spellings. */
function configNumber(config: Record<string, unknown>, ...keys: string[]): number | undefined {
  for (const key of keys) {
    const value = config[key];
    if (typeof value === "number" && Number.isFinite(value)) return value;
  }
  return undefined;
}

/** The run's parameters: what it sets, else the version's config where it is valid, else nothing (the provider's default). */
export function runParameters(given: RunParameters, versionConfig: unknown): RunParameters {
  const config = versionConfig && typeof versionConfig === "object" && !Array.isArray(versionConfig) ? (versionConfig as Record<string, unknown>) : {};
  const stopConfig = typeof config.stop === "string" ? [config.stop] : config.stop;
  const fromConfig = runParametersSchema.safeParse({
    temperature: configNumber(config, "temperature"),
    maxTokens: configNumber(config, "maxTokens", "max_tokens", "max_completion_tokens"),
    topP: configNumber(config, "topP", "top_p"),
    stop: Array.isArray(stopConfig) && stopConfig.every((item) => typeof item === "string") ? stopConfig : undefined,
  });
  const merged = { ...(fromConfig.success ? fromConfig.data : {}), ...Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)) };
  return Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== undefined)) as RunParameters;
}

export const versionSelect = { type: true, template: true, messages: true, variables: true, model: true, config: true, tools: true, responseFormat: true } as const;
/** What a run reads of its version. */
export type RunVersion = Prisma.PromptVersionGetPayload<{ select: typeof versionSelect }>;

/** A version as a run reads it (versionSelect's fields), in plain SQL (hotQuery, not Prisma's engine): a playground run reads it before the provider is called. */
async function findRunVersion(db: DbOrTx, promptId: string, version: number): Promise<RunVersion | null> {
  const [row] = await hotQuery<RunVersion>(db, Prisma.sql`
    SELECT type::text AS type, template, messages, variables, model, config, tools, response_format AS "responseFormat"
    FROM prompt_versions WHERE prompt_id = ${promptId}::uuid AND version = ${version}::int`);
  return row ?? null;
}

/**
 * What a caller already read (the REST run: its version from the runtime cache, its connection with
 * the team's organization), so a run does not read it again; `connection` null: there is none.
 */
export interface RunPreloaded {
  version?: RunVersion;
  connection?: RunConnectionRow | null;
}

/** What a run needs before the provider is called; every refusal here happens with no call and no record. */
async function prepareRun(db: DbOrTx, config: Config, prompt: RunPrompt, input: z.output<typeof runPromptInput>, preloaded: RunPreloaded = {}) {
  // Independent reads, at once.
  const [version, connectionRow] = await Promise.all([
    preloaded.version ?? findRunVersion(db, prompt.id, input.version),
    preloaded.connection !== undefined ? preloaded.connection : findRunConnection(db, input.connectionId),
  ]);
  if (!version) return fail("NOT_FOUND", RUN_MSG.versionNotFound);
  allowTeamConnection(connectionRow, prompt);
  const model = input.model ?? version.model.trim();
  if (!model) return fail("INVALID", RUN_MSG.modelRequired, "MODEL_REQUIRED");
  allowModel(connectionRow, model);

  // A draft of the other kind would compile to something the version never is: refused, not converted.
  if (version.type === "chat" && input.template !== undefined) return fail("INVALID", RUN_MSG.draftTemplateForChat, "DRAFT_TYPE");
  if (version.type === "text" && input.messages !== undefined) return fail("INVALID", RUN_MSG.draftMessagesForText, "DRAFT_TYPE");
  const savedMessages = (version.messages ?? []) as unknown as PromptMessage[];
  // The draft keeps the version's described variables; a variable only the draft uses is a required string, as in the editor.
  const variables = version.variables as unknown as VariableContract[];
  const written: IncludeBody =
    version.type === "text" ? { type: "text", template: input.template ?? version.template ?? "" } : { type: "chat", messages: input.messages ?? savedMessages };
  const resolved = prompt.reader && bodyIncludes(written).length ? await resolveRunIncludes(db, prompt, prompt.reader, input.version, written) : written;
  const body: PromptVersionBody = { ...resolved, variables };
  const compiled = compile(body, input.variables, input.placeholders);
  if (!compiled.ok) return fail("INVALID", RUNTIME_MSG.compileFailed + compiled.message, "CONTRACT");
  const first = modelInputOf(compiled);
  const followUp = input.followUp ?? [];
  // A continued conversation is chat whatever the prompt's type: the compiled text is its first user message.
  const modelInput: ModelInput =
    followUp.length === 0
      ? first
      : { type: "chat", messages: [...(first.type === "text" ? [{ role: "user" as const, content: first.text }] : first.messages), ...followUp] };
  // Only a body that differs from the saved one (or a conversation carried on) makes a draft: the
  // playground sends its editor's text either way, and an untouched one is the version itself.
  const edited =
    version.type === "text"
      ? input.template !== undefined && input.template !== (version.template ?? "")
      : input.messages !== undefined && !sameMessages(input.messages, savedMessages);
  const connection = openRunConnection(config, connectionRow);
  return {
    model, modelInput, connection, connectionName: connectionRow.name, parameters: runParameters(input.parameters, version.config), draft: edited || followUp.length > 0,
    // Sent as written: variables in tools and schemas are not filled.
    tools: version.tools as unknown as PromptTool[],
    responseFormat: version.responseFormat as unknown as ResponseFormat | null,
  };
}

/** The includes of what a playground run sends, followed with the person's access (the prompt's name starts the chain). */
async function resolveRunIncludes(db: DbOrTx, prompt: RunPrompt, reader: IncludeReader, version: number, body: IncludeBody) {
  const { name } = await db.prompt.findUniqueOrThrow({ where: { id: prompt.id }, select: { name: true } });
  return (await resolveIncludes(db, reader, prompt.teamId, { name, version, id: null, body }, "STATE_CONFLICT")).body;
}

/**
 * A whole answer as a run records it (answerRun's cut of the same pieces: the text, then each call): its
 * text up to RUN_OUTPUT_MAX_CHARS, then its tool calls in order while their ids, names and arguments fit
 * with it, RUN_ANSWER_TOOL_CALLS_MAX at most; the call past either limit and those after it are left out.
 */
export function answerWithinLimit(answer: { text: string; toolCalls: ToolCall[] }): { text: string; toolCalls: ToolCall[] } {
  if (answer.text.length > RUN_OUTPUT_MAX_CHARS) return { text: answer.text.slice(0, RUN_OUTPUT_MAX_CHARS), toolCalls: [] };
  let length = answer.text.length;
  const toolCalls: ToolCall[] = [];
  for (const call of answer.toolCalls) {
    length += toolCallLength(call);
    if (length > RUN_OUTPUT_MAX_CHARS || toolCalls.length === RUN_ANSWER_TOOL_CALLS_MAX) break;
    toolCalls.push(call);
  }
  return { text: answer.text, toolCalls };
}

/** What the provider is sent for a compiled version: its text, or its messages (a placeholder left unfilled is refused, naming each). */
export function modelInputOf(compiled: { text: string } | { messages: PromptMessage[] }): ModelInput {
  if ("text" in compiled) return { type: "text", text: compiled.text };
  const unfilled = unfilledPlaceholders(compiled.messages);
  if (unfilled.length) fail("INVALID", RUN_MSG.placeholdersUnfilled(unfilled), "PLACEHOLDERS");
  return { type: "chat", messages: compiled.messages.filter((message): message is ChatMessage => !isPlaceholder(message)) };
}

const sameMessage = (a: PromptMessage, b: PromptMessage) =>
  isPlaceholder(a) || isPlaceholder(b) ? isPlaceholder(a) && isPlaceholder(b) && a.name === b.name : a.role === b.role && a.content === b.content;
const sameMessages = (a: readonly PromptMessage[], b: readonly PromptMessage[]) => a.length === b.length && a.every((message, i) => sameMessage(message, b[i]!));

/**
 * A run's row as it is written; `cost` at the built-in price of the model (null when it has none, or
 * without the usage): the organization's own price for it, when set, wins (read by the insert itself).
 */
type RunRecord = Omit<PromptRunItem, "id" | "actor" | "apiKeyId" | "userId" | "connectionId"> & { organizationId: string; userId: string | null; apiKeyId: string | null; connectionId: string };

/** A run's record waiting for the statement that writes it, with its id given here (so the statement's rows are told apart). */
interface PendingRecord {
  run: RunRecord & { id: string };
  resolve: (item: PromptRunItem) => void;
  reject: (error: unknown) => void;
}

/** Statements writing run records at once per database client: one filling while another commits. */
const RECORD_STATEMENTS_AT_ONCE = 2;
/** Records one statement writes at most. */
const RECORDS_PER_STATEMENT = 100;
/** Per database client: the records waiting for a statement, and the statements being written. */
const recordQueues = new WeakMap<Db, { waiting: PendingRecord[]; writing: number }>();

/**
 * Writes a run and answers it with its actor named, once committed. Runs that end while
 * RECORD_STATEMENTS_AT_ONCE statements are being written are written together by the next one (a
 * group commit): at 50 runs at once their records shared the pool's connections one statement, one
 * commit and one round trip each, on the same event loop as the other runs' answers. Each run still
 * awaits its own row's commit, and a statement that fails is written again row by row, so one run's
 * refused record is never another's.
 */
function insertRun(db: Db, run: RunRecord): Promise<PromptRunItem> {
  let queue = recordQueues.get(db);
  if (!queue) recordQueues.set(db, (queue = { waiting: [], writing: 0 }));
  const waiting = queue.waiting;
  const item = new Promise<PromptRunItem>((resolve, reject) => waiting.push({ run: { ...run, id: randomUUID() }, resolve, reject }));
  writeWaitingRecords(db, queue);
  return item;
}

/** Starts the next statement of waiting records while fewer than RECORD_STATEMENTS_AT_ONCE are being written. */
function writeWaitingRecords(db: Db, queue: { waiting: PendingRecord[]; writing: number }) {
  while (queue.writing < RECORD_STATEMENTS_AT_ONCE && queue.waiting.length) {
    const batch = queue.waiting.splice(0, RECORDS_PER_STATEMENT);
    queue.writing += 1;
    void writeRecords(db, batch).finally(() => {
      queue.writing -= 1;
      writeWaitingRecords(db, queue);
    });
  }
}

/**
 * Why a record was refused, as its run is answered. A foreign key failing is its prompt or its
 * organization deleted while the run ran (the person, key and connection are only linked if still
 * there): nothing was written, and the run is of a prompt that is gone, as a run asked for now would be
 * told (NOT_FOUND), not a failure of ours (a 500).
 */
const recordRefusal = (error: unknown) => ((error as { code?: unknown } | null)?.code === "23503" ? new DomainError("NOT_FOUND", MSG.notFound) : error);

async function writeRecords(db: Db, batch: PendingRecord[]) {
  let rows: RunRow[];
  try {
    rows = await insertRuns(db, batch.map((pending) => pending.run));
  } catch (error) {
    if (batch.length === 1) return batch[0]!.reject(recordRefusal(error));
    // Nothing of the statement was written: each alone, so the one refused hears why and the others are written.
    await Promise.all(batch.map((pending) => insertRuns(db, [pending.run]).then(([row]) => answerRecorded(pending, row!), (error: unknown) => pending.reject(recordRefusal(error)))));
    return;
  }
  batch.forEach((pending, index) => answerRecorded(pending, rows[index]!));
}

/** Answers a run with its written row, its actor named. */
function answerRecorded(pending: PendingRecord, row: RunRow) {
  try {
    const { email, fullName, keyName, ...rest } = row;
    pending.resolve(toItem({ ...rest, user: email === null ? null : { email, profile: { fullName } }, apiKey: keyName === null ? null : { name: keyName } }));
  } catch (error) {
    pending.reject(error);
  }
}

/** A run's row as insertRuns reads it back, with its actor's names. */
type RunRow = Omit<PromptRunItem, "actor"> & { email: string | null; fullName: string | null; keyName: string | null };

/**
 * Writes runs and reads them back (in the order given) with their actors' names, in one statement:
 * Prisma's create with the actor's relations took four round trips (BEGIN, INSERT, SELECT, COMMIT) at
 * the end of every run. The rows come as one array per column, so the statement's text (prepared once
 * per connection) is the same for any number of them. The organization's own price of the model is
 * read by the same statement (modelPriceFor's rule: its own price, else the built-in one), not by a
 * query of its own on every run; the cost is the same arithmetic in float8 as costAt's.
 */
async function insertRuns(db: Db, runs: (RunRecord & { id: string })[]): Promise<RunRow[]> {
  const column = <T>(value: (run: RunRecord & { id: string }) => T) => runs.map(value);
  // Texts from outside (the model's answer and tool calls, the provider's error, the variables) with
  // NUL and lone surrogates as U+FFFD, which PostgreSQL would refuse, failing the run's record.
  const text = (value: (run: RunRecord) => string | null) => column((run) => storableText(value(run)));
  const json = (value: (run: RunRecord) => unknown) => column((run) => storableJson(value(run)));
  const rows = await hotQuery<RunRow>(db, Prisma.sql`
    WITH given AS (
      SELECT * FROM unnest(${column((run) => run.id)}::uuid[], ${column((run) => run.organizationId)}::uuid[], ${column((run) => run.promptId)}::uuid[],
                           ${column((run) => run.version)}::int[], ${column((run) => run.userId)}::uuid[], ${column((run) => run.apiKeyId)}::uuid[],
                           ${column((run) => run.connectionId)}::uuid[], ${text((run) => run.connectionName)}::text[], ${text((run) => run.model)}::text[],
                           ${json((run) => run.parameters)}::jsonb[], ${json((run) => run.variables)}::jsonb[], ${json((run) => run.input)}::jsonb[],
                           ${text((run) => run.output)}::text[], ${column((run) => run.inputTokens)}::int[], ${column((run) => run.outputTokens)}::int[],
                           ${column((run) => run.ttftMs)}::int[], ${column((run) => run.totalMs)}::int[], ${column((run) => run.cost)}::float8[],
                           ${column((run) => run.status)}::text[], ${text((run) => run.error)}::text[], ${text((run) => run.errorDetail)}::text[],
                           ${text((run) => run.notice)}::text[], ${column((run) => run.draft)}::boolean[], ${column((run) => run.createdAt)}::timestamptz[],
                           ${json((run) => run.toolCalls)}::jsonb[], ${column((run) => run.schemaMatched)}::boolean[], ${text((run) => run.schemaProblem)}::text[])
        AS g(id, organization_id, prompt_id, version, user_id, api_key_id, connection_id, connection_name, model, parameters, variables, input,
             output, input_tokens, output_tokens, ttft_ms, total_ms, cost, status, error, error_detail, notice, draft, created_at,
             tool_calls, schema_matched, schema_problem)),
    run AS (
      INSERT INTO prompt_runs (id, organization_id, prompt_id, version, user_id, api_key_id, connection_id, connection_name, model, parameters, variables, input,
                               output, input_tokens, output_tokens, ttft_ms, total_ms, cost, status, error, error_detail, notice, draft, created_at,
                               tool_calls, schema_matched, schema_problem)
      SELECT g.id, g.organization_id, g.prompt_id, g.version,
             -- The person, key and connection as the run started, each only if still there: one deleted
             -- while the run ran leaves null, as its ON DELETE SET NULL would have (the connection's name
             -- is kept), rather than failing the foreign key check and losing the run. FOR KEY SHARE: one
             -- deleted since this statement's snapshot is waited for and read as gone, not as there.
             (SELECT u.id FROM users u WHERE u.id = g.user_id FOR KEY SHARE), (SELECT k.id FROM api_keys k WHERE k.id = g.api_key_id FOR KEY SHARE),
             (SELECT c.id FROM provider_connections c WHERE c.id = g.connection_id FOR KEY SHARE), g.connection_name, g.model, g.parameters, g.variables, g.input,
             g.output, g.input_tokens, g.output_tokens, g.ttft_ms, g.total_ms,
             COALESCE((SELECT (g.input_tokens * mp.input_per_million + g.output_tokens * mp.output_per_million) / 1000000
                       FROM model_prices mp WHERE mp.organization_id = g.organization_id AND mp.model = g.model), g.cost),
             g.status::prompt_run_status, g.error, g.error_detail, g.notice, g.draft, g.created_at, g.tool_calls, g.schema_matched, g.schema_problem
      FROM given g
      -- The rows the runs' foreign keys take, taken first, in the order the deletes take them: the
      -- prompt's (a team's or an organization's delete locks its prompts before anything else, a prompt's
      -- delete takes it first), then the organization's, and only then the person, key and connection
      -- above. Taken after those, as the insert's own foreign key checks did, a team's delete holding the
      -- prompt and waiting on the key this statement held deadlocked with it; the organization's taken
      -- before the prompt, an organization's delete holding the prompt did. Each set is taken whole (a
      -- one-time filter) before the next.
      WHERE (SELECT count(*) FROM (SELECT o.id FROM organizations o WHERE o.id IN (SELECT organization_id FROM given)
               AND (SELECT count(*) FROM (SELECT p.id FROM prompts p WHERE p.id IN (SELECT prompt_id FROM given) ORDER BY p.id FOR KEY SHARE) p) >= 0
               ORDER BY o.id FOR KEY SHARE) o) >= 0
      RETURNING *)
    SELECT run.id, run.prompt_id AS "promptId", run.version, run.user_id AS "userId", run.api_key_id AS "apiKeyId", run.connection_id AS "connectionId",
           run.connection_name AS "connectionName", run.model, run.parameters, run.variables, run.input, run.output, run.input_tokens AS "inputTokens",
           run.output_tokens AS "outputTokens", run.ttft_ms AS "ttftMs", run.total_ms AS "totalMs", run.cost, run.status::text AS status, run.error, run.error_detail AS "errorDetail", run.notice,
           run.draft, run.created_at AS "createdAt", run.tool_calls AS "toolCalls", run.schema_matched AS "schemaMatched",
           run.schema_problem AS "schemaProblem", u.email, p.full_name AS "fullName", k.name AS "keyName"
    FROM run LEFT JOIN users u ON u.id = run.user_id LEFT JOIN profiles p ON p.user_id = run.user_id LEFT JOIN api_keys k ON k.id = run.api_key_id`);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return runs.map((run) => byId.get(run.id)!);
}

type RunDeps = { db: Db; config: Config; now: () => Date };

/**
 * Runs of this process not recorded yet: answering, or their record waiting for its statement or being
 * written. Each is taken off once its record is written or refused.
 */
const unrecordedRuns = new Set<Promise<void>>();

/** Counts a run as not recorded yet; the function returned takes it off. */
function unrecordedRun(): () => void {
  let settle!: () => void;
  const run = new Promise<void>((resolve) => (settle = resolve));
  unrecordedRuns.add(run);
  return () => {
    unrecordedRuns.delete(run);
    settle();
  };
}

/**
 * Resolves once every run of this process is recorded (true), or at `timeoutMs` (false, some are not):
 * at shutdown, the runs that closing the connections stopped are written as stopped before the
 * database is closed, not lost with insertRun's queue.
 */
export async function runsRecorded(timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  // Runs begun while waiting are waited for too.
  while (unrecordedRuns.size) if ((await within(Promise.all(unrecordedRuns), deadline - Date.now())) === "late") return unrecordedRuns.size === 0;
  return true;
}

/**
 * Starts a run of a version: the refusals come first, thrown before any provider call and recorded
 * nowhere (a version or connection that is not there, a connection not open to the prompt's team, a
 * model the connection does not offer, variables that break the contract, the organization's
 * runs-at-once limit, a staged draft the caller may not run). Then the answer streams: `delta` events
 * as text comes, and `done` with the recorded run (a failure of the provider is a recorded run, not an
 * error). `signal` (a Stop, a closed page) aborts the provider call and records the run as stopped, as
 * does leaving the loop early. `answer` "whole": the caller reads only `done` (a run asked for without
 * a stream), so an OpenAI or compatible provider is asked for its answer in one response, read whole
 * (one `delta` with all of its text); Anthropic's is streamed all the same.
 */
export async function streamRun(
  deps: RunDeps,
  actor: RunActor,
  prompt: RunPrompt,
  input: z.output<typeof runPromptInput>,
  signal?: AbortSignal,
  preloaded?: RunPreloaded,
  answer: "streamed" | "whole" = "streamed",
): Promise<AsyncGenerator<RunEvent>> {
  // A staged draft stands in for inline fields from here on: prepareRun and the record see its body.
  const run = await withStagedDraft(deps.db, actor, prompt.id, input, deps.now());
  const prepared = await prepareRun(deps.db, deps.config, prompt, run, preloaded);
  const release = takeSlot(prompt.organizationId, deps.config.providerMaxConcurrentRuns ?? DEFAULT_MAX_CONCURRENT_RUNS);
  // A caller gone before the answer was ever read (even while the run was being prepared) still frees
  // its place; the answer's end frees it otherwise.
  if (signal?.aborted) release();
  else signal?.addEventListener("abort", release, { once: true });
  return answerRun(deps, actor, prompt, run, prepared, release, signal, answer === "whole" && prepared.connection.kind !== "anthropic");
}

async function* answerRun(
  deps: RunDeps,
  actor: RunActor,
  prompt: RunPrompt,
  input: z.output<typeof runPromptInput>,
  prepared: Awaited<ReturnType<typeof prepareRun>>,
  release: () => void,
  signal: AbortSignal | undefined,
  whole: boolean,
): AsyncGenerator<RunEvent> {
  const timeoutMs = deps.config.providerTimeoutMs ?? 60_000;
  const controller = new AbortController();
  const stopByCaller = () => controller.abort();
  if (signal?.aborted) controller.abort();
  else signal?.addEventListener("abort", stopByCaller, { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);

  const startedAt = performance.now();
  const createdAt = deps.now();
  let output = "";
  let ttftMs: number | null = null;
  let inputTokens: number | null = null;
  let outputTokens: number | null = null;
  let notice: string | null = null;
  const toolCalls: ToolCall[] = [];
  // The characters of the tool calls so far (whole or still coming): the answer's limit counts them with the text.
  let toolCallChars = 0;
  // The tool calls begun so far (RUN_ANSWER_TOOL_CALLS_MAX at most): empty ones count no character.
  let toolCallsBegun = 0;
  // Until the answer ends one way or the other, an exit (the caller left the loop) is a stop.
  let ending: { status: "succeeded" | "failed" | "stopped"; error: string | null; errorDetail?: string | null } = { status: "stopped", error: RUN_MSG.stopped };
  let recorded: PromptRunItem | null = null;
  let providerStatus: number | null | undefined;
  let recording = false;

  // Counted until its record is written or refused: shutdown waits for it (runsRecorded).
  const recordSettled = unrecordedRun();
  const recordRun = () =>
    insertRun(deps.db, {
      organizationId: prompt.organizationId,
      promptId: prompt.id,
      version: input.version,
      userId: actor.userId ?? null,
      apiKeyId: actor.apiKeyId ?? null,
      connectionId: prepared.connection.id,
      connectionName: prepared.connectionName,
      model: prepared.model,
      parameters: prepared.parameters,
      variables: input.variables,
      input: prepared.modelInput,
      output,
      inputTokens,
      outputTokens,
      ttftMs,
      totalMs: Math.round(performance.now() - startedAt),
      // At the built-in price; the insert reads the organization's own (modelPriceFor's rule).
      cost: costAt(builtInModelPrice(prepared.model), inputTokens, outputTokens),
      status: ending.status,
      error: ending.error,
      errorDetail: ending.errorDetail ?? null,
      notice,
      draft: prepared.draft,
      createdAt,
      toolCalls,
      ...answerMatch(prepared.responseFormat, ending.status === "succeeded" && toolCalls.length === 0 && notice === null ? output : null),
    });
  const record = async () => {
    recording = true;
    try {
      return await recordRun();
    } finally {
      recordSettled();
    }
  };

  // Whether the provider's answer was read to its end: nothing of the call is left to close then.
  let readToEnd = false;
  try {
    const answer = (whole ? wholeModelAnswer : streamModelAnswer)(
      prepared.connection,
      { allowPrivate: deps.config.allowPrivateProviderUrls ?? false, timeoutMs, signal: controller.signal },
      { model: prepared.model, input: prepared.modelInput, parameters: prepared.parameters, tools: prepared.tools, responseFormat: prepared.responseFormat },
    );
    try {
      for await (const piece of answer) {
        // A tool call comes whole, and is answered with the recorded run.
        if (piece.type === "toolCall") {
          ttftMs ??= Math.round(performance.now() - startedAt);
          toolCalls.push(piece.call);
          continue;
        }
        if (piece.type === "toolCallText") {
          toolCallChars += piece.length;
          if (piece.begins) toolCallsBegun++;
          // Cut as a long text is: the call still coming is left out (half of its arguments is no call).
          if (output.length + toolCallChars > RUN_OUTPUT_MAX_CHARS || toolCallsBegun > RUN_ANSWER_TOOL_CALLS_MAX) {
            notice = RUN_MSG.outputCut;
            break;
          }
          continue;
        }
        if (piece.type === "usage") {
          if (piece.inputTokens !== undefined) inputTokens = piece.inputTokens;
          if (piece.outputTokens !== undefined) outputTokens = piece.outputTokens;
          continue;
        }
        ttftMs ??= Math.round(performance.now() - startedAt);
        const room = RUN_OUTPUT_MAX_CHARS - output.length - toolCallChars;
        const text = piece.text.length > room ? piece.text.slice(0, room) : piece.text;
        output += text;
        if (text) yield { type: "delta", text };
        if (piece.text.length > room) {
          // Leaving the loop closes the provider's stream: nothing more is read or paid for.
          notice = RUN_MSG.outputCut;
          break;
        }
      }
      readToEnd = notice === null;
      // An SDK stream may end quietly when aborted: the abort, not the quiet end, says how it ended.
      ending = timedOut ? { status: "failed", error: providerTimedOut(prepared.connection, timeoutMs).message } : controller.signal.aborted ? { status: "stopped", error: RUN_MSG.stopped } : { status: "succeeded", error: null };
    } catch (error) {
      if (timedOut) ending = { status: "failed", error: providerTimedOut(prepared.connection, timeoutMs).message };
      else if (controller.signal.aborted) ending = { status: "stopped", error: RUN_MSG.stopped };
      else {
        const failure = describeProviderError(error, prepared.connection, { timeoutMs, model: prepared.model });
        providerStatus = failure.status;
        ending = { status: "failed", error: failure.message, errorDetail: failure.detail };
      }
    }
    recorded = await record();
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", stopByCaller);
    // Closes whatever of the call is still open (a failure, the caller gone); an answer read to its end
    // has nothing left, and an abort costs a DOMException and the SDK's and fetch's abort handlers.
    if (!readToEnd) controller.abort();
    release();
    // The caller left while the answer was still coming: the run is recorded as stopped all the same.
    if (!recording) recorded = await record();
  }
  if (recorded) yield providerStatus === undefined ? { type: "done", run: recorded } : { type: "done", run: recorded, providerStatus };
}

/** One run of a prompt; `showKeyNames`: the reader manages the team's keys. */
export async function getPromptRun(db: DbOrTx, promptId: string, id: string, showKeyNames: boolean): Promise<PromptRunItem> {
  const row = await db.promptRun.findFirst({ where: { id, promptId }, select: { ...runSelect, ...actorSelect } });
  if (!row) return fail("NOT_FOUND", RUN_MSG.runNotFound);
  return toItem(row, showKeyNames);
}

/** The prompt a run is of (the procedures' locator); null when there is none. */
export async function findPromptRunPromptId(db: DbOrTx, id: string): Promise<string | null> {
  return (await db.promptRun.findUnique({ where: { id }, select: { promptId: true } }))?.promptId ?? null;
}

/** A prompt's runs, newest first, 50 a page (keyset cursor: the last row's creation time and id); `showKeyNames`: the reader manages the team's keys. */
export async function listPromptRuns(db: DbOrTx, input: z.output<typeof listRunsInput>, showKeyNames: boolean): Promise<z.infer<typeof promptRunPage>> {
  const after = input.cursor ? decodeKeysetCursor(input.cursor, instantSortValue) : null;
  const rows = await db.promptRun.findMany({
    where: {
      promptId: input.promptId,
      ...(input.version !== undefined ? { version: input.version } : {}),
      ...(input.model !== undefined ? { model: input.model } : {}),
      ...(input.status !== undefined ? { status: input.status } : {}),
      ...(after ? { OR: [{ createdAt: { lt: after.sortValue } }, { createdAt: after.sortValue, id: { lt: after.id } }] } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: input.limit + 1,
    select: { ...runSelect, ...actorSelect, input: false, output: false, variables: false, toolCalls: false },
  });
  const page = rows.slice(0, input.limit);
  const toolCalls = await listedToolCalls(db, page.map((row) => row.id));
  const items = page.map(({ user: _user, apiKey: _apiKey, ...row }) =>
    promptRunSummary.parse({ ...row, toolCalls: toolCalls.get(row.id) ?? [], actor: actorOf({ user: _user, apiKey: _apiKey }, showKeyNames) }),
  );
  const last = items.at(-1);
  return { items, nextCursor: rows.length > input.limit && last ? encodeKeysetCursor(last.createdAt.toISOString(), last.id) : null };
}

/**
 * The tool calls of these runs, each call's arguments cut at LISTED_TOOL_ARGUMENTS_MAX in the database: a
 * page of runs whose calls are long (up to the output's limit each, more for a run recorded before calls
 * were counted in it) does not bring them all to the server and the page.
 */
async function listedToolCalls(db: DbOrTx, ids: string[]): Promise<Map<string, ToolCall[]>> {
  if (!ids.length) return new Map();
  const rows = await hotQuery<{ id: string; toolCalls: ToolCall[] }>(db, Prisma.sql`
    SELECT r.id, (SELECT COALESCE(jsonb_agg(jsonb_build_object('id', left(c.call->>'id', ${LISTED_TOOL_NAME_MAX}::int), 'name', left(c.call->>'name', ${LISTED_TOOL_NAME_MAX}::int),
                                                                'arguments', left(c.call->>'arguments', ${LISTED_TOOL_ARGUMENTS_MAX}::int)) ORDER BY c.at), '[]'::jsonb)
                  FROM jsonb_array_elements(r.tool_calls) WITH ORDINALITY AS c(call, at)) AS "toolCalls"
    FROM prompt_runs r WHERE r.id = ANY(${ids}::uuid[])`);
  return new Map(rows.map((row) => [row.id, row.toolCalls]));
}

/** The models a prompt's runs used, by name. */
export async function promptRunModels(db: DbOrTx, promptId: string): Promise<string[]> {
  const rows = await db.promptRun.findMany({ where: { promptId }, distinct: ["model"], select: { model: true }, orderBy: { model: "asc" } });
  return rows.map((row) => row.model);
}
