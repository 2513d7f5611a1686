// The caching prompt client for tools: `get(name, { label | version, fallback })` over
// GET /api/v1/prompts/{name}. A tool calls it on every request it serves, so a cached answer costs a
// Map lookup: within the TTL nothing is sent; after it the cached prompt is answered at once and one
// background refresh per key asks again with If-None-Match. Only a miss waits for the network.
import {
  ERROR_STATUS, Lru, RUNTIME_DEFAULT_LABEL, RUNTIME_MSG, compile, effectiveContract, extractPlaceholders, runtimeError, runtimePrompt, runtimeRunResult, type CompileResult,
  type PlaceholderValues, type PromptMessage,
  type PromptVersionBody, type RuntimePrompt, type RuntimeRunResult,
} from "@promptly/shared";
import { PromptCompileError, PromptlyApiError } from "./errors.ts";

export interface PromptClientOptions {
  /** Base URL of a Promptly server, e.g. http://localhost:3000 (the API lives at /api/v1). */
  url: string;
  /** A team API key (`promptly_…`), created on the Teams page. */
  apiKey: string;
  /** How long a fetched prompt is answered without asking the server. Default 60. */
  cacheTtlSeconds?: number;
  /** How many prompts (each name, selector and unit) are kept; past it the ones not read lately go. Default 1000. */
  cacheMaxEntries?: number;
  /** One attempt's limit, answer body included. Default 5000. */
  fetchTimeoutMs?: number;
  /** Retries of a network error, a timeout or a 5xx (a 4xx is never retried). Default 2. */
  maxRetries?: number;
  /** The wait before the first retry, doubled before each next one. Default 250. */
  retryDelayMs?: number;
  fetch?: typeof fetch;
  /** The clock of the TTL, in milliseconds. Default Date.now. */
  now?: () => number;
  /** Told when a background refresh fails (the cached prompt is kept and answered meanwhile). */
  onRefreshError?: (error: PromptlyApiError, name: string) => void;
  /** Told when a background refresh has stored its answer (a new version, or a 304 renewing the cached one). */
  onRefresh?: (name: string) => void;
}

/**
 * Which version to fetch: a label (default `production`) or a version number, not both. `unit` (a stable
 * id: a user, a session; 1 to 200 characters, any text) is sent as the `unit` query parameter (in the body
 * of a run): a split label then serves the unit the same one of its two versions every time (without
 * one, each fetch from the server is picked by weight).
 */
export type PromptSelector = ({ label?: string; version?: undefined } | { version: number; label?: undefined }) & { unit?: string };

export type GetPromptOptions = PromptSelector & {
  /**
   * Answered, marked `isFallback: true`, when a prompt that is not cached cannot be fetched (network,
   * timeout, 5xx, or any refusal): a text template, or the messages of a chat prompt.
   */
  fallback?: string | PromptMessage[];
};

/** A successful compile: `text` for a text prompt, `messages` for a chat prompt. */
export type CompiledPrompt = Extract<CompileResult, { ok: true }>;

/** One version of a prompt as the server answered it, ready to fill. */
export type Prompt = Readonly<RuntimePrompt> & {
  /** True when this is the `fallback` of the get, not an answer of the server (its `version` is then 0). */
  readonly isFallback: boolean;
  /**
   * Fills this version's variables with the shared `compile` (the one the server uses). Throws a
   * PromptCompileError naming every variable that breaks the contract: nothing renders blank. Each
   * placeholder of a chat prompt named in `placeholders` is replaced by its messages, as given; one
   * not named stays in place (`{ type: "placeholder", name }`), as Langfuse's SDKs leave it.
   */
  compile(values?: Record<string, unknown>, placeholders?: PlaceholderValues): CompiledPrompt;
};

/** How a run is made: the version as `get` selects it, and optionally another model or a named connection. */
export type RunOptions = PromptSelector & {
  /** Absent: the version's model. */
  model?: string;
  /** Absent: the organization's one connection open to the key's team. */
  connectionId?: string;
  /** Each placeholder's messages by its name ([] for none): a chat prompt's run needs every placeholder filled. */
  placeholders?: PlaceholderValues;
  /** Stops the run (the server aborts the provider call and records it as stopped); the call then rejects with the signal's reason (an AbortError, as fetch). */
  signal?: AbortSignal;
};

/** The output of a run and the run as the server recorded it. */
export type RunResult = RuntimeRunResult;

