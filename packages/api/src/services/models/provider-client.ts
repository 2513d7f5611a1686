// Calls to model providers, through their official SDKs (`openai` for OpenAI and every OpenAI-compatible
// server, `@anthropic-ai/sdk` for Anthropic), never hand-written HTTP. Every call goes through the
// outbound rule's fetch (services/platform/outbound.ts), with no SDK retries (a person is waiting and sees
// the provider's answer) and a timeout. A failure becomes a ProviderFailure in plain words.
import type Anthropic from "@anthropic-ai/sdk";
import type OpenAI from "openai";
import { PROVIDER_MSG, RUN_MSG, openAiResponseFormat, openAiTools, type ChatMessage, type PromptTool, type ProviderKind, type ResponseFormat, type RunParameters, type ToolCall } from "@promptly/shared";
import { AnswerTooLargeError, BUFFERED_ANSWER_MAX_BYTES, PrivateAddressError, RedirectRefusedError, loadOutbound, outboundLoaded, providerFetch } from "../platform/outbound.ts";
import { wholeEvents } from "./whole-events.ts";

/** A connection with its key opened: only the services that call the provider hold one. */
export interface OpenConnection {
  /** A stored connection's id: its calls reuse its kept sockets (outbound.ts); none, a call of its own. */
  id?: string;
  /** Its name, as failures name it ("Could not reach Local vLLM at …"); none: "The provider". */
  name?: string;
  kind: ProviderKind;
  baseUrl: string | null;
  apiKey: string;
}

