// A model provider for the tests: one local HTTP server that speaks OpenAI's API (`/v1/models`,
// `/v1/chat/completions`) and Anthropic's (`/v1/models`, `/v1/messages`) as their documentation
// describes them: the same paths, headers, JSON bodies, server-sent events and error bodies. The app's
// provider client (the official SDKs) talks to it exactly as to the real services. Which key it accepts,
// how slowly it starts an answer and which errors it gives are the test's to set.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeProviderOptions {
  /** The one key it accepts (Authorization: Bearer; Anthropic's x-api-key too). */
  apiKey?: string;
  models?: string[];
}

/**
 * How the next answers are given, until changed: `firstTokenDelayMs` holds the first token back (a slow
 * model), `repeat` makes the answer that many echoes long (a long answer), `chunkDelayMs` spaces the
 * streamed pieces (so a test can stop an answer midway), `text` replaces the echo.
 */
interface FakeAnswerOptions {
  firstTokenDelayMs: number;
  chunkDelayMs: number;
  repeat: number;
  /** The answer's text instead of the echo (a judge's verdict, say), until set back to null. */
  text: string | null;
  /**
   * A tool call instead of text, to a request that offers tools (its id made by the fake), until set
   * back to null; a request that ends with a tool result is answered with text all the same.
   */
  toolCall: { name: string; arguments: Record<string, unknown> } | null;
  /** A streamed OpenAI answer tells no usage even when asked for it (a server that ignores stream_options), until set back to false. */
  noUsage: boolean;
  /** The next answers wait for this before their first token (a whole answer: before its body), until set back to null. */
  hold: Promise<void> | null;
}

interface RecordedCall {
  protocol: "openai" | "anthropic";
  path: string;
  body: unknown;
}

export interface FakeProvider {
  /** `http://127.0.0.1:<port>/v1`: an OpenAI(-compatible) connection's base URL. */
  openaiBaseUrl: string;
  /** `http://127.0.0.1:<port>`: an Anthropic connection's base URL (the SDK adds /v1). */
  anthropicBaseUrl: string;
  apiKey: string;
  calls: RecordedCall[];
  /** The next answers fail with this HTTP status (401, 429, 500…), until set back to null. */
  failWith: number | null;
  /** The next `count` answers fail with `status` (e.g. 429 three times, then answers), counted down as they are given. */
  failNext: { status: number; count: number } | null;
  /** The provider's words in the next failures (401s included), instead of its usual ones, until set back to null. */
  failMessage: string | null;
  answer: FakeAnswerOptions;
  /** Streamed answers being written now; one that the client left is no longer counted. */
  readonly openStreams: number;
  /** Answers not streamed (one JSON body) being prepared now; one that the client left is no longer counted. */
  readonly openAnswers: number;
  /** How many streamed answers ended because the client went away (the server stopped writing). */
  readonly abandonedStreams: number;
  close(): Promise<void>;
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
};

/** The deterministic answer: the last user message's text, echoed (`repeat` times). */
export function fakeAnswerText(lastUserText: string, repeat = 1): string {
  const one = `Echo: ${lastUserText}`;
  return Array.from({ length: Math.max(1, repeat) }, () => one).join(" ");
}

/** The answer in pieces of about a word each, as a model streams it. */
const pieces = (text: string) => text.match(/\S+\s*|\s+/g) ?? [text];

/** Tokens as the fake counts them: one per whitespace-separated word, at least one. */
const countTokens = (text: string) => Math.max(1, text.split(/\s+/).filter(Boolean).length);

type ContentPart = { type?: string; text?: string };
const contentText = (content: unknown): string =>
  typeof content === "string" ? content : Array.isArray(content) ? (content as ContentPart[]).map((part) => (part.type === "text" || part.text ? (part.text ?? "") : "")).join("") : "";

interface ChatMessage {
  role: string;
  content: unknown;
}