/** A streamed run: the answer's pieces as they come, then the output and the recorded run. */
export type RunStreamEvent = { type: "delta"; text: string } | ({ type: "done" } & RunResult);

export interface PromptClient {
  get(name: string, options?: GetPromptOptions): Promise<Prompt>;
  /**
   * Runs a prompt on a model with a key holding the `run` scope (never cached, never retried: a run
   * costs money). Refusals and a provider's failure (502, with `providerStatus`) throw PromptlyApiError.
   */
  run(name: string, values?: Record<string, unknown>, options?: RunOptions & { stream?: false }): Promise<RunResult>;
  /**
   * The same, streamed: `delta` events, then one `done`; breaking out of the loop stops the run. A run that
   * fails once its events began throws PromptlyApiError with the status its code has whole (404, 502).
   */
  run(name: string, values: Record<string, unknown>, options: RunOptions & { stream: true }): AsyncIterable<RunStreamEvent>;
}

interface Entry {
  prompt: Prompt;
  etag: string | null;
  /** On the `now` clock. */
  freshUntil: number;
}

type Fetched = { notModified: true } | { notModified: false; prompt: RuntimePrompt; etag: string | null };

function withCompile(fields: RuntimePrompt, isFallback: boolean): Prompt {
  const body: PromptVersionBody =
    fields.type === "text"
      ? { type: "text", template: fields.template ?? "", variables: fields.variables }
      : { type: "chat", messages: fields.messages ?? [], variables: fields.variables };
  // Frozen: every get of a key shares this object, so one caller cannot change what the others see.
  return Object.freeze({
    ...fields,
    // The contract in force, whoever made the fields: a fallback describes nothing, an older server sent only the described.
    variables: effectiveContract(body),
    placeholders: extractPlaceholders(body),
    isFallback,
    compile(values: Record<string, unknown> = {}, placeholders: PlaceholderValues = {}): CompiledPrompt {
      const result = compile(body, values, placeholders);
      if (!result.ok) throw new PromptCompileError(RUNTIME_MSG.compileFailed + result.message, result.problems);
      return result;
    },
  });
}