export interface CallOptions {
  allowPrivate: boolean;
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * What a failed call tells a person: the provider's HTTP status when there was one, why in plain words
 * with what to do (`message`), and the provider's or the network's own words (`detail`, null when none).
 */
export interface ProviderFailure {
  status: number | null;
  message: string;
  detail: string | null;
  /** On a 429 with Retry-After: when the provider accepts calls again, in milliseconds. */
  retryAfterMs?: number;
}

const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * What both SDKs are built with: the connection's key and base URL, the outbound rule's fetch (for calls
 * that ask for a stream, `streams`, or for none), no retries, the timeout, and no logging of their own (an
 * event they cannot parse they would print whole, the prompt's and answer's text with it).
 */
const clientOptions = (connection: OpenConnection, options: CallOptions, streams: boolean) => ({
  apiKey: connection.apiKey,
  baseURL: connection.baseUrl ?? undefined,
  fetch: providerFetch(options.allowPrivate, { streams, ...(connection.id ? { connection: { id: connection.id, baseUrl: connection.baseUrl } } : {}) }),
  maxRetries: 0,
  timeout: options.timeoutMs || DEFAULT_TIMEOUT_MS,
  logLevel: "off" as const,
});

/**
 * The SDK clients built for one opened connection, by the settings they were built with (the signal is
 * each call's own) and whether their calls stream: an evaluation's items share its opened connection, so
 * its thousands of calls build one client, not one each (about 40 µs of CPU per call went to the SDK's constructor).
 */
const builtClients = new WeakMap<OpenConnection, Map<string, OpenAI | Anthropic>>();

function sdkClient<T extends OpenAI | Anthropic>(
  sdk: "openai" | "anthropic",
  connection: OpenConnection,
  options: CallOptions,
  streams: boolean,
  build: (options: ReturnType<typeof clientOptions>) => T,
): T {
  let clients = builtClients.get(connection);
  if (!clients) builtClients.set(connection, (clients = new Map()));
  const key = `${sdk}:${options.allowPrivate}:${options.timeoutMs}:${streams}`;
  let client = clients.get(key) as T | undefined;
  if (!client) clients.set(key, (client = build(clientOptions(connection, options, streams))));
  return client;
}

type Sdks = { OpenAI?: typeof OpenAI; Anthropic?: typeof Anthropic };
/**
 * The SDKs loaded so far. Each is loaded only when a connection of its kind exists (a process that
 * runs no model, or only one kind, does without the other's ~10 MB of code and objects; both held
 * 20-25 MB of a server's RSS at rest), but ahead of the first call: at start when a stored connection
 * needs it, or as soon as one is read (warmProviderSdks), so no person's first run waits for a module
 * load (about 300 ms, and 120 ms more for the HTTP client under it). A call made while its SDK is
 * still loading waits for that same load.
 */
const sdks: Sdks = {};
const loading: { openai?: Promise<typeof OpenAI>; anthropic?: Promise<typeof Anthropic> } = {};
/** A failed load is forgotten, so the next call tries it again rather than failing for good. */
const forgetOnFailure = (sdk: keyof typeof loading) => (error: unknown) => {
  delete loading[sdk];
  throw error;
};
const loadOpenAI = () => (loading.openai ??= import("openai").then((module) => (sdks.OpenAI = module.default), forgetOnFailure("openai")));
const loadAnthropic = () => (loading.anthropic ??= import("@anthropic-ai/sdk").then((module) => (sdks.Anthropic = module.default), forgetOnFailure("anthropic")));

/**
 * Loads the SDKs that connections of these kinds call through, unless loaded or loading already, and
 * the HTTP client under them (outbound.ts); resolves when they are. A caller that only warms up need not wait.
 */
export async function warmProviderSdks(kinds: Iterable<ProviderKind>): Promise<void> {
  const needed = new Set([...kinds].map((kind) => (kind === "anthropic" ? loadAnthropic : loadOpenAI)));
  if (!needed.size) return;
  await Promise.all([...needed].map((load) => load()));
  await loadOutbound();
}

/** The modules of provider calls this process has loaded, by package name (what a start-up warmed, for its log line and tests). */
export const loadedProviderModules = (): string[] => [
  ...(sdks.OpenAI ? ["openai"] : []), ...(sdks.Anthropic ? ["@anthropic-ai/sdk"] : []), ...(outboundLoaded() ? ["undici"] : []),
];

/** `streams`: whether the client's calls ask for a stream (a call that asks for none is read whole within its timeout, outbound.ts). */
const openaiClient = async (connection: OpenConnection, options: CallOptions, streams: boolean) => {
  const Sdk = await loadOpenAI();
  // Its SDK searches an unended event again at each piece of it: it is given whole events (whole-events.ts).
  return sdkClient("openai", connection, options, streams, (built) => new Sdk({ ...built, fetch: wholeEvents(built.fetch) }));
};
const anthropicClient = async (connection: OpenConnection, options: CallOptions, streams: boolean) => {
  const Sdk = await loadAnthropic();
  return sdkClient("anthropic", connection, options, streams, (built) => new Sdk(built));
};

/** The provider's own message, without its JSON wrapping where the SDK kept it. */
function providerMessage(error: { message: string; error?: unknown }): string {
  const body = error.error as { message?: unknown; error?: { message?: unknown } } | undefined;
  const inner = body?.error?.message ?? body?.message;
  const text = typeof inner === "string" && inner ? inner : error.message;
  return text.replace(/\s+/g, " ").trim().slice(0, 300);
}

/** Anything in a provider's words that looks like a key: `sk-…`/`rk-…`/`pk-…`, a masked one (`***`), a bearer token. */
const KEY_LIKE = /(?:^|[^A-Za-z0-9])(?:sk|rk|pk)-|\*{3}/;
/** Stretches of the connection's key long enough to be of it (a provider may quote the key it refused, whole or in part). */
const KEY_WINDOW = 8;

/**
 * `text` without the connection's key or anything like one: a provider's message may quote the key it
 * refused (OpenAI: "Incorrect API key provided: sk-abc***wxyz"), and its words are stored and answered.
 */
function redactKey(text: string, apiKey: string): string {
  const windows = apiKey.length >= KEY_WINDOW ? Array.from({ length: apiKey.length - KEY_WINDOW + 1 }, (_, at) => apiKey.slice(at, at + KEY_WINDOW)) : [];
  return text
    .replace(/\bBearer\s+\S+/gi, "Bearer [redacted]")
    .replace(/[^\s"'`,;()<>[\]{}]+/g, (token) =>
      KEY_LIKE.test(token) || (apiKey.length >= KEY_WINDOW && token.includes(apiKey)) || windows.some((window) => token.includes(window)) ? "[redacted]" : token,
    );
}

/** The first error of class `type` in `error` and its chain of causes (the SDK's error, fetch's, the connector's). */
function inCauses<T extends Error>(error: unknown, type: new (...args: never[]) => T): T | undefined {
  for (let at = error, depth = 0; at && depth < 5; at = (at as { cause?: unknown }).cause, depth++) if (at instanceof type) return at;
  return undefined;
}

/** Where a connection's calls go, as `host:port` (the provider's own address when it has no base URL). */
function connectionAddress(connection: Pick<OpenConnection, "kind" | "baseUrl">): string {
  const url = new URL(connection.baseUrl ?? (connection.kind === "anthropic" ? "https://api.anthropic.com" : "https://api.openai.com"));
  return `${url.hostname.replace(/^\[|\]$/g, "")}:${url.port || (url.protocol === "http:" ? "80" : "443")}`;
}

/** A Retry-After header (seconds, or an HTTP date) in milliseconds from now; undefined when absent or unreadable. */
function retryAfterMs(headers: unknown): number | undefined {
  const value = headers && typeof (headers as Headers).get === "function" ? (headers as Headers).get("retry-after") : undefined;
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** The deepest message of an error's chain of causes (fetch's "fetch failed" hides the connector's "connect ECONNREFUSED …"). */
function innermostMessage(error: unknown): string | null {
  let message: string | null = null;
  for (let at = error, depth = 0; at instanceof Error && depth < 5; at = at.cause, depth++) if (at.message) message = at.message;
  return message;
}

/**
 * Any error of a provider call, as a person should read it: in plain words naming the connection and
 * what to do, the same for the playground, runs, evaluations and the APIs. The provider's or the
 * network's own words go in `detail`, cleared (like the message) of the connection's key and anything
 * like one. `timeoutMs`: the call's time limit, said when it ran out; `model`: the model asked for.
 */
export function describeProviderError(
  error: unknown,
  connection: Pick<OpenConnection, "name" | "kind" | "baseUrl" | "apiKey">,
  context: { timeoutMs?: number; model?: string } = {},
): ProviderFailure {
  const name = connection.name ?? "The provider";
  const apiKey = connection.apiKey;
  const privateAddress = inCauses(error, PrivateAddressError);
  if (privateAddress) return { status: null, message: PROVIDER_MSG.privateAddress(name, privateAddress.address), detail: null };
  const redirect = inCauses(error, RedirectRefusedError);
  if (redirect) return { status: redirect.status, message: PROVIDER_MSG.redirected(name, redirect.status, redirect.host), detail: null };
  const raw = innermostMessage(error);
  const detail = raw === null ? null : redactKey(raw, apiKey).slice(0, 1000);
  if (inCauses(error, AnswerTooLargeError)) return { status: null, message: PROVIDER_MSG.answerTooLarge(name, BUFFERED_ANSWER_MAX_BYTES / 1024 / 1024), detail };
  // An error of an SDK not loaded yet cannot be: its class is not asked.
  const isA = (kind: "APIUserAbortError" | "APIConnectionTimeoutError" | "APIConnectionError" | "APIError") =>
    (sdks.OpenAI !== undefined && error instanceof sdks.OpenAI[kind]) || (sdks.Anthropic !== undefined && error instanceof sdks.Anthropic[kind]);
  if (isA("APIUserAbortError")) return { status: null, message: RUN_MSG.stopped, detail: null };
  if (isA("APIConnectionTimeoutError")) return providerTimedOut(connection, context.timeoutMs ?? DEFAULT_TIMEOUT_MS, detail);
  if (isA("APIConnectionError")) {
    const unknownHost = /getaddrinfo (?:ENOTFOUND|EAI_AGAIN) ([^\s)]+)/.exec(raw ?? "");
    if (unknownHost) return { status: null, message: PROVIDER_MSG.unknownHost(name, unknownHost[1]!), detail };
    return { status: null, message: PROVIDER_MSG.unreachable(name, connectionAddress(connection)), detail };
  }
  if (isA("APIError")) {
    const apiError = error as InstanceType<typeof OpenAI.APIError> | InstanceType<typeof Anthropic.APIError>;
    const status = apiError.status ?? null;
    const said = redactKey(providerMessage(apiError), apiKey);
    const withStatus = { status, detail: status === null ? said : `${status}: ${said}` };
    if (status === 401 || status === 403) return { ...withStatus, message: PROVIDER_MSG.keyRefused(name) };
    if (status === 404) return { ...withStatus, message: PROVIDER_MSG.noSuchModel(name, context.model) };
    if (status === 429) {
      const after = retryAfterMs(apiError.headers);
      return { ...withStatus, message: PROVIDER_MSG.rateLimited(name, after), ...(after !== undefined ? { retryAfterMs: after } : {}) };
    }
    if (status !== null && status >= 500) return { ...withStatus, message: PROVIDER_MSG.providerFailed(name, status) };
    return { ...withStatus, message: PROVIDER_MSG.requestRefused(name, status) };
  }
  return { status: null, message: PROVIDER_MSG.failedOther(name), detail };
}

/**
 * Whether a call's failure (`failure`, describeProviderError's of `error`) may pass by itself, so the same call
 * later may be answered: no status (out of time, the provider unreachable), 408, 409, 429 or 5xx. A refusal of
 * the request itself (another 4xx: its key, its model, its size), a redirect, a private address or an answer
 * too large would fail the same way again.
 */
export function failureMayPass(error: unknown, failure: ProviderFailure): boolean {
  if (failure.status === null) return !inCauses(error, PrivateAddressError) && !inCauses(error, AnswerTooLargeError) && !inCauses(error, RedirectRefusedError);
  return failure.status === 408 || failure.status === 409 || failure.status === 429 || failure.status >= 500;
}

/** A call that ran out of time (the SDK's timeout, or a run's own limit on the whole answer). */
export function providerTimedOut(connection: Pick<OpenConnection, "name">, timeoutMs: number, detail: string | null = null): ProviderFailure {
  return { status: null, message: PROVIDER_MSG.timedOut(connection.name ?? "The provider", timeoutMs), detail };
}

/** The models the provider lists for this key ("Test connection"), sorted; or why it failed. */
export async function listProviderModels(
  connection: OpenConnection,
  options: CallOptions,
): Promise<{ ok: true; models: string[] } | ({ ok: false } & ProviderFailure)> {
  try {
    const models: string[] = [];
    if (connection.kind === "anthropic") {
      for await (const model of (await anthropicClient(connection, options, false)).models.list({}, { signal: options.signal })) models.push(model.id);
    } else {
      for await (const model of (await openaiClient(connection, options, false)).models.list({ signal: options.signal })) models.push(model.id);
    }
    return { ok: true, models: models.sort() };
  } catch (error) {
    return { ok: false, ...describeProviderError(error, connection, { timeoutMs: options.timeoutMs }) };
  }
}

/**
 * A message of a conversation the model is sent: a role's text, the model's earlier turn with the tool
 * calls it made, or the answer to one of them (a tool result).
 */
type ModelMessage = ChatMessage | { role: "assistant"; content: string; toolCalls: ToolCall[] } | { role: "tool"; toolCallId: string; content: string };

/** What a model is asked: a text prompt (sent as one user message) or chat messages. */
export type ModelInput = { type: "text"; text: string } | { type: "chat"; messages: ModelMessage[] };

/** The tools the model may call and the shape its answer must take, sent in each provider's own dialect. */
export interface ModelTools {
  tools?: readonly PromptTool[];
  responseFormat?: ResponseFormat | null;
}

/**
 * A piece of a streamed answer: text, a tool call the model made (whole), the usage the provider reports
 * (input and output tokens), or how many characters of a tool call (its id, name and arguments) came
 * since the last piece, `begins` when they begin a call (even with none): a call comes whole only at its
 * end, and a reader that limits the answer's size counts its characters and calls as they come, so it can
 * stop an endless call, or endless empty ones, before holding all of them.
 */
export type StreamPiece =
  | { type: "text"; text: string }
  | { type: "toolCall"; call: ToolCall }
  | { type: "toolCallText"; length: number; begins?: true }
  | { type: "usage"; inputTokens?: number; outputTokens?: number };

/** The characters of a whole tool call, as toolCallText pieces count them. */
export const toolCallLength = (call: ToolCall) => call.id.length + call.name.length + call.arguments.length;

/** Anthropic's API requires max_tokens; this is sent when neither the run nor the version sets it. */
const ANTHROPIC_DEFAULT_MAX_TOKENS = 4_096;

const asMessages = (input: ModelInput): ModelMessage[] => (input.type === "text" ? [{ role: "user", content: input.text }] : input.messages);

/** A tool call's arguments as an object (Anthropic's `input`): the model's JSON text, or `{}` when it is not an object. */
function argumentsObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** A message in Anthropic's form: a tool call is a `tool_use` block, a tool result a user's `tool_result` block. */
function anthropicMessage(message: ModelMessage): Anthropic.MessageParam {
  if (message.role === "tool") return { role: "user", content: [{ type: "tool_result", tool_use_id: message.toolCallId, content: message.content }] };
  if ("toolCalls" in message) {
    return {
      role: "assistant",
      content: [
        ...(message.content ? [{ type: "text" as const, text: message.content }] : []),
        ...message.toolCalls.map((call) => ({ type: "tool_use" as const, id: call.id, name: call.name, input: argumentsObject(call.arguments) })),
      ],
    };
  }
  return { role: message.role as "user" | "assistant", content: message.content };
}

/**
 * Anthropic's tools (`input_schema`) and structured output (`output_config.format`, a JSON Schema;
 * a JSON object answer is the schema of any object).
 */
function anthropicTools({ tools, responseFormat }: ModelTools) {
  return {
    ...(tools?.length
      ? { tools: tools.map((tool) => ({ name: tool.name, ...(tool.description !== undefined ? { description: tool.description } : {}), input_schema: { type: "object" as const, ...tool.parameters } })) }
      : {}),
    ...(responseFormat?.type === "json_schema" ? { output_config: { format: { type: "json_schema" as const, schema: responseFormat.schema } } } : {}),
    ...(responseFormat?.type === "json_object" ? { output_config: { format: { type: "json_schema" as const, schema: { type: "object" } } } } : {}),
  };
}

/** Anthropic's request body for `messages` (its system messages as its `system` text). */
function anthropicRequest(model: string, messages: ModelMessage[], parameters: RunParameters, tools: ModelTools) {
  const system = messages.filter((message) => message.role === "system").map((message) => message.content).join("\n\n");
  return {
    model,
    max_tokens: parameters.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
    messages: messages.filter((message) => message.role !== "system").map(anthropicMessage),
    ...(system ? { system } : {}),
    ...(parameters.temperature !== undefined ? { temperature: parameters.temperature } : {}),
    ...(parameters.topP !== undefined ? { top_p: parameters.topP } : {}),
    ...(parameters.stop?.length ? { stop_sequences: parameters.stop } : {}),
    ...anthropicTools(tools),
  };
}

/** A message in OpenAI's form: a tool call in `tool_calls`, a tool result a `tool` message. */
function openaiMessage(message: ModelMessage): OpenAI.ChatCompletionMessageParam {
  if (message.role === "tool") return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
  if ("toolCalls" in message) {
    return {
      role: "assistant",
      content: message.content || null,
      tool_calls: message.toolCalls.map((call) => ({ id: call.id, type: "function" as const, function: { name: call.name, arguments: call.arguments } })),
    };
  }
  return { role: message.role, content: message.content };
}

/** OpenAI's (and compatible servers') chat completion request body. */
const openaiRequest = (connection: OpenConnection, model: string, messages: ModelMessage[], parameters: RunParameters, tools: ModelTools) => ({
  model,
  messages: messages.map(openaiMessage),
  ...(tools.tools?.length ? { tools: openAiTools(tools.tools) } : {}),
  ...(tools.responseFormat ? { response_format: openAiResponseFormat(tools.responseFormat) as OpenAI.ChatCompletionCreateParams["response_format"] } : {}),
  ...(parameters.temperature !== undefined ? { temperature: parameters.temperature } : {}),
  // OpenAI's own API wants max_completion_tokens (its reasoning models refuse max_tokens); compatible servers know max_tokens.
  ...(parameters.maxTokens !== undefined ? (connection.kind === "openai" ? { max_completion_tokens: parameters.maxTokens } : { max_tokens: parameters.maxTokens }) : {}),
  ...(parameters.topP !== undefined ? { top_p: parameters.topP } : {}),
  ...(parameters.stop?.length ? { stop: parameters.stop } : {}),
});

/**
 * The model's whole answer to `input` in one response, not streamed (an evaluation's case: nobody
 * watches it arrive, and one JSON body costs less than a stream of events). Errors as streamModelAnswer's.
 */
export async function completeModelAnswer(
  connection: OpenConnection,
  options: CallOptions,
  request: { model: string; input: ModelInput; parameters: RunParameters } & ModelTools,
): Promise<{ text: string; toolCalls: ToolCall[]; inputTokens: number | null; outputTokens: number | null }> {
  const messages = asMessages(request.input);
  if (connection.kind === "anthropic") {
    const message = await (await anthropicClient(connection, options, false)).messages.create(
      { ...anthropicRequest(request.model, messages, request.parameters, request), stream: false },
      { signal: options.signal },
    );
    const text = message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
    const toolCalls = message.content.flatMap((block) => (block.type === "tool_use" ? [{ id: block.id, name: block.name, arguments: JSON.stringify(block.input) }] : []));
    return { text, toolCalls, inputTokens: message.usage.input_tokens, outputTokens: message.usage.output_tokens };
  }
  const completion = await (await openaiClient(connection, options, false)).chat.completions.create(
    { ...openaiRequest(connection, request.model, messages, request.parameters, request), stream: false },
    { signal: options.signal },
  );
  const message = completion.choices[0]?.message;
  const toolCalls = (message?.tool_calls ?? []).flatMap((call) => (call.type === "function" ? [{ id: call.id, name: call.function.name, arguments: call.function.arguments }] : []));
  return { text: message?.content ?? "", toolCalls, inputTokens: completion.usage?.prompt_tokens ?? null, outputTokens: completion.usage?.completion_tokens ?? null };
}

/**
 * completeModelAnswer's one response as streamModelAnswer's pieces (the usage, then its text whole,
 * then the tool calls), for a caller that reads the answer whole (a run asked for without a stream):
 * one JSON body read whole costs the server far less than an event stream read piece by piece.
 * OpenAI and compatible servers only: Anthropic's whole answer gives a tool call's arguments as an
 * object (written again by JSON.stringify), not as the model's text that its stream gives.
 */
export async function* wholeModelAnswer(
  connection: OpenConnection,
  options: CallOptions,
  request: { model: string; input: ModelInput; parameters: RunParameters } & ModelTools,
): AsyncGenerator<StreamPiece> {
  if (connection.kind === "anthropic") throw new Error("wholeModelAnswer: Anthropic's answers are read as streamed");
  const answer = await completeModelAnswer(connection, options, request);
  // The usage first (the stream's last chunk reports it: both counts, or none): a reader that stops at
  // an answer past its size still records what the call used.
  if (answer.inputTokens !== null || answer.outputTokens !== null) {
    yield { type: "usage", ...(answer.inputTokens !== null ? { inputTokens: answer.inputTokens } : {}), ...(answer.outputTokens !== null ? { outputTokens: answer.outputTokens } : {}) };
  }
  if (answer.text) yield { type: "text", text: answer.text };
  for (const call of answer.toolCalls) {
    yield { type: "toolCallText", length: toolCallLength(call), begins: true };
    yield { type: "toolCall", call };
  }
}

/**
 * The model's answer to `input`, streamed: text pieces as they come, each tool call whole once it is (its
 * characters counted as they come), and the usage once known. Errors
 * are the SDKs' (describeProviderError words them); `options.signal` aborts the provider call, and
 * leaving the loop early closes the provider's stream.
 */
export async function* streamModelAnswer(
  connection: OpenConnection,
  options: CallOptions,
  request: { model: string; input: ModelInput; parameters: RunParameters } & ModelTools,
): AsyncGenerator<StreamPiece> {
  const { model, parameters } = request;
  const messages = asMessages(request.input);
  if (connection.kind === "anthropic") {
    const stream = await (await anthropicClient(connection, options, true)).messages.create({ ...anthropicRequest(model, messages, parameters, request), stream: true }, { signal: options.signal });
    // A tool_use block's input comes as pieces of JSON text, whole at the block's end.
    const calls = new Map<number, ToolCall>();
    for await (const event of stream) {
      // The input's count only: message_start's output_tokens is the answer's so far (a token or so), its whole
      // count comes in message_delta at the end, and a reader that leaves early (a run cut at its size) must
      // not take the first as the answer's.
      if (event.type === "message_start") yield { type: "usage", inputTokens: event.message.usage.input_tokens };
      else if (event.type === "content_block_start" && event.content_block.type === "tool_use") {
        const call = { id: event.content_block.id, name: event.content_block.name, arguments: "" };
        calls.set(event.index, call);
        yield { type: "toolCallText", length: toolCallLength(call), begins: true };
      } else if (event.type === "content_block_delta" && event.delta.type === "text_delta") yield { type: "text", text: event.delta.text };
      else if (event.type === "content_block_delta" && event.delta.type === "input_json_delta") {
        const call = calls.get(event.index);
        if (call) {
          call.arguments += event.delta.partial_json;
          yield { type: "toolCallText", length: event.delta.partial_json.length };
        }
      } else if (event.type === "content_block_stop" && calls.has(event.index)) {
        const call = calls.get(event.index)!;
        calls.delete(event.index);
        yield { type: "toolCall", call: { ...call, arguments: call.arguments || "{}" } };
      } else if (event.type === "message_delta") yield { type: "usage", outputTokens: event.usage.output_tokens, ...(event.usage.input_tokens != null ? { inputTokens: event.usage.input_tokens } : {}) };
    }
    return;
  }
  const stream = await (await openaiClient(connection, options, true)).chat.completions.create(
    { ...openaiRequest(connection, model, messages, parameters, request), stream: true, stream_options: { include_usage: true } },
    { signal: options.signal },
  );
  // A tool call comes in pieces by its index (its id and name first, then its arguments' text), whole at the stream's end.
  const calls = new Map<number, ToolCall>();
  for await (const chunk of stream) {
    const delta = chunk.choices[0]?.delta;
    if (delta?.content) yield { type: "text", text: delta.content };
    for (const piece of delta?.tool_calls ?? []) {
      const known = calls.get(piece.index);
      const call = known ?? { id: "", name: "", arguments: "" };
      const grown = { id: piece.id ?? call.id, name: call.name + (piece.function?.name ?? ""), arguments: call.arguments + (piece.function?.arguments ?? "") };
      calls.set(piece.index, grown);
      // An id said again (some servers repeat it on every piece) is not counted again; a new index is a call begun, empty or not.
      const added = toolCallLength(grown) - toolCallLength(call);
      if (!known) yield { type: "toolCallText", length: added, begins: true };
      else if (added > 0) yield { type: "toolCallText", length: added };
    }
    if (chunk.usage) yield { type: "usage", inputTokens: chunk.usage.prompt_tokens, outputTokens: chunk.usage.completion_tokens };
  }
  // The SDK ends an aborted stream quietly: its calls may be halves (arguments cut mid-way), not calls the model made.
  if (options.signal?.aborted) return;
  for (const call of [...calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call)) yield { type: "toolCall", call };
}