/** Anthropic sends a tool result as a user's message: it is not what the person asked. */
const isToolResult = (message: ChatMessage) => Array.isArray(message.content) && (message.content as ContentPart[]).every((part) => part.type === "tool_result");
const lastUserText = (messages: ChatMessage[]) => contentText([...messages].reverse().find((message) => message.role === "user" && !isToolResult(message))?.content);
const promptText = (messages: ChatMessage[], system?: unknown) => [contentText(system), ...messages.map((message) => contentText(message.content))].join(" ");

// Each wait takes its abort listener off when it ends: a streamed answer waits once per piece on the
// same signal, and listeners left behind would pile up on it (Node warns past 10).
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (ms <= 0 || signal.aborted) return resolve();
    const end = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", end);
      resolve();
    };
    const timer = setTimeout(end, ms);
    signal.addEventListener("abort", end, { once: true });
  });

/** Waits for a held answer's release, or for the client to leave. */
const held = (hold: Promise<void> | null, signal: AbortSignal) =>
  hold && !signal.aborted
    ? new Promise<void>((resolve) => {
        signal.addEventListener("abort", () => resolve(), { once: true });
        void hold.then(resolve);
      })
    : Promise.resolve();

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? JSON.parse(text) : null;
}

/** The tool call to answer with: one is set, the request offers tools, and its last message is not a tool result. */
function toolCallFor(call: FakeAnswerOptions["toolCall"], tools: unknown, messages: ChatMessage[]) {
  if (!call || !Array.isArray(tools) || !tools.length) return null;
  const last = messages.at(-1);
  const answersATool = last?.role === "tool" || (Array.isArray(last?.content) && (last.content as ContentPart[]).some((part) => part.type === "tool_result"));
  return answersATool ? null : call;
}

