// The runtime fetch from memory answers exactly as the stack does: the same app with and without it,
// asked the same requests, gives the same status, headers, body, log line and metrics. Beside them,
// a bare server with only the fetch from memory shows which requests it answers itself (a known key
// and a version this process holds, nothing to refuse, compress or reconcile) and which it passes
// on; a request it passes on has counted nothing (the key's limit and the version's use).
import { createServer, request, type Server } from "node:http";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { appProcess, createAccount, createHarness, createOrganization, createTeam, type AppProcess, type Harness } from "@promptly/api/testing";
import { createApp } from "../app.ts";
import { createLogger, requestLines } from "../logger.ts";
import { securityHeaderList, allowedHostNames } from "../security.ts";
import { listenForTests, type TestServer } from "../../test/test-server.ts";
import { fetchFromMemory } from "./fetch-from-memory.ts";

const METRICS_TOKEN = "metrics-token-for-the-test";
const LIMIT = 100_000;

let h: Harness;
let app: AppProcess;
let fromMemory: TestServer;
let stackOnly: TestServer;
let memoryOnly: { base: string; server: Server };
const lines: { fromMemory: string[]; stackOnly: string[] } = { fromMemory: [], stackOnly: [] };
const keys: Record<string, string> = {};

/**
 * What a client can see of an answer: status, every header but the moment's (Date, Keep-Alive,
 * Connection) and the body, gunzipped. Over node:http, which sends only the headers given (Host too).
 */
function seen(base: string, path: string, headers: Record<string, string> = {}, method = "GET") {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const raw = Buffer.concat(chunks);
        const all = Object.fromEntries(Object.entries(res.headers).filter(([name]) => !["date", "keep-alive", "connection"].includes(name)));
        if (!headers["x-request-id"]) delete all["x-request-id"];
        resolve({ status: res.statusCode!, headers: all, body: (res.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw).toString() });
      });
    });
    req.on("error", reject);
    req.end();
  });
}

/** The versions' uses counted so far (flushed from this process first). */
async function used() {
  await app.services.runtime.flushUsage(h.database.db);
  const rows = await h.database.db.$queryRaw<{ count: bigint }[]>`SELECT coalesce(sum(count), 0)::bigint AS count FROM prompt_usage`;
  return Number(rows[0]!.count);
}

/** Resolves once `check` holds, trying every 50 ms; fails after 15 s. */
async function until(check: () => Promise<boolean>) {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > 15_000) throw new Error("not within 15 s");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The fetch from memory alone, as createApp sets it up (without a proxy to trust). */
const memoryAnswers = (services: AppProcess["services"], ratePerMinute: number) =>
  fetchFromMemory({
    services, ratePerMinute, allowedHosts: allowedHostNames(services.config.appUrl), securityHeaders: securityHeaderList({ csp: true }),
    log: requestLines(createLogger("error")).answered, metrics: false, compressionThreshold: 1024,
    express: { parseQuery: (search) => Object.fromEntries(new URLSearchParams(search)), trustProxy: () => false },
  });

const capture = (into: string[]) => createLogger("info", { write: (line: string) => void into.push(line) });

