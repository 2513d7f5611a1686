// The start warms the path of a model run before readiness answers ready, so the first run of a fresh
// process costs what the later ones do. What a first run otherwise pays: the JSON body parser's
// modules (and its character decoder) loaded, the run input's schema compiled, Prisma's query plans of
// the key and prompt lookups made, PostgreSQL's first planning of those statements and reading of the
// tables' catalog on the connection the run gets, and the first call through a provider's SDK and
// undici's fetch (building the request, reading the event stream), the read of the team's connections
// and the opening of a sealed key, and the rate limits' first connection to their store (a key limited
// to under 100 requests a minute is counted there before its run's provider call). The warm-up goes
// through the same functions as a run, with reads only: an API key that does not exist, the production
// version of a stored prompt read for a key that does not exist either (kept in no cache), a stored
// connection read but a throwaway key opened (never kept), the store asked a `SELECT 1`, and a
// streamed answer from a throwaway server of its own on the loopback, never a provider. Nothing is
// written, counted or audited. A part that fails is logged and skipped; the warm-up as a whole gives
// up after WARM_UP_LIMIT_MS.
import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import express from "express";
import {
  DomainError, authenticateBearer, compileRuntimePrompt, keyCaller, resolveRuntimePrompt, runtimeSelector, streamModelAnswer, warmRunConnections, type ApiServices,
} from "@promptly/api";
import { API_KEY_PREFIX, RUNTIME_DEFAULT_LABEL, RUNTIME_MSG, runtimeRunInput, type ProviderKind } from "@promptly/shared";
import type { Logger } from "./logger.ts";

/** Readiness waits for the warm-up at most this long, then answers ready without the rest of it. */
const WARM_UP_LIMIT_MS = 5_000;
/**
 * Times the path is gone through: code run once is still interpreted the next time, and a few rounds
 * get the run path's functions compiled by V8's baseline compiler (a first run about 10 ms shorter than after one round).
 */
const WARM_UP_ROUNDS = 3;
/** What the start logs once the run path is warmed; its `parts` name what was. */
export const RUN_PATH_WARMED = "Run path warmed ahead of the first run";

const ALPHANUMERIC = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** A well-formed key (so it is looked up) that no one holds. */
const unknownKey = () => API_KEY_PREFIX + [...randomBytes(43)].map((byte) => ALPHANUMERIC[byte % ALPHANUMERIC.length]).join("");

/** A cache that keeps nothing: the warm-up's reads leave no answer behind for anyone to be served. */
const keepsNothing = { prompt: () => undefined, mark: () => 0, keepPrompt: () => undefined } as unknown as ApiServices["runtime"];

/** The run body a tool sends, through a JSON body parser (/api/v1's limit) as a request's would go, and then the run input's schema. */
async function parseRunBody() {
  const body = Buffer.from(JSON.stringify({ variables: { name: "value" }, stream: true }));
  const request = Object.assign(Readable.from([body]), {
    method: "POST",
    url: "/",
    headers: { "content-type": "application/json; charset=utf-8", "content-length": String(body.length) },
  });
  await new Promise<void>((resolve, reject) => {
    express.json({ limit: "1mb" })(request as never, {} as never, (error?: unknown) => (error ? reject(error) : resolve()));
  });
  runtimeRunInput.parse((request as { body?: unknown }).body);
}

/**
 * The bearer check of a run's key, looked up in the database: a key that does not exist, with no rate
 * limit to count it against and no cache to count a miss in.
 */
async function lookUpKey({ db, now, rateLimits }: ApiServices) {
  const result = await authenticateBearer({ db, now, rateLimits }, `Bearer ${unknownKey()}`, { ratePerMinute: null, ip: "127.0.0.1" });
  // Anything but "unknown" means the key was not looked up (its format changed): nothing warmed.
  if (result.ok || result.message !== RUNTIME_MSG.unknownKey) throw new Error(`the key lookup answered ${result.ok ? "ok" : result.message}`);
}

/**
 * A run's reads of its prompt (the prompt by name, its label, the version), as a key of the prompt's
 * team would make them: for a stored prompt with a production version, else for a prompt that does
 * not exist (then only the first read runs, as it does when the visibility rule hides the stored one
 * from its team's keys). False when there was no such prompt.
 */
async function readPrompt(services: ApiServices): Promise<boolean> {
  const stored = await services.db.promptLabel.findFirst({
    where: { name: RUNTIME_DEFAULT_LABEL, prompt: { archivedAt: null } },
    select: { prompt: { select: { teamId: true, name: true } } },
  });
  const caller = keyCaller({ id: randomUUID(), teamId: stored?.prompt.teamId ?? randomUUID(), labels: null, scopes: ["run"] });
  try {
    const { prompt } = await resolveRuntimePrompt({ db: services.db, runtime: keepsNothing }, caller, stored?.prompt.name ?? "warm-up", runtimeSelector({}));
    // The shared compile a run checks its variables with (a refusal warms it as well).
    compileRuntimePrompt(prompt, {});
  } catch (error) {
    if (!(error instanceof DomainError && error.code === "NOT_FOUND")) throw error;
  }
  return stored !== null;
}

