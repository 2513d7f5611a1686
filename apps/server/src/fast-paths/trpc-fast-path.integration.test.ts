// The fast path for single tRPC queries answers exactly as the express adapter does: the same app
// with and without it, asked the same requests, gives the same status, headers and body. One
// difference on the wire, on purpose: an answer under 1 kB is sent uncompressed, as the host's
// compression threshold says (the adapter streams its answer, so compression cannot see its size
// and gzips even 50 bytes), and whole, its length known (the adapter's is chunked). A bare app with
// only the fast path shows which requests it answers itself and which it passes on.
import { request } from "node:http";
import { gunzipSync } from "node:zlib";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appRouter, createContext } from "@promptly/api";
import { appProcess, createAccount, createHarness, createOrganization, createTeam, type AppProcess, type Harness } from "@promptly/api/testing";
import { createApp } from "../app.ts";
import { listenForTests, type TestServer } from "../../test/test-server.ts";
import { trpcBatchOfOne as batchOfOne, trpcQuery as query, withoutFraming } from "../../test/trpc-paths.ts";
import { trpcQueryFastPath } from "./trpc-fast-path.ts";

let harness: Harness;
/** One app process (its own runtime cache, as boot wires it): the three servers below share it. */
let app: AppProcess;
let withFastPath: TestServer;
let adapterOnly: TestServer;
let fastPathOnly: TestServer;
let member: string;
let outsider: string;
let organizationId: string;
let keyTeamId: string;
let apiKey: string;

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: string; gzip: boolean };

/**
 * What a client can see of an answer: status, every header but the moment's (Date, Keep-Alive,
 * Connection, and the request id unless the client gave one) and the body, gunzipped. Over node:http,
 * which sends only the headers given (Host too): no Accept-Encoding unless the case gives one.
 */
function seen(base: string, path: string, headers: Record<string, string> = {}, init: { method?: string; body?: string } = {}) {
  return new Promise<Answer>((resolve, reject) => {
    const req = request(`${base}${path}`, { method: init.method ?? "GET", headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const raw = Buffer.concat(chunks);
        const all = Object.fromEntries(Object.entries(res.headers).filter(([name]) => !["date", "keep-alive", "connection"].includes(name)));
        if (!headers["x-request-id"]) delete all["x-request-id"];
        const gzip = res.headers["content-encoding"] === "gzip";
        resolve({ status: res.statusCode!, headers: all, body: (gzip ? gunzipSync(raw) : raw).toString(), gzip });
      });
    });
    req.on("error", reject);
    req.end(init.body);
  });
}

/**
 * The answer apart from how it travels (see the top of the file): its encoding and its framing
 * (Content-Length, or chunks). Every other header, and Vary with it, stays compared.
 */
function withoutEncoding({ gzip: _gzip, ...answer }: Answer) {
  return withoutFraming(answer);
}

