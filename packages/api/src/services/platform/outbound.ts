// Where calls to model providers may go: only to a connection's base URL, and not to a private,
// loopback or link-local address unless the operator allows it (ALLOW_PRIVATE_PROVIDER_URLS, for
// self-hosted models on the same network). The rule is checked when a connection is saved and again on
// every connection the provider calls open (the address the name resolves to then, so a name that
// later resolves elsewhere gains nothing, and an IP literal too). No outbound call follows a redirect;
// a provider's redirect is a failed call.
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, createServer, isIP, type AddressInfo } from "node:net";
import { pipeline, type Readable, type Transform } from "node:stream";
import { brotliDecompressSync, createBrotliDecompress, createGunzip, createInflate, gunzipSync, inflateSync } from "node:zlib";
import { createRequire } from "node:module";
import type { Agent } from "undici";

type Undici = typeof import("undici");
let undici: Undici | undefined;
/**
 * undici, loaded at the first outbound call (a model run, a webhook) instead of by every process at
 * start-up (about 10 MB), or ahead of it where a call is expected (loadOutbound).
 */
const loadUndici = (): Undici => (undici ??= createRequire(import.meta.url)("undici") as Undici);
/**
 * Loads what outbound calls go through, for a process that expects to make some: undici (about 100 ms
 * of a first call otherwise) and its HTTP parser, WebAssembly that undici compiles at its first
 * connection (about 20 ms more), compiled here by a request to a throwaway server on the loopback.
 */
let outboundLoading: Promise<void> | undefined;
export const loadOutbound = (): Promise<void> =>
  (outboundLoading ??= compileHttpParser().catch((error: unknown) => {
    outboundLoading = undefined;
    throw error;
  }));

async function compileHttpParser() {
  const { Agent, request } = loadUndici();
  const server = createServer((socket) => {
    socket.once("data", () => socket.end("HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n"));
    socket.on("error", () => undefined);
  });
  const agent = new Agent();
  try {
    await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", resolve));
    const answer = await request(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { dispatcher: agent });
    await answer.body.dump();
  } finally {
    server.close();
    await agent.close();
  }
}
/** Whether it is loaded (loadedProviderModules). */
export const outboundLoaded = (): boolean => undici !== undefined;

const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16], ["172.16.0.0", 12],
  ["192.0.0.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15], ["224.0.0.0", 4], ["240.0.0.0", 4],
] as const) PRIVATE.addSubnet(network, prefix, "ipv4");
// ::/96 (IPv4-compatible, deprecated; :: and ::1 too) and ::ffff:0:0:0/96 (IPv4-translated) carry an IPv4
// address and are never routed on the internet: refused whole, whatever they carry. fec0::/10 (site-local,
// deprecated but still routed inside some networks) and 100::/64 (discard-only) are no public addresses either.
for (const [network, prefix] of [
  ["::", 96], ["::ffff:0:0:0", 96], ["100::", 64], ["fc00::", 7], ["fe80::", 10], ["fec0::", 10], ["ff00::", 8], ["64:ff9b:1::", 48],
] as const) PRIVATE.addSubnet(network, prefix, "ipv6");

/**
 * IPv6 ranges that carry an IPv4 address (NAT64's well-known prefix, 6to4): reaching them reaches that
 * IPv4 address, so it is the one checked. `at`: the index of its first 16-bit group.
 */
const EMBEDDING: { list: BlockList; at: number }[] = [
  { network: "64:ff9b::", prefix: 96, at: 6 },
  { network: "2002::", prefix: 16, at: 1 },
].map(({ network, prefix, at }) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, "ipv6");
  return { list, at };
});

/** The eight 16-bit groups of an IPv6 literal (valid by isIP), a trailing dotted IPv4 part included. */
function ipv6Groups(address: string): number[] {
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  const text = dotted ? `${address.slice(0, dotted.index)}${((+dotted[1]! << 8) | +dotted[2]!).toString(16)}:${((+dotted[3]! << 8) | +dotted[4]!).toString(16)}` : address;
  const [head, tail] = text.split("::") as [string, string | undefined];
  const parse = (part: string | undefined) => (part ? part.split(":").map((group) => parseInt(group, 16)) : []);
  const [before, after] = [parse(head), parse(tail)];
  return tail === undefined ? before : [...before, ...new Array<number>(8 - before.length - after.length).fill(0), ...after];
}