/** The rate limits' store answers once (its first connection opened), when limits are on; nothing is counted. */
async function openRateLimitStore(services: ApiServices): Promise<boolean> {
  if (!services.config.rateLimits) return false;
  await services.rateLimits.ready();
  return true;
}

/** One streamed answer in each SDK's dialect: a piece of text, then the usage. */
function answerAsProvider(url: string, res: ServerResponse) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const event = (data: unknown, name?: string) => res.write(`${name ? `event: ${name}\n` : ""}data: ${JSON.stringify(data)}\n\n`);
  if (url.endsWith("/messages")) {
    event({ type: "message_start", message: { id: "msg_warm_up", type: "message", role: "assistant", model: "warm-up", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } }, "message_start");
    event({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }, "content_block_start");
    event({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "ok" } }, "content_block_delta");
    event({ type: "content_block_stop", index: 0 }, "content_block_stop");
    event({ type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 1 } }, "message_delta");
    event({ type: "message_stop" }, "message_stop");
  } else {
    const chunk = { id: "warm-up", object: "chat.completion.chunk", created: 0, model: "warm-up" };
    event({ ...chunk, choices: [{ index: 0, delta: { role: "assistant", content: "ok" }, finish_reason: null }] });
    event({ ...chunk, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] });
    event({ ...chunk, choices: [], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } });
    res.write("data: [DONE]\n\n");
  }
  res.end();
}

/** A streamed model call through the SDK of each kind whose SDK the start loaded, answered by a throwaway server on the loopback. */
async function callModels(kinds: ProviderKind[]): Promise<boolean> {
  if (!kinds.length) return false;
  const server = createServer((req, res) => {
    req.resume();
    req.once("end", () => answerAsProvider(req.url ?? "", res));
  });
  try {
    await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    for (const kind of kinds) {
      const answer = streamModelAnswer(
        { kind, baseUrl: kind === "anthropic" ? origin : `${origin}/v1`, apiKey: "warm-up" },
        // Private addresses allowed for this call only: the address is this process's own server.
        { allowPrivate: true, timeoutMs: WARM_UP_LIMIT_MS },
        { model: "warm-up", input: { type: "text", text: "warm-up" }, parameters: {} },
      );
      let text = "";
      for await (const piece of answer) if (piece.type === "text") text += piece.text;
      if (text !== "ok") throw new Error(`the ${kind} call answered ${JSON.stringify(text)}`);
    }
    return true;
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

/** Until the runtime cache listens (startRuntimeSync): a run's key and version are kept from then on, and its reads do not meet the listener's. */
async function runtimeCacheServing(services: ApiServices, deadline: number) {
  while (!services.runtime.serving && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
}

/**
 * Warms the run path; resolves when done (or given up on), never rejects. `sdks`: the provider SDKs'
 * load already under way (the modules it loaded), waited for here so readiness includes it.
 */
export async function warmRunPath(services: ApiServices, { sdks, logger }: { sdks: Promise<string[]>; logger: Logger }): Promise<void> {
  const started = Date.now();
  const parts: string[] = [];
  const part = async (name: string, work: () => Promise<unknown>) => {
    try {
      if ((await work()) !== false) parts.push(name);
    } catch (error) {
      logger.warn({ err: error, part: name }, `Run path warm-up: ${name} skipped`);
    }
  };
  const warming = (async () => {
    await runtimeCacheServing(services, started + WARM_UP_LIMIT_MS);
    const modules = await sdks;
    if (modules.length) parts.push("provider SDKs");
    // The kinds whose SDK is loaded: openai's for OpenAI and OpenAI-compatible servers alike.
    const kinds: ProviderKind[] = [...(modules.includes("openai") ? ["openai-compatible" as const] : []), ...(modules.includes("@anthropic-ai/sdk") ? ["anthropic" as const] : [])];
    for (let round = 1; round <= WARM_UP_ROUNDS; round++) {
      // Only the first round's parts are listed and their failures logged (a part that failed once is not tried again).
      const step = round === 1 ? part : async (name: string, work: () => Promise<unknown>) => void (parts.includes(name) && (await work().catch(() => undefined)));
      await step("model call", () => callModels(kinds));
      await step("JSON body", parseRunBody);
      await step("API key lookup", () => lookUpKey(services));
      await step("prompt lookup", () => readPrompt(services));
      await step("connection lookup", () => warmRunConnections(services.db, services.config));
    }
    // Once, last: a connection is opened once (no code of ours to compile).
    await part("rate limit store", () => openRateLimitStore(services));
  })();
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<"limit">((resolve) => (timer = setTimeout(() => resolve("limit"), WARM_UP_LIMIT_MS)));
  const ended = await Promise.race([warming, limit]);
  clearTimeout(timer);
  const ms = Date.now() - started;
  if (ended === "limit") logger.warn({ parts, ms }, `Run path warm-up not finished in ${WARM_UP_LIMIT_MS} ms: ready without the rest of it`);
  else logger.info({ parts, ms }, `${RUN_PATH_WARMED} in ${ms} ms: ${parts.join(", ")}`);
}