beforeAll(async () => {
  h = await createHarness();
  app = appProcess(h);
  const services = { ...app.services, config: { ...app.services.config, rateLimits: true } };
  const options = { services, apiRateLimitPerMinute: LIMIT, trustProxy: "loopback" as const, metricsToken: METRICS_TOKEN };
  // On whatever FAST_PATHS says: this test compares the two.
  fromMemory = await listenForTests(createApp({ ...options, logger: capture(lines.fromMemory), fetchFromMemory: true }));
  stackOnly = await listenForTests(createApp({ ...options, logger: capture(lines.stackOnly), fetchFromMemory: false }));
  // Only the fetch from memory, then a marker: anything it passes on answers 599.
  const answered = memoryAnswers(services, LIMIT);
  const server = createServer((req, res) => void (answered(req, res) || res.writeHead(599).end()));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  memoryOnly = { base: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server };
  await until(async () => app.services.runtime.mayBeApiKey("promptly_x") !== null);

  const person = await createAccount(h);
  const organization = await createOrganization(h, [{ userId: person.id, role: "member" }]);
  const teamId = (await createTeam(h, organization.id, [{ userId: person.id, role: "admin" }])).id;
  const { api } = await h.signedInClient(person.id, { services: app.services });
  const reply = await api.prompts.create({ teamId, name: "support/reply", title: "Reply", visibility: "team", type: "text", template: "Hello {{customer}}" });
  await api.promptVersions.create({ promptId: reply.id, template: "Hi {{customer}}" });
  await api.promptLabels.set({ promptId: reply.id, label: "production", version: 1 });
  await api.promptLabels.set({ promptId: reply.id, label: "staging", version: 2 });
  const long = await api.prompts.create({ teamId, name: "long", title: "Long", visibility: "team", type: "text", template: "word ".repeat(400) });
  await api.promptLabels.set({ promptId: long.id, label: "production", version: 1 });
  await api.prompts.create({ teamId, name: "mine", title: "Mine", visibility: "private", type: "text", template: "Private" });
  keys["read"] = (await api.apiKeys.create({ teamId, name: "read" })).key;
  keys["production"] = (await api.apiKeys.create({ teamId, name: "production only", labels: ["production"] })).key;
  const revoked = await api.apiKeys.create({ teamId, name: "revoked" });
  keys["revoked"] = revoked.key;
  keys["unused"] = (await api.apiKeys.create({ teamId, name: "unused" })).key;
  keys["limited"] = (await api.apiKeys.create({ teamId, name: "limited" })).key;
  // Each key's first fetch goes through the stack: it keeps the key, the version and the key's count.
  for (const key of [keys["read"], keys["production"], keys["revoked"]]) {
    for (const path of ["/api/v1/prompts/support/reply", "/api/v1/prompts/support/reply?label=staging", "/api/v1/prompts/support/reply?version=2", "/api/v1/prompts/long"]) {
      await seen(fromMemory.base, path, { authorization: `Bearer ${key}` });
    }
  }
  await api.apiKeys.revoke({ id: revoked.id });
  await until(async () => (await seen(memoryOnly.base, "/api/v1/prompts/support/reply", { authorization: `Bearer ${keys["revoked"]}` })).status === 599);
});

afterAll(async () => {
  await fromMemory?.close();
  await stackOnly?.close();
  await new Promise((resolve) => memoryOnly?.server.close(resolve));
  await app?.close();
  await h?.close();
});

const bearer = (name: string) => ({ authorization: `Bearer ${keys[name]}` });