function fallbackPrompt(name: string, fallback: string | PromptMessage[]): Prompt {
  const shape = typeof fallback === "string" ? { type: "text" as const, template: fallback } : { type: "chat" as const, messages: fallback };
  return withCompile(
    { name, title: name, version: 0, ...shape, variables: [], placeholders: [], model: "", config: {}, labels: [], tags: [], updatedAt: new Date(0).toISOString() },
    true,
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A body or an event's data read as JSON; null when it is not JSON (then it is not what the API sends). */
function jsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * The error of an answer that is not the one asked for: the server's refusal, or that it said nothing usable.
 * A streamed run's `error` event (status null) came after the 200: it gets the status its code has in an
 * answer whole (a prompt deleted while the model answered 404, the provider's failure 502); an event the
 * client cannot read is the 502 of a failed run.
 */
function refusalOf(status: number | null, text: string): PromptlyApiError {
  const refusal = runtimeError.safeParse(jsonOrNull(text));
  if (!refusal.success) {
    if (status === null) return new PromptlyApiError(502, "INVALID_RESPONSE", "The server ended the run with an error event that is not an error of its API");
    return new PromptlyApiError(status, "INVALID_RESPONSE", `The server answered ${status} without an error of its API`);
  }
  const { code, message, details, providerStatus, detail } = refusal.data.error;
  return new PromptlyApiError(status ?? ERROR_STATUS[code], code, message, details, { providerStatus, detail });
}

/** The server-sent events of a streamed answer, as they arrive. */
async function* serverSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<{ event: string; data: string }> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf("\n\n")) !== -1) {
        const lines = buffer.slice(0, end).split("\n");
        buffer = buffer.slice(end + 2);
        const event = lines.find((line) => line.startsWith("event:"))?.slice(6).trim() ?? "message";
        yield { event, data: lines.filter((line) => line.startsWith("data:")).map((line) => line.slice(5).trimStart()).join("\n") };
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** Worth another attempt: no answer at all, or the server's own failure. */
const retryable = (error: unknown) => error instanceof PromptlyApiError && (error.status === 0 || error.status >= 500);

export function createPromptClient(options: PromptClientOptions): PromptClient {
  const {
    apiKey, cacheTtlSeconds = 60, cacheMaxEntries = 1000, fetchTimeoutMs = 5000, maxRetries = 2, retryDelayMs = 250, now = Date.now, onRefreshError, onRefresh,
  } = options;
  const fetchImpl = options.fetch ?? fetch;
  const base = `${options.url.replace(/\/+$/, "")}/api/v1/prompts/`;
  /** A prompt's address: each part of its name (a folder path) encoded on its own. */
  const promptUrl = (name: string) => `${base}${name.split("/").map(encodeURIComponent).join("/")}`;
  const ttlMs = cacheTtlSeconds * 1000;
  if (!Number.isInteger(cacheMaxEntries) || cacheMaxEntries < 1) throw new RangeError(`cacheMaxEntries must be a whole number of at least 1, not ${cacheMaxEntries}`);
  const cache = new Lru<Entry>(cacheMaxEntries);
  /** The one request per key under way (a miss or a refresh): concurrent gets share it. */
  const inFlight = new Map<string, Promise<Entry>>();

  /** One attempt, bounded by fetchTimeoutMs from the request to the last byte of the answer. */
  async function attempt(url: string, etag: string | null): Promise<Fetched> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), fetchTimeoutMs);
    let status = 0;
    let text: string;
    try {
      const response = await fetchImpl(url, {
        headers: { authorization: `Bearer ${apiKey}`, accept: "application/json", ...(etag ? { "if-none-match": etag } : {}) },
        signal: controller.signal,
      });
      status = response.status;
      if (status === 304) {
        await response.body?.cancel();
        return { notModified: true };
      }
      text = await response.text();
      if (status === 200) {
        const parsed = runtimePrompt.safeParse(JSON.parse(text));
        if (parsed.success) return { notModified: false, prompt: parsed.data, etag: response.headers.get("etag") };
        throw new PromptlyApiError(status, "INVALID_RESPONSE", "The server's answer is not a prompt");
      }
    } catch (cause) {
      if (cause instanceof PromptlyApiError) throw cause;
      if (controller.signal.aborted) {
        throw new PromptlyApiError(0, "TIMEOUT", `Promptly did not answer within ${fetchTimeoutMs} ms`, undefined, { cause });
      }
      if (status !== 0) throw new PromptlyApiError(status, "INVALID_RESPONSE", `The server answered ${status} with a body that is not JSON`, undefined, { cause });
      throw new PromptlyApiError(0, "NETWORK_ERROR", `Could not reach Promptly at ${options.url}: ${(cause as Error).message}`, undefined, { cause });
    } finally {
      clearTimeout(timer);
    }
    throw refusalOf(status, text);
  }

  /** The answer, and when the request that got it was sent (`askedAt`, on the TTL's clock). */
  async function fetchPrompt(name: string, selector: PromptSelector, etag: string | null): Promise<Fetched & { askedAt: number }> {
    const query = selector.version !== undefined ? `version=${selector.version}` : `label=${encodeURIComponent(selector.label ?? RUNTIME_DEFAULT_LABEL)}`;
    // The unit in the query, not in X-Promptly-Unit: a header carries only Latin-1 and loses the spaces at its ends.
    const url = `${promptUrl(name)}?${query}${selector.unit !== undefined ? `&unit=${encodeURIComponent(selector.unit)}` : ""}`;
    for (let retry = 0; ; retry += 1) {
      try {
        const askedAt = now();
        return { ...(await attempt(url, etag)), askedAt };
      } catch (error) {
        if (!retryable(error) || retry >= maxRetries) throw error;
        await sleep(retryDelayMs * 2 ** retry);
      }
    }
  }

  /** Fetches (or revalidates) a key and stores the answer; a failure leaves the cache as it was. */
  function load(key: string, name: string, selector: PromptSelector, previous: Entry | undefined): Promise<Entry> {
    const running = inFlight.get(key);
    if (running) return running;
    const request = fetchPrompt(name, selector, previous?.etag ?? null)
      .then((fetched): Entry => {
        // Fresh for the TTL from when the request was sent, as HTTP caches count an answer's age: the
        // server's state may have changed since then, and the time the answer took to arrive (or to be
        // read, on a busy process) does not lengthen it.
        const freshUntil = fetched.askedAt + ttlMs;
        let entry: Entry;
        if (!fetched.notModified) entry = { prompt: withCompile(fetched.prompt, false), etag: fetched.etag, freshUntil };
        else if (previous) entry = { ...previous, freshUntil };
        else throw new PromptlyApiError(304, "INVALID_RESPONSE", "The server answered 304 to a request without an ETag");
        cache.set(key, entry);
        return entry;
      })
      .finally(() => inFlight.delete(key));
    inFlight.set(key, request);
    return request;
  }

  async function miss(key: string, name: string, options: GetPromptOptions): Promise<Prompt> {
    try {
      return (await load(key, name, options, undefined)).prompt;
    } catch (error) {
      if (options.fallback !== undefined) return fallbackPrompt(name, options.fallback);
      throw error;
    }
  }

  /** POSTs a run; answers the response when it is a 200, else throws what the server said. */
  async function postRun(name: string, values: Record<string, unknown>, runOptions: RunOptions, stream: boolean): Promise<Response> {
    const { model, connectionId, signal, label, version, placeholders, unit } = runOptions;
    let response: Response;
    try {
      response = await fetchImpl(`${promptUrl(name)}/run`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${apiKey}`, "content-type": "application/json", accept: stream ? "text/event-stream" : "application/json",
        },
        body: JSON.stringify({ label, version, unit, model, connectionId, variables: values, placeholders, stream }),
        signal,
      });
    } catch (cause) {
      // A stop is the caller's, not the network's: it rejects with the signal's reason, as fetch does.
      if (signal?.aborted) throw signal.reason;
      throw new PromptlyApiError(0, "NETWORK_ERROR", `Could not reach Promptly at ${options.url}: ${(cause as Error).message}`, undefined, { cause });
    }
    if (response.status !== 200) throw refusalOf(response.status, await response.text());
    return response;
  }

  async function runOnce(name: string, values: Record<string, unknown>, options: RunOptions): Promise<RunResult> {
    const response = await postRun(name, values, options, false);
    const parsed = runtimeRunResult.safeParse(await response.json().catch(() => null));
    if (!parsed.success) throw new PromptlyApiError(200, "INVALID_RESPONSE", "The server's answer is not a run");
    return parsed.data;
  }

  async function* runStreamed(name: string, values: Record<string, unknown>, options: RunOptions): AsyncGenerator<RunStreamEvent> {
    const response = await postRun(name, values, options, true);
    // Stopped mid-stream: reading the body rejects with the signal's reason (fetch's AbortError).
    for await (const { event, data } of serverSentEvents(response.body!)) {
      if (event === "delta") {
        const text = (jsonOrNull(data) as { text?: unknown } | null)?.text;
        if (typeof text !== "string") throw new PromptlyApiError(200, "INVALID_RESPONSE", "The server sent a piece of the run's output that is not text");
        yield { type: "delta", text };
      } else if (event === "done") {
        const parsed = runtimeRunResult.safeParse(jsonOrNull(data));
        if (!parsed.success) throw new PromptlyApiError(200, "INVALID_RESPONSE", "The server's last event is not a run");
        yield { type: "done", ...parsed.data };
        return;
      } else if (event === "error") throw refusalOf(null, data);
    }
    throw new PromptlyApiError(200, "INVALID_RESPONSE", "The server ended the run's events before the run");
  }

  return {
    run: ((name: string, values: Record<string, unknown> = {}, options: RunOptions & { stream?: boolean } = {}) =>
      options.stream ? runStreamed(name, values, options) : runOnce(name, values, options)) as PromptClient["run"],
    get(name, options = {}) {
      // Every selector is part of the key: `production` and version 3 are different answers, and so are
      // two units of a split label (each keeps the version the server picked for it). Without a unit, the
      // version a split label answered is kept for the TTL like any answer.
      const selected = options.version !== undefined ? `${name}\nv${options.version}` : `${name}\nl${options.label ?? RUNTIME_DEFAULT_LABEL}`;
      const key = options.unit !== undefined ? `${selected}\nu${options.unit}` : selected;
      const entry = cache.get(key);
      if (!entry) return miss(key, name, options);
      if (now() >= entry.freshUntil && !inFlight.has(key)) {
        load(key, name, options, entry).then(
          () => onRefresh?.(name),
          (error: unknown) => {
            onRefreshError?.(error instanceof PromptlyApiError ? error : new PromptlyApiError(0, "NETWORK_ERROR", String(error), undefined, { cause: error }), name);
          },
        );
      }
      return Promise.resolve(entry.prompt);
    },
  };
}