async function cookieOf(userId: string) {
  const client = await harness.signedInClient(userId);
  return [...client.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
}

beforeAll(async () => {
  harness = await createHarness();
  app = appProcess(harness);
  // On whatever FAST_PATHS says: this test compares the two.
  withFastPath = await listenForTests(createApp({ services: app.services, trpcFastPath: true }));
  adapterOnly = await listenForTests(createApp({ services: app.services, trpcFastPath: false }));
  // Only the fast path, then a marker: anything it passes on answers 599.
  const bare = express();
  bare.use(
    "/trpc",
    trpcQueryFastPath({
      router: appRouter,
      createContext: ({ req, res }) =>
        createContext(app.services, {
          ip: "127.0.0.1", userAgent: null, cookieHeader: req.get("cookie") ?? null, authorization: req.get("authorization") ?? null, secure: false,
          setCookie: (cookie) => res.append("Set-Cookie", cookie),
        }),
    }),
    (_req: express.Request, res: express.Response) => void res.status(599).end(),
  );
  fastPathOnly = await listenForTests(bare);
  const accounts = await Promise.all([createAccount(harness, { fullName: "Ada Member" }), createAccount(harness)]);
  const organization = await createOrganization(harness, [{ userId: accounts[0].id, role: "admin" }]);
  organizationId = organization.id;
  for (let i = 0; i < 30; i++) await createTeam(harness, organizationId, [], `Team ${String(i).padStart(2, "0")}`);
  keyTeamId = (await createTeam(harness, organizationId, [{ userId: accounts[0].id, role: "admin" }], "Keys")).id;
  apiKey = (await (await harness.signedInClient(accounts[0].id)).api.apiKeys.create({ teamId: keyTeamId, name: "tool" })).key;
  member = await cookieOf(accounts[0].id);
  outsider = await cookieOf(accounts[1].id);
});
afterAll(async () => {
  await Promise.all([withFastPath, adapterOnly, fastPathOnly].map((server) => server?.close()));
  await app?.close();
  await harness.close();
});

describe("tRPC fast path", () => {
  const cases: [name: string, request: () => [path: string, headers: Record<string, string>], status: number][] = [
    ["success with dates in the superjson envelope (auth.me)", () => [query("auth.me"), { cookie: member }], 200],
    ["success, signed out (auth.me answers null)", () => [query("auth.me"), {}], 200],
    ["success with input (organizations.get)", () => [query("organizations.get", { organizationId }), { cookie: member }], 200],
    ["success with an optional input left out (teams.list)", () => [query("teams.list"), { cookie: member }], 200],
    ["NOT_FOUND: another tenant's organization", () => [query("organizations.get", { organizationId }), { cookie: outsider }], 404],
    ["UNAUTHORIZED: no session", () => [query("organizations.list"), {}], 401],
    ["BAD_REQUEST: a zod error with its field messages", () => [query("organizations.get", { organizationId: "not-an-id" }), { cookie: member }], 400],
    ["BAD_REQUEST: the required input missing", () => [query("organizations.get"), { cookie: member }], 400],
    ["Set-Cookie from createContext: a dead session's cookie is cleared", () => [query("auth.me"), { cookie: "promptly_session=no-such-session" }], 200],
    ["a large answer (teams.list, 30 teams)", () => [query("teams.list", { organizationId }), { cookie: member }], 200],
    ["a team API key's query (teams.get)", () => [query("teams.get", { id: keyTeamId }), { authorization: `Bearer ${apiKey}` }], 200],
    ["FORBIDDEN: a team API key asking a person's procedure (teams.list)", () => [query("teams.list"), { authorization: `Bearer ${apiKey}` }], 403],
    ["UNAUTHORIZED: an unknown API key", () => [query("teams.get", { id: keyTeamId }), { authorization: `Bearer promptly_${"x".repeat(43)}` }], 401],
    ["the client's request id", () => [query("auth.me"), { cookie: member, "x-request-id": "tool-request-42" }], 200],
    ["a batch of one with dates (auth.me)", () => [batchOfOne("auth.me"), { cookie: member }], 200],
    ["a batch of one with input (organizations.get)", () => [batchOfOne("organizations.get", { organizationId }), { cookie: member }], 200],
    ["a batch of one, a large answer (teams.list, 30 teams)", () => [batchOfOne("teams.list", { organizationId }), { cookie: member }], 200],
    ["a batch of one without its input parameter (teams.list)", () => ["/trpc/teams.list?batch=1", { cookie: member }], 200],
    ["a batch of one, NOT_FOUND", () => [batchOfOne("organizations.get", { organizationId }), { cookie: outsider }], 404],
    ["a batch of one, UNAUTHORIZED", () => [batchOfOne("organizations.list"), {}], 401],
    ["a batch of one, BAD_REQUEST with its zod issues", () => [batchOfOne("organizations.get", { organizationId: "not-an-id" }), { cookie: member }], 400],
    ["a batch of one, an API key's query (teams.get)", () => [batchOfOne("teams.get", { id: keyTeamId }), { authorization: `Bearer ${apiKey}` }], 200],
  ];
  // Each case as a client that takes no encoding (an SDK, a script) and as a browser that takes gzip.
  const encodings: [taken: string, headers: Record<string, string>][] = [["no encoding", {}], ["gzip", { "accept-encoding": "gzip" }]];
  const asked = cases.flatMap(([name, request, status]) =>
    encodings.map(([taken, encoding]): (typeof cases)[number] => {
      const withEncoding = (): [string, Record<string, string>] => {
        const [path, headers] = request();
        return [path, { ...headers, ...encoding }];
      };
      return [`${name}, ${taken}`, withEncoding, status];
    }),
  );

  it.each(asked)("%s: the fast path answers it, exactly as the adapter does", async (_name, request, status) => {
    const [path, headers] = request();
    const fast = await seen(withFastPath.base, path, headers);
    const adapter = await seen(adapterOnly.base, path, headers);
    expect(fast.status).toBe(status);
    expect(withoutEncoding(fast)).toEqual(withoutEncoding(adapter));
    // ...and it was the fast path that answered.
    expect((await seen(fastPathOnly.base, path, headers)).status).toBe(status);
  });

  it("the answers carry what the web app reads: superjson dates, flattened zod errors, the cleared cookie", async () => {
    const me = JSON.parse((await seen(withFastPath.base, query("auth.me"), { cookie: member })).body);
    expect(me.result.data.json.profile.fullName).toBe("Ada Member");
    expect(me.result.data.meta.values["user.createdAt"]).toEqual(["Date"]);
    const invalid = JSON.parse((await seen(withFastPath.base, query("organizations.get", { organizationId: "x" }), { cookie: member })).body);
    expect(invalid.error.json.data).toMatchObject({ code: "BAD_REQUEST", httpStatus: 400, path: "organizations.get" });
    expect(Object.keys(invalid.error.json.data.zodError.fieldErrors)).toEqual(["organizationId"]);
    const dead = await seen(withFastPath.base, query("auth.me"), { cookie: "promptly_session=no-such-session" });
    expect(dead.headers["set-cookie"]).toEqual([expect.stringMatching(/^promptly_session=;.* Max-Age=0;/)]);
    expect(JSON.parse(dead.body)).toEqual({ result: { data: { json: null } } });
  });

  it("compression follows the host's 1 kB threshold: a small answer is sent plain, a large one gzipped", async () => {
    const gzip = { cookie: member, "accept-encoding": "gzip" };
    const small = await seen(withFastPath.base, query("auth.me"), gzip);
    const large = await seen(withFastPath.base, query("teams.list", { organizationId }), gzip);
    expect(small.body.length).toBeLessThan(1024);
    expect(large.body.length).toBeGreaterThan(1024);
    expect([small.gzip, large.gzip]).toEqual([false, true]);
    // The small one leaves whole, its length known, not chunked (one write instead of three).
    expect([small.headers["content-length"], small.headers["transfer-encoding"]]).toEqual([String(Buffer.byteLength(small.body)), undefined]);
    expect((await seen(adapterOnly.base, query("teams.list", { organizationId }), gzip)).gzip).toBe(true);
  });

  const passedOn: [name: string, path: string, headers?: Record<string, string>, init?: { method: string; body: string }][] = [
    ["a batch", `/trpc/auth.me,health.check?batch=1&input=${encodeURIComponent("{}")}`],
    ["a mutation", "/trpc/auth.signOut", { "content-type": "application/json" }, { method: "POST", body: "{}" }],
    ["a mutation asked for over GET", "/trpc/auth.signOut"],
    ["an unknown procedure", "/trpc/nothing.here"],
    ["input that is not JSON", "/trpc/organizations.get?input=%7Bnope"],
    ["the input twice", `${query("organizations.get", { organizationId: "x" })}&input=1`],
    ["a streaming client", query("auth.me"), { "trpc-accept": "application/jsonl" }],
    ["a streaming client by its Accept header", query("auth.me"), { accept: "application/json, application/jsonl" }],
    ["a streaming batch of one", batchOfOne("auth.me"), { "trpc-accept": "application/jsonl" }],
    ["a batch whose input is not an object", `/trpc/auth.me?batch=1&input=${encodeURIComponent("[1]")}`],
    ["another batch value", `/trpc/auth.me?batch=0&input=${encodeURIComponent("{}")}`],
  ];

  it.each(passedOn)("%s goes on to the adapter, which answers as before", async (_name, path, headers = {}, init = undefined) => {
    expect((await seen(fastPathOnly.base, path, headers, init)).status).toBe(599);
    const fast = await seen(withFastPath.base, path, headers, init);
    const adapter = await seen(adapterOnly.base, path, headers, init);
    expect(fast).toEqual(adapter);
  });
});
