// The fast path for single tRPC queries answers exactly as the express adapter does: the same app
// with and without it, asked the same requests, gives the same status, headers and body. One
// difference on the wire, on purpose: an answer under 1 kB is sent uncompressed, as the host's
// compression threshold says (the adapter streams its answer, so compression cannot see its size
// and gzips even 50 bytes). A bare app with only the fast path shows which requests it answers
// itself and which it passes on.
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appRouter, createContext } from "@promptly/api";
import { createAccount, createHarness, createOrganization, createTeam, type Harness } from "@promptly/api/testing";
import { createApp } from "./app.ts";
import { listenForTests, type TestServer } from "../test/test-server.ts";
import { trpcQueryFastPath } from "./trpc-fast-path.ts";

let harness: Harness;
let withFastPath: TestServer;
let adapterOnly: TestServer;
let fastPathOnly: TestServer;
let member: string;
let outsider: string;
let organizationId: string;

/** What a client can see of an answer (Date and Keep-Alive aside). */
async function seen(base: string, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}${path}`, { headers });
  const pick = ["content-type", "vary", "cache-control", "x-content-type-options", "x-frame-options", "content-security-policy"];
  return {
    status: response.status,
    headers: Object.fromEntries(pick.map((name) => [name, response.headers.get(name)])),
    setCookie: response.headers.getSetCookie(),
    body: await response.text(), // decoded: fetch undoes gzip
    gzip: response.headers.get("content-encoding") === "gzip",
  };
}

/** The answer apart from its compression (see the top of the file). */
const withoutEncoding = ({ gzip: _gzip, ...answer }: Awaited<ReturnType<typeof seen>>) => answer;

const query = (procedure: string, input?: unknown) =>
  `/trpc/${procedure}${input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify({ json: input }))}`}`;

async function cookieOf(userId: string) {
  const client = await harness.signedInClient(userId);
  return [...client.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
}

beforeAll(async () => {
  harness = await createHarness();
  withFastPath = await listenForTests(createApp({ services: harness.services }));
  adapterOnly = await listenForTests(createApp({ services: harness.services, trpcFastPath: false }));
  // Only the fast path, then a marker: anything it passes on answers 599.
  const bare = express();
  bare.use(
    "/trpc",
    trpcQueryFastPath({
      router: appRouter,
      createContext: ({ req, res }) =>
        createContext(harness.services, {
          ip: "127.0.0.1", userAgent: null, cookieHeader: req.get("cookie") ?? null, secure: false,
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
  member = await cookieOf(accounts[0].id);
  outsider = await cookieOf(accounts[1].id);
});
afterAll(async () => {
  await Promise.all([withFastPath, adapterOnly, fastPathOnly].map((server) => server?.close()));
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
  ];

  it.each(cases)("%s: the fast path answers it, exactly as the adapter does", async (_name, request, status) => {
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
    expect(dead.setCookie).toEqual([expect.stringMatching(/^promptly_session=;.* Max-Age=0;/)]);
    expect(JSON.parse(dead.body)).toEqual({ result: { data: { json: null } } });
  });

  it("compression follows the host's 1 kB threshold: a small answer is sent plain, a large one gzipped", async () => {
    const small = await seen(withFastPath.base, query("auth.me"), { cookie: member });
    const large = await seen(withFastPath.base, query("teams.list", { organizationId }), { cookie: member });
    expect(small.body.length).toBeLessThan(1024);
    expect(large.body.length).toBeGreaterThan(1024);
    expect([small.gzip, large.gzip]).toEqual([false, true]);
    // The small one leaves whole, its length known, not chunked (one write instead of three).
    const plain = await fetch(`${withFastPath.base}${query("auth.me")}`, { headers: { cookie: member } });
    expect([plain.headers.get("content-length"), plain.headers.get("transfer-encoding")]).toEqual([String(Buffer.byteLength(await plain.text())), null]);
    expect((await seen(adapterOnly.base, query("teams.list", { organizationId }), { cookie: member })).gzip).toBe(true);
  });

  const passedOn: [name: string, path: string, init?: RequestInit][] = [
    ["a batch", `/trpc/auth.me,health.check?batch=1&input=${encodeURIComponent("{}")}`],
    ["a mutation", "/trpc/auth.signOut", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }],
    ["a mutation asked for over GET", "/trpc/auth.signOut"],
    ["an unknown procedure", "/trpc/nothing.here"],
    ["input that is not JSON", "/trpc/organizations.get?input=%7Bnope"],
    ["the input twice", `${query("organizations.get", { organizationId: "x" })}&input=1`],
    ["a streaming client", query("auth.me")],
  ];

  it.each(passedOn)("%s goes on to the adapter, which answers as before", async (name, path, init) => {
    const headers = name === "a streaming client" ? { "trpc-accept": "application/jsonl" } : undefined;
    const request = { ...init, headers: { ...(init?.headers as Record<string, string>), ...headers } };
    expect((await fetch(`${fastPathOnly.base}${path}`, request)).status).toBe(599);
    const fast = await fetch(`${withFastPath.base}${path}`, request);
    const adapter = await fetch(`${adapterOnly.base}${path}`, request);
    expect(fast.status).toBe(adapter.status);
    expect(await fast.text()).toBe(await adapter.text());
  });
});