interface OpenAIChatBody {
  model: string;
  tools?: unknown;
  messages?: ChatMessage[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
}

interface AnthropicBody {
  model: string;
  tools?: unknown;
  system?: unknown;
  messages?: ChatMessage[];
  stream?: boolean;
}

const OPENAI_ERRORS: Record<number, { message: string; type: string; code: string | null }> = {
  401: { message: "Incorrect API key provided.", type: "invalid_request_error", code: "invalid_api_key" },
  429: { message: "Rate limit reached for requests.", type: "requests", code: "rate_limit_exceeded" },
  500: { message: "The server had an error while processing your request.", type: "server_error", code: null },
};
const ANTHROPIC_ERRORS: Record<number, { type: string; message: string }> = {
  401: { type: "authentication_error", message: "invalid x-api-key" },
  429: { type: "rate_limit_error", message: "Number of request tokens has exceeded your per-minute rate limit" },
  500: { type: "api_error", message: "Internal server error" },
};

export async function startFakeProvider(options: FakeProviderOptions = {}): Promise<FakeProvider> {
  const apiKey = options.apiKey ?? "sk-test-provider-key-0001";
  const models = options.models ?? ["gpt-4o-mini", "claude-haiku-4-5", "local-llama"];
  const calls: RecordedCall[] = [];
  const state = { failWith: null as number | null, failMessage: null as string | null, openStreams: 0, openAnswers: 0, abandonedStreams: 0 };
  const answer: FakeAnswerOptions = { firstTokenDelayMs: 0, chunkDelayMs: 0, repeat: 1, text: null, toolCall: null, noUsage: false, hold: null };

  /**
   * Writes a server-sent event stream: headers at once, the first piece after the slow-start delay, then
   * the others. Stops writing as soon as the client disconnects.
   */
  async function stream(res: ServerResponse, events: (() => string)[], firstContentIndex: number) {
    const gone = new AbortController();
    res.on("close", () => gone.abort());
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    res.flushHeaders();
    state.openStreams++;
    try {
      for (const [index, event] of events.entries()) {
        if (index === firstContentIndex) await Promise.all([sleep(answer.firstTokenDelayMs, gone.signal), held(answer.hold, gone.signal)]);
        else if (index > firstContentIndex) await sleep(answer.chunkDelayMs, gone.signal);
        if (gone.signal.aborted) {
          state.abandonedStreams++;
          return;
        }
        res.write(event());
      }
      res.end();
    } finally {
      state.openStreams--;
    }
  }

  /** A whole answer's wait (the slow start), counted while it lasts; false when the client left meanwhile. */
  async function slowStart(res: ServerResponse): Promise<boolean> {
    const gone = new AbortController();
    res.on("close", () => gone.abort());
    state.openAnswers++;
    try {
      await Promise.all([sleep(answer.firstTokenDelayMs, gone.signal), held(answer.hold, gone.signal)]);
    } finally {
      state.openAnswers--;
    }
    return !gone.signal.aborted;
  }

  async function openaiChat(res: ServerResponse, body: OpenAIChatBody) {
    const text = answer.text ?? fakeAnswerText(lastUserText(body.messages ?? []), answer.repeat);
    const usage = { prompt_tokens: countTokens(promptText(body.messages ?? [])), completion_tokens: countTokens(text) };
    const fullUsage = { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens };
    const id = `chatcmpl-fake${calls.length}`;
    const created = 1_767_225_600;
    const model = body.model;
    const call = toolCallFor(answer.toolCall, body.tools, body.messages ?? []);
    const callId = `call_fake${calls.length}`;
    if (!body.stream) {
      if (!(await slowStart(res))) return;
      const message = call
        ? { role: "assistant", content: null, refusal: null, tool_calls: [{ id: callId, type: "function", function: { name: call.name, arguments: JSON.stringify(call.arguments) } }] }
        : { role: "assistant", content: text, refusal: null };
      return json(res, 200, {
        id, object: "chat.completion", created, model,
        choices: [{ index: 0, message, logprobs: null, finish_reason: call ? "tool_calls" : "stop" }],
        usage: fullUsage,
      });
    }
    const chunk = (delta: Record<string, unknown>, finish: string | null, extra: Record<string, unknown> = {}) => () =>
      `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...extra })}\n\n`;
    // A tool call streams as OpenAI's does: its id and name first, then its arguments' text in pieces.
    const argumentsText = call ? JSON.stringify(call.arguments) : "";
    const content = call
      ? [
          chunk({ tool_calls: [{ index: 0, id: callId, type: "function", function: { name: call.name, arguments: "" } }] }, null),
          ...[argumentsText.slice(0, 5), argumentsText.slice(5)].map((part) => chunk({ tool_calls: [{ index: 0, function: { arguments: part } }] }, null)),
        ]
      : pieces(text).map((piece) => chunk({ content: piece }, null));
    const events = [
      chunk({ role: "assistant", content: call ? null : "" }, null),
      ...content,
      chunk({}, call ? "tool_calls" : "stop"),
      // With stream_options.include_usage: one last chunk with no choices and the usage.
      ...(body.stream_options?.include_usage && !answer.noUsage ? [() => `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [], usage: fullUsage })}\n\n`] : []),
      () => "data: [DONE]\n\n",
    ];
    await stream(res, events, 1);
  }

  async function anthropicMessages(res: ServerResponse, body: AnthropicBody) {
    const text = answer.text ?? fakeAnswerText(lastUserText(body.messages ?? []), answer.repeat);
    const inputTokens = countTokens(promptText(body.messages ?? [], body.system));
    const outputTokens = countTokens(text);
    const id = `msg_fake${calls.length}`;
    const model = body.model;
    const call = toolCallFor(answer.toolCall, body.tools, body.messages ?? []);
    const callId = `toolu_fake${calls.length}`;
    if (!body.stream) {
      if (!(await slowStart(res))) return;
      return json(res, 200, {
        id, type: "message", role: "assistant", model,
        content: call ? [{ type: "tool_use", id: callId, name: call.name, input: call.arguments }] : [{ type: "text", text }],
        stop_reason: call ? "tool_use" : "end_turn", stop_sequence: null,
        usage: { input_tokens: inputTokens, output_tokens: outputTokens },
      });
    }
    const event = (name: string, data: Record<string, unknown>) => () => `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;
    const events = [
      event("message_start", {
        message: { id, type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: inputTokens, output_tokens: 1 } },
      }),
      // A tool call streams as Anthropic's does: a tool_use block whose input comes as pieces of JSON text.
      event("content_block_start", { index: 0, content_block: call ? { type: "tool_use", id: callId, name: call.name, input: {} } : { type: "text", text: "" } }),
      event("ping", {}),
      ...(call
        ? [JSON.stringify(call.arguments).slice(0, 5), JSON.stringify(call.arguments).slice(5)].map((part) =>
            event("content_block_delta", { index: 0, delta: { type: "input_json_delta", partial_json: part } }),
          )
        : pieces(text).map((piece) => event("content_block_delta", { index: 0, delta: { type: "text_delta", text: piece } }))),
      event("content_block_stop", { index: 0 }),
      event("message_delta", { delta: { stop_reason: call ? "tool_use" : "end_turn", stop_sequence: null }, usage: { output_tokens: outputTokens } }),
      event("message_stop", {}),
    ];
    await stream(res, events, 3);
  }

  // Assigned once listening; the handler reads it per request.
  let provider: FakeProvider | undefined;
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://localhost");
      // Anthropic's API requires the anthropic-version header on every request.
      const anthropic = req.headers["anthropic-version"] !== undefined;
      const body = req.method === "POST" ? await readBody(req) : null;
      calls.push({ protocol: anthropic ? "anthropic" : "openai", path: url.pathname, body });
      const fail = (status: number) => {
        const words = state.failMessage ? { message: state.failMessage } : {};
        return anthropic
          ? json(res, status, { type: "error", error: { ...(ANTHROPIC_ERRORS[status] ?? { type: "api_error", message: `status ${status}` }), ...words } })
          : json(res, status, { error: { ...(OPENAI_ERRORS[status] ?? { message: `status ${status}`, type: "server_error", code: null }), ...words } });
      };

      // OpenAI: Authorization: Bearer. Anthropic: x-api-key, or Authorization: Bearer (what its SDK sends now).
      const given = (anthropic && req.headers["x-api-key"]) || req.headers.authorization?.replace(/^Bearer /, "");
      if (given !== apiKey) return fail(401);
      if (state.failWith) return fail(state.failWith);
      const failNext = provider?.failNext;
      if (failNext && failNext.count > 0 && req.method === "POST") {
        failNext.count--;
        return fail(failNext.status);
      }

      if (req.method === "GET" && url.pathname === "/v1/models") {
        if (anthropic) {
          return json(res, 200, {
            data: models.map((id) => ({ type: "model", id, display_name: id, created_at: "2026-01-01T00:00:00Z" })),
            has_more: false,
            first_id: models[0] ?? null,
            last_id: models.at(-1) ?? null,
          });
        }
        return json(res, 200, { object: "list", data: models.map((id) => ({ id, object: "model", created: 1_767_225_600, owned_by: "test" })) });
      }
      if (req.method === "POST" && url.pathname === "/v1/chat/completions" && !anthropic) return openaiChat(res, body as OpenAIChatBody);
      if (req.method === "POST" && url.pathname === "/v1/messages" && anthropic) return anthropicMessages(res, body as AnthropicBody);
      return json(res, 404, anthropic ? { type: "error", error: { type: "not_found_error", message: "Not found" } } : { error: { message: "Not found", type: "invalid_request_error", code: null } });
    })().catch((error: unknown) => {
      if (!res.headersSent) json(res, 500, { error: { message: String(error) } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  provider = {
    failNext: null,
    openaiBaseUrl: `http://127.0.0.1:${port}/v1`,
    anthropicBaseUrl: `http://127.0.0.1:${port}`,
    apiKey,
    calls,
    answer,
    get openStreams() {
      return state.openStreams;
    },
    get openAnswers() {
      return state.openAnswers;
    },
    get abandonedStreams() {
      return state.abandonedStreams;
    },
    get failWith() {
      return state.failWith;
    },
    set failWith(status: number | null) {
      state.failWith = status;
    },
    get failMessage() {
      return state.failMessage;
    },
    set failMessage(message: string | null) {
      state.failMessage = message;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return provider;
}