/** Tests only: addresses counted as public, so a local server can stand in for one on the internet. */
const publicInTests = new Set<string>();

/**
 * Tests only (nothing else calls it): counts `addresses` as public until the returned function is
 * called; every other address stays under the real rule.
 */
export function countAsPublicInTests(addresses: readonly string[]): () => void {
  for (const address of addresses) publicInTests.add(address);
  return () => {
    for (const address of addresses) publicInTests.delete(address);
  };
}

/** Whether `address` (an IP literal) is private, loopback, link-local or otherwise not on the public internet. */
function isPrivateAddress(address: string): boolean {
  if (publicInTests.size && publicInTests.has(address)) return false;
  const family = isIP(address);
  if (family === 4) return PRIVATE.check(address, "ipv4");
  if (family === 6) {
    // BlockList checks an IPv4-mapped address (::ffff:a.b.c.d, in any notation) against the IPv4 ranges.
    if (PRIVATE.check(address, "ipv6")) return true;
    const embedding = EMBEDDING.find(({ list }) => list.check(address, "ipv6"));
    if (!embedding) return false;
    const groups = ipv6Groups(address);
    const [high, low] = [groups[embedding.at]!, groups[embedding.at + 1]!];
    return PRIVATE.check(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`, "ipv4");
  }
  return true;
}

const lookupAll = (hostname: string) =>
  new Promise<LookupAddress[]>((resolve, reject) => dnsLookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))));

/** Whether `baseUrl` may be called: false when its host is, or resolves to, a private address and those are not allowed. */
export async function outboundAllowed(baseUrl: string, allowPrivate: boolean): Promise<boolean> {
  if (allowPrivate) return true;
  const host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, "");
  if (isIP(host)) return !isPrivateAddress(host);
  try {
    const addresses = await lookupAll(host);
    return addresses.length > 0 && addresses.every((entry) => !isPrivateAddress(entry.address));
  } catch {
    // A name that does not resolve now may later; the call-time check still guards it.
    return true;
  }
}

/** The refusal the call-time check raises; the provider client reports it as the connection's error. */
export class PrivateAddressError extends Error {
  constructor(readonly address: string) {
    super(`Refused to connect to the private address ${address}`);
  }
}

/** The refusal of a redirect: no outbound call follows one. `host`: the Location's host, null when it names none. */
export class RedirectRefusedError extends Error {
  // The host stays out of the message: the SDKs read "time out" in a message as a timeout.
  constructor(readonly status: number, readonly host: string | null) {
    super(`Refused to follow a redirect (${status})`);
  }
}

/**
 * A dispatcher whose connector refuses private addresses (unless allowed) on every connection it
 * opens: an IP literal as it is (Node looks none up), a name after resolving it.
 */
function guardedAgent(allowPrivate: boolean): Agent {
  const { Agent, buildConnector } = loadUndici();
  if (allowPrivate) return new Agent();
  const connector = buildConnector({
    lookup(hostname, options, callback) {
      dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
        if (error) return callback(error, "", 0);
        const list = addresses as LookupAddress[];
        const refused = list.find((entry) => isPrivateAddress(entry.address));
        if (refused) return callback(new PrivateAddressError(refused.address), "", 0);
        const first = list[0]!;
        if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
        callback(null, first.address, first.family);
      });
    },
  });
  return new Agent({
    connect(options, callback) {
      const host = options.hostname.replace(/^\[|\]$/g, "");
      if (isIP(host) && isPrivateAddress(host)) return callback(new PrivateAddressError(host), null);
      connector(options, callback);
    },
  });
}

/**
 * The agents of connections, kept so that a connection's calls reuse its open sockets (no new TCP
 * connection and TLS handshake per run). One per connection, base URL and rule: a changed base URL or
 * rule gets a new one, and a connection's calls never share sockets with another's. Bounded: the
 * least recently used is closed (its calls in flight finish) past AGENTS_MAX; idle sockets close
 * after undici's keep-alive timeout either way.
 */
const AGENTS_MAX = 200;
const agents = new Map<string, { connectionId: string; agent: Agent }>();

function keptAgent(connectionId: string, baseUrl: string | null, allowPrivate: boolean): Agent {
  const key = `${connectionId}\n${baseUrl ?? ""}\n${allowPrivate}`;
  const kept = agents.get(key);
  if (kept) {
    agents.delete(key);
    agents.set(key, kept);
    return kept.agent;
  }
  const agent = guardedAgent(allowPrivate);
  agents.set(key, { connectionId, agent });
  if (agents.size > AGENTS_MAX) {
    const [oldest, entry] = agents.entries().next().value!;
    agents.delete(oldest);
    void entry.agent.close().catch(() => undefined);
  }
  return agent;
}

/** Closes a connection's kept agents (it was changed or removed): its next call opens new sockets. */
export function dropProviderAgents(connectionId: string): void {
  for (const [key, entry] of agents) {
    if (entry.connectionId !== connectionId) continue;
    agents.delete(key);
    void entry.agent.close().catch(() => undefined);
  }
}

/**
 * The fetch the provider SDKs use: undici with a connector that refuses private addresses (unless
 * allowed) after resolving the name, so the check holds for the address actually connected to. A
 * redirect is never followed, allowed or not (a model API has no reason to send one): the call fails
 * with a RedirectRefusedError. `streams`: whether the SDK's calls through it ask for their answers
 * streamed (its caller knows; see providerRequest). With
 * `connection` (a stored connection), the dispatcher is that connection's kept agent, looked up at each
 * call (a client kept across calls follows a changed connection's new agent; the check runs on each
 * connection it opens); without, one for this fetch alone. Each call is a plain undici request, not
 * undici's fetch (see providerRequest): about 250 µs of CPU less per answer read whole (an evaluation
 * makes thousands of such calls) and 500 µs per streamed one.
 */
export function providerFetch(allowPrivate: boolean, { streams, connection }: { streams: boolean; connection?: { id: string; baseUrl: string | null } }): typeof fetch {
  const ownAgent = connection ? null : guardedAgent(allowPrivate);
  const guarded = fetchThrough(() => ownAgent ?? keptAgent(connection!.id, connection!.baseUrl, allowPrivate), { streams });
  return (async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
    const response = await guarded(input, init);
    if (!REDIRECT_STATUSES.has(response.status)) return response;
    await response.body?.cancel().catch(() => undefined);
    const location = response.headers.get("location");
    let host: string | null = null;
    try {
      if (location) host = new URL(location, urlOf(input)).hostname || null;
    } catch {
      // A Location that is no URL names no host.
    }
    throw new RedirectRefusedError(response.status, host);
  }) as typeof fetch;
}

const urlOf = (input: Parameters<typeof fetch>[0]) => (typeof input === "string" ? input : input instanceof URL ? input.href : input.url);

/** One agent per rule for calls that belong to no connection (webhook deliveries): their sockets are reused. */
const ruleAgents = new Map<boolean, Agent>();

/** undici's fetch under the same rule as providerFetch, for any outbound call (webhook deliveries); a redirect is answered as it came, not followed. */
export function outboundFetch(allowPrivate: boolean): typeof fetch {
  let agent = ruleAgents.get(allowPrivate);
  if (!agent) ruleAgents.set(allowPrivate, (agent = guardedAgent(allowPrivate)));
  const dispatcher = agent;
  return fetchThrough(() => dispatcher, null);
}

/**
 * The rule's fetch over the agent `agentOf` answers at each call (its connector checks each address);
 * never following a redirect. `provider`: a provider SDK's calls (a string body, or none) go through
 * providerRequest, `streams` whether they ask for a stream; null for any other call.
 */
function fetchThrough(agentOf: () => Agent, provider: { streams: boolean } | null): typeof fetch {
  const guarded = ((input: Parameters<Undici["fetch"]>[0], init?: Parameters<Undici["fetch"]>[1]) => {
    const dispatcher = agentOf();
    if (provider && (typeof input === "string" || input instanceof URL) && (init?.body == null || typeof init.body === "string")) {
      return providerRequest(input, init, dispatcher, provider.streams);
    }
    return loadUndici().fetch(input, { ...init, redirect: "manual", dispatcher });
  }) as unknown as typeof fetch;
  return guarded;
}

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * The most of a provider's answer, as sent and once decoded, read whole or streamed: generous for any
 * model's answer, and a provider (its URL an admin's to set) that answers endlessly, or a small gzip
 * that inflates to gigabytes, fails its call instead of taking the server's memory.
 */
export const BUFFERED_ANSWER_MAX_BYTES = 32 * 1024 * 1024;

/** An answer past BUFFERED_ANSWER_MAX_BYTES: the cause of its call's "fetch failed". */
export class AnswerTooLargeError extends Error {
  constructor(what: "sent" | "decoded") {
    super(`The provider's answer is larger than ${BUFFERED_ANSWER_MAX_BYTES / 1024 / 1024} MiB${what === "decoded" ? " once decompressed" : ""}`);
    this.name = "AnswerTooLargeError";
  }
}

/** A body read to its end, or AnswerTooLargeError (the rest left unread, the connection closed) once past the cap. */
async function readCapped(body: Awaited<ReturnType<Undici["request"]>>["body"], declaredLength: string | string[] | undefined): Promise<Buffer> {
  if (typeof declaredLength === "string" && Number(declaredLength) > BUFFERED_ANSWER_MAX_BYTES) {
    body.destroy();
    throw new AnswerTooLargeError("sent");
  }
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > BUFFERED_ANSWER_MAX_BYTES) {
      body.destroy();
      throw new AnswerTooLargeError("sent");
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, length);
}