describe("the runtime fetch from memory", () => {
  const answered: [name: string, path: string, headers: () => Record<string, string>, status: number][] = [
    ["the production label (by default)", "/api/v1/prompts/support/reply", () => bearer("read"), 200],
    ["a label", "/api/v1/prompts/support/reply?label=staging", () => bearer("read"), 200],
    ["a version", "/api/v1/prompts/support/reply?version=2", () => bearer("read"), 200],
    ["a name sent encoded", "/api/v1/prompts/support%2Freply", () => bearer("read"), 200],
    ["a trailing slash", "/api/v1/prompts/support/reply/", () => bearer("read"), 200],
    ["a label-bound key's own label", "/api/v1/prompts/support/reply?label=production", () => bearer("production"), 200],
    ["the client's request id", "/api/v1/prompts/support/reply", () => ({ ...bearer("read"), "x-request-id": "tool-request-42" }), 200],
    ["a client that takes gzip, under the compression threshold", "/api/v1/prompts/support/reply", () => ({ ...bearer("read"), "accept-encoding": "gzip" }), 200],
    ["a bearer scheme in capitals", "/api/v1/prompts/support/reply", () => ({ authorization: `BEARER ${keys["read"]}` }), 200],
  ];
  it.each(answered)("answers %s itself, as the stack does", async (_name, path, headers, status) => {
    const before = await used();
    expect((await seen(memoryOnly.base, path, headers())).status).toBe(status);
    expect(await used()).toBe(before + 1);
    // The full stack counts a key's request with hitReconciled; the app's own fetch from memory does not reach it.
    const stackCounts = vi.spyOn(app.services.rateLimits, "hitReconciled");
    try {
      const memory = await seen(fromMemory.base, path, headers());
      expect(stackCounts, "createApp answered it from memory").not.toHaveBeenCalled();
      const stack = await seen(stackOnly.base, path, headers());
      expect(stackCounts).toHaveBeenCalledTimes(1);
      expect(memory.status).toBe(status);
      expect(memory).toEqual(stack);
    } finally {
      stackCounts.mockRestore();
    }
    expect(await used()).toBe(before + 3);
  });

  it("answers 304 to a matching If-None-Match, as the stack does, and counts it", async () => {
    const { headers } = await seen(stackOnly.base, "/api/v1/prompts/support/reply", bearer("read"));
    const asked = { ...bearer("read"), "if-none-match": String(headers["etag"]) };
    expect((await seen(memoryOnly.base, "/api/v1/prompts/support/reply", asked)).status).toBe(304);
    const [memory, stack] = await Promise.all([seen(fromMemory.base, "/api/v1/prompts/support/reply", asked), seen(stackOnly.base, "/api/v1/prompts/support/reply", asked)]);
    expect(memory).toMatchObject({ status: 304, body: "" });
    expect(memory).toEqual(stack);
    // And with an encoding taken: a 304 has no body to vary.
    const gzip = { ...asked, "accept-encoding": "gzip" };
    expect(await seen(fromMemory.base, "/api/v1/prompts/support/reply", gzip)).toEqual(await seen(stackOnly.base, "/api/v1/prompts/support/reply", gzip));
  });

  it("sends HSTS over TLS as a trusted proxy says it, as the stack does", async () => {
    const path = "/api/v1/prompts/support/reply";
    const asked = { ...bearer("read"), "x-forwarded-proto": "https" };
    const [memory, stack] = await Promise.all([seen(fromMemory.base, path, asked), seen(stackOnly.base, path, asked)]);
    expect(memory.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
    expect(memory).toEqual(stack);
  });

  const passedOn: [name: string, path: string, headers: () => Record<string, string>][] = [
    ["no key", "/api/v1/prompts/support/reply", () => ({})],
    ["a malformed header", "/api/v1/prompts/support/reply", () => ({ authorization: "Basic abc" })],
    ["an unknown key", "/api/v1/prompts/support/reply", () => ({ authorization: `Bearer promptly_${"x".repeat(43)}` })],
    ["a revoked key", "/api/v1/prompts/support/reply", () => bearer("revoked")],
    ["a key not used yet", "/api/v1/prompts/support/reply", () => bearer("unused")],
    ["a label the key is not bound to", "/api/v1/prompts/support/reply?label=staging", () => bearer("production")],
    ["an unknown prompt", "/api/v1/prompts/nothing-here", () => bearer("read")],
    ["a private prompt", "/api/v1/prompts/mine", () => bearer("read")],
    ["a version not fetched yet", "/api/v1/prompts/support/reply?version=1", () => bearer("read")],
    ["an invalid version", "/api/v1/prompts/support/reply?version=abc", () => bearer("read")],
    ["both a label and a version", "/api/v1/prompts/support/reply?label=staging&version=2", () => bearer("read")],
    ["malformed percent-encoding", "/api/v1/prompts/%ZZ", () => bearer("read")],
    ["a host that is not ours", "/api/v1/prompts/support/reply", () => ({ ...bearer("read"), host: "rebound.example" })],
    ["an answer to compress (over the threshold)", "/api/v1/prompts/long", () => ({ ...bearer("read"), "accept-encoding": "gzip" })],
    ["another route under the prompts", "/api/v1/prompts/support/reply/compile", () => bearer("read")],
    ["the list", "/api/v1/prompts", () => bearer("read")],
  ];
  it.each(passedOn)("passes on %s, having counted nothing; the stack answers it", async (_name, path, headers) => {
    const before = await used();
    expect((await seen(memoryOnly.base, path, headers())).status).toBe(599);
    expect(await used()).toBe(before);
    const [memory, stack] = await Promise.all([seen(fromMemory.base, path, headers()), seen(stackOnly.base, path, headers())]);
    expect(memory.status).not.toBe(599);
    expect(memory).toEqual(stack);
  });

  it("reads a query text once and keeps its reading: a refused one is passed on each time, a kept one still decides per key", async () => {
    for (let i = 0; i < 2; i++) {
      expect((await seen(memoryOnly.base, "/api/v1/prompts/support/reply?label=staging&version=2", bearer("read"))).status).toBe(599);
      expect((await seen(memoryOnly.base, "/api/v1/prompts/support/reply?label=staging", bearer("read"))).status).toBe(200);
      expect((await seen(memoryOnly.base, "/api/v1/prompts/support/reply?label=staging", bearer("production"))).status).toBe(599);
    }
  });

  it("counts what it answers against the key's limit, as the stack does: of 101 fetches in a minute under a limit of 100, the last is refused", async () => {
    const limit = 100;
    const services = { ...app.services, config: { ...app.services.config, rateLimits: true } };
    const stack = createApp({ services, apiRateLimitPerMinute: limit, fetchFromMemory: false });
    const answered = memoryAnswers(services, limit);
    let byStack = 0;
    const server = createServer((req, res) => void (answered(req, res) || (byStack++, stack(req, res))));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      const statuses: number[] = [];
      for (let i = 0; i <= limit; i++) statuses.push((await seen(base, "/api/v1/prompts/support/reply", bearer("limited"))).status);
      expect(statuses.slice(0, limit).every((status) => status === 200)).toBe(true);
      expect(statuses[limit]).toBe(429);
      // Most were answered from memory. The stack takes the first (the key and its count not kept yet),
      // the refusal, and any fetch that finds a batch on its way to the store and another full: under a
      // limit of 100 a batch is one request, so on a slow store that is at most one fetch in three.
      expect(byStack).toBeLessThan(limit / 2);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("passes on a HEAD request: the stack answers it", async () => {
    expect((await seen(memoryOnly.base, "/api/v1/prompts/support/reply", bearer("read"), "HEAD")).status).toBe(599);
  });

  it("logs the request with the stack's line, and counts it in the metrics under the route's documented path", async () => {
    const path = "/api/v1/prompts/support/reply?label=staging";
    const asked = { ...bearer("read"), "x-request-id": "logged-request-7", "user-agent": "promptly-test" };
    const metric = async (server: TestServer) => {
      const text = await (await fetch(`${server.base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
      const line = text.split("\n").find((row) => row.startsWith('promptly_http_requests_total{procedure="/api/v1/prompts/{name}",status="200"}'));
      return Number(line?.split(" ").at(-1) ?? 0);
    };
    const counted = await metric(fromMemory);
    await seen(fromMemory.base, path, asked);
    await seen(stackOnly.base, path, asked);
    // The two apps share the process's metrics: each request counted once, under the same name.
    expect(await metric(fromMemory)).toBe(counted + 2);
    const logged = (from: string[]) => {
      const line = JSON.parse(from.findLast((row) => row.includes("logged-request-7"))!) as Record<string, unknown>;
      const { time: _time, pid: _pid, responseTimeMs, ...rest } = line;
      expect(responseTimeMs).toEqual(expect.any(Number));
      return rest;
    };
    expect(logged(lines.fromMemory)).toEqual({
      level: 30, msg: "request completed", requestId: "logged-request-7",
      req: { method: "GET", url: "/api/v1/prompts/support/reply?label=…", userAgent: "promptly-test" }, res: { statusCode: 200 },
    });
    expect(logged(lines.fromMemory)).toEqual(logged(lines.stackOnly));
  });
});