/** The content encodings a provider's answer is decoded from, as fetch decodes them. */
const DECODED_ENCODINGS = new Set(["gzip", "x-gzip", "deflate", "br"]);

/** A decoder of `encoding` (one of DECODED_ENCODINGS) for a streamed body. */
function decoderStream(encoding: string): Transform {
  if (encoding === "deflate") return createInflate();
  if (encoding === "br") return createBrotliDecompress();
  return createGunzip();
}

/**
 * A streamed answer (server-sent events) as the provider SDKs read it: its body undici's Node stream
 * (decoded when `encoding` is one), handed over as an async iterable, which both SDKs read as it is
 * (their ReadableStreamToAsyncIterable) in place of fetch's WHATWG stream, the costlier part of a
 * streamed call. Read as fetch's body fails: an abort as the signal's reason, a cut connection or a
 * body that cannot be decoded as a TypeError "terminated" with the cause, and once past
 * BUFFERED_ANSWER_MAX_BYTES (as sent, or decoded) with AnswerTooLargeError as the cause, the connection closed.
 * Leaving the loop early (the SDK's cancel) closes it too; its text(), json() or arrayBuffer() read it
 * whole, as fetch's would.
 */
function streamedResponse(sent: Readable, encoding: string | null, status: number, headers: Headers, signal: AbortSignal | undefined): Response {
  const body: Readable = encoding ? pipeline(sent, decoderStream(encoding), () => undefined) : sent;
  // Compressed, the bytes as sent count too: empty gzip members decode to nothing, endlessly.
  if (encoding) {
    let sentLength = 0;
    sent.on("data", (chunk: Buffer) => {
      if ((sentLength += chunk.length) > BUFFERED_ANSWER_MAX_BYTES) sent.destroy(new AnswerTooLargeError("sent"));
    });
  }
  const close = () => {
    body.destroy();
    sent.destroy();
  };
  const chunks: AsyncIterable<Uint8Array> = {
    [Symbol.asyncIterator]() {
      const reading = body[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
      let length = 0;
      return {
        async next() {
          let step: IteratorResult<Uint8Array>;
          try {
            step = await reading.next();
          } catch (error) {
            throw fetchFailure(error, signal, "terminated");
          }
          if (!step.done && (length += step.value.length) > BUFFERED_ANSWER_MAX_BYTES) {
            close();
            throw new TypeError("terminated", { cause: new AnswerTooLargeError(encoding ? "decoded" : "sent") });
          }
          return step;
        },
        async return() {
          close();
          return { done: true, value: undefined };
        },
      };
    },
  };
  // Read whole (a call that asked for no stream is read whole before it resolves, providerRequest): the
  // same capped reading, then its text; the connection is not left open with the answer unread.
  const whole = async () => {
    const read: Uint8Array[] = [];
    for await (const chunk of chunks) read.push(chunk);
    return Buffer.concat(read);
  };
  const response = new Response(null, { status, headers });
  Object.defineProperties(response, {
    // Configurable: a reader may hand the same answer on in other pieces (whole-events.ts).
    body: { value: chunks, configurable: true },
    arrayBuffer: { value: async () => new Uint8Array(await whole()).buffer },
    text: { value: async () => (await whole()).toString("utf8") },
    json: { value: async () => JSON.parse((await whole()).toString("utf8")) as unknown },
  });
  return response;
}

/** A compressed body decoded, at most BUFFERED_ANSWER_MAX_BYTES of it; the same bytes for an encoding not decoded here. */
function decoded(bytes: Buffer, encoding: string): Buffer {
  const options = { maxOutputLength: BUFFERED_ANSWER_MAX_BYTES };
  try {
    if (encoding === "gzip" || encoding === "x-gzip") return gunzipSync(bytes, options);
    if (encoding === "deflate") return inflateSync(bytes, options);
    if (encoding === "br") return brotliDecompressSync(bytes, options);
    return bytes;
  } catch (error) {
    // As fetch fails a body it cannot decode: a network error, said why.
    const cause = (error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE" ? new AnswerTooLargeError("decoded") : error;
    throw new TypeError("fetch failed", { cause });
  }
}

/** A failure as fetch gives it: an abort the signal's reason, anything else a TypeError (`message`) with the cause. */
const fetchFailure = (error: unknown, signal: AbortSignal | undefined, message: string): unknown =>
  signal?.aborted ? (signal.reason ?? error) : new TypeError(message, { cause: error });

/**
 * fetch's behaviour for a provider SDK's request (a string body, or none), through a plain undici
 * request: errors as fetch's (a network error is a TypeError "fetch failed" with the cause, an abort
 * the signal's reason), a compressed body decoded, a redirect answered as it came (as fetch's
 * `redirect: "manual"`). A successful answer of server-sent events to a call that asked for a stream
 * (`streams`, said by its caller: the request's JSON may hold `"stream":true` in a tool's schema)
 * streams (streamedResponse); any other is read whole before the call resolves, so within the
 * SDK's timeout, which ends when fetch resolves (an event stream answered to a call that asked for
 * none, keep-alive comments every few seconds, would otherwise be read with no time limit). An answer
 * past BUFFERED_ANSWER_MAX_BYTES (as sent, or decoded) is a network error, its cause AnswerTooLargeError.
 */
async function providerRequest(input: string | URL, init: Parameters<Undici["fetch"]>[1], dispatcher: Agent, streams: boolean): Promise<Response> {
  const signal = init?.signal ?? undefined;
  const headers: string[] = [];
  new Headers(init?.headers as ConstructorParameters<typeof Headers>[0]).forEach((value, name) => headers.push(name, value));
  let answer: Awaited<ReturnType<Undici["request"]>>;
  try {
    answer = await loadUndici().request(input, { method: (init?.method ?? "GET") as "GET", headers, body: (init?.body as string | undefined) ?? null, signal, dispatcher });
  } catch (error) {
    throw fetchFailure(error, signal, "fetch failed");
  }
  const responseHeaders = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) responseHeaders.append(name, one);
  }
  const encoding = responseHeaders.get("content-encoding")?.trim().toLowerCase();
  const decodes = encoding !== undefined && DECODED_ENCODINGS.has(encoding);
  if (decodes) {
    responseHeaders.delete("content-encoding");
    responseHeaders.delete("content-length");
  }
  if (
    streams && answer.statusCode >= 200 && answer.statusCode < 300 && responseHeaders.get("content-type")?.trim().toLowerCase().startsWith("text/event-stream")
  ) {
    return streamedResponse(answer.body, decodes ? encoding : null, answer.statusCode, responseHeaders, signal);
  }
  let bytes: Buffer;
  try {
    bytes = await readCapped(answer.body, answer.headers["content-length"]);
  } catch (error) {
    throw fetchFailure(error, signal, "fetch failed");
  }
  if (decodes && bytes.length) bytes = decoded(bytes, encoding);
  return new Response(NULL_BODY_STATUSES.has(answer.statusCode) ? null : new Uint8Array(bytes), { status: answer.statusCode, headers: responseHeaders });
}
