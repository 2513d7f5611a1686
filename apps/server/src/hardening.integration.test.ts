// What the security review found at the HTTP host: every error
// answer is JSON (or a plain page) without a stack, path or internal address; bodies that are
// malformed, too large or too deep are refused before parsing work; only our own host names are
// served; API answers are never cached.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, createS3Storage, createAccount, type Harness } from "@promptly/api/testing";
import { createDb } from "@promptly/db";
import { MSG } from "@promptly/shared";
import { MALFORMED_ENVELOPE } from "@promptly/api";
import { createApp } from "./app.ts";
import { createLogger } from "./logger.ts";
import { jsonDepthExceeds } from "./security.ts";
import { listenForTests, type TestServer } from "../test/test-server.ts";

let harness: Harness;
let server: TestServer;
let base: string;
let webDist: string;

beforeAll(async () => {
  harness = await createHarness();
  webDist = mkdtempSync(join(tmpdir(), "promptly-web-"));
  mkdirSync(join(webDist, "assets"));
  writeFileSync(join(webDist, "index.html"), "<!doctype html><title>Promptly</title>");
  writeFileSync(join(webDist, "assets", "app-1234.js"), "console.log(1)");
  server = await listenForTests(createApp({ services: harness.services, webDist, allowedHosts: ["promptly.internal"] }));
  base = server.base;
});
afterAll(async () => {
  await server.close();
  await harness.close();
  rmSync(webDist, { recursive: true, force: true });
});

/** Nothing of the server's insides: no stack frames, file paths, module names or internal addresses. */
function expectNoInternals(body: string) {
  expect(body).not.toMatch(/\bat [\w.<>]+ \(|node_modules|\/work\/|\.ts:\d|\.js:\d|ECONNREFUSED|127\.0\.0\.1|body-parser|SyntaxError|stack/i);
}

async function post(path: string, body: string | Buffer, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
  return { status: response.status, type: response.headers.get("content-type") ?? "", body: await response.text() };
}

describe("error answers carry no internals", () => {
  it("malformed JSON: 400 JSON naming the problem", async () => {
    const answer = await post("/trpc/auth.signIn", '{"email": "a@example.test", "password": ');
    expect(answer.status).toBe(400);
    expect(answer.type).toMatch(/^application\/json/);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { message: "The request body is not valid JSON", data: { httpStatus: 400 } } });
    expectNoInternals(answer.body);
  });

  it("a 5 MB body: 413 JSON", async () => {
    const answer = await post("/trpc/auth.signIn", JSON.stringify({ email: "a@example.test", password: "x".repeat(5 * 1024 * 1024) }));
    expect(answer.status).toBe(413);
    expect(answer.type).toMatch(/^application\/json/);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { message: "The request body is too large" } });
    expectNoInternals(answer.body);
  });

  it("an avatar while S3 is down: 500 JSON without the connection error", async () => {
    const logged: string[] = [];
    const broken = await listenForTests(
      createApp({
        services: { ...harness.services, storage: createS3Storage({ endpoint: "http://127.0.0.1:1", accessKey: "x", secretKey: "y", region: "us-east-1" }) },
        logger: createLogger("error", { write: (line: string) => void logged.push(line) }),
      }),
    );
    try {
      const response = await fetch(`${broken.base}/avatars/00000000-0000-0000-0000-000000000000-1732300000000.png`);
      const body = await response.text();
      expect(response.status).toBe(500);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      expect(JSON.parse(body)).toEqual({ error: { message: "Something went wrong on our side. Please try again.", code: "INTERNAL_SERVER_ERROR" } });
      expectNoInternals(body);
      // The details go to the log instead.
      expect(logged.join("")).toMatch(/"msg":"GET \/avatars\/[^"]+ failed".*ECONNREFUSED|ECONNREFUSED.*"msg":"GET \/avatars\/[^"]+ failed"/);
    } finally {
      await broken.close();
    }
  });

  it("a tRPC procedure whose database is unreachable: 500 with a generic message", async () => {
    const account = await createAccount(harness);
    const client = await harness.signedInClient(account.id);
    const db = createDb({ url: "postgresql://nobody@127.0.0.1:1/none" });
    const broken = await listenForTests(createApp({ services: { ...harness.services, db }, logger: createLogger("silent") }));
    try {
      const cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
      const response = await fetch(`${broken.base}/trpc/organizations.list`, { headers: { cookie } });
      const body = await response.text();
      expect(response.status).toBe(500);
      expect(JSON.parse(body)).toMatchObject({ error: { json: { message: "An unexpected error occurred" } } });
      expectNoInternals(body);
    } finally {
      await broken.close();
      await db.$disconnect();
    }
  });

  it("unknown API paths answer 404 JSON; page routes answer the app", async () => {
    const api = await fetch(`${base}/api/nothing-here`);
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ error: { message: "Not found", code: "NOT_FOUND" } });
    const page = await fetch(`${base}/some/page`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("<title>Promptly</title>");
  });
});

describe("bad input is refused before work", () => {
  it("a 200,000-deep JSON array in a body: 400 before parsing", async () => {
    const deep = "[".repeat(200_000) + "]".repeat(200_000);
    const answer = await post("/trpc/auth.signIn", deep);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { message: "The request body is nested deeper than 64 levels" } });
    expectNoInternals(answer.body);
  });

  it("deep JSON in a query's input: 400", async () => {
    const deep = encodeURIComponent("[".repeat(1_000) + "]".repeat(1_000));
    const response = await fetch(`${base}/trpc/auth.me?input=${deep}`);
    expect(response.status).toBe(400);
    const body = await response.text();
    expect(JSON.parse(body)).toMatchObject({ error: { message: "Request input is nested deeper than 64 levels" } });
  });

  it("a NUL byte in an organization name through HTTP: 400 with a clear message, not the driver's", async () => {
    const root = await createAccount(harness, { superUser: true });
    const client = await harness.signedInClient(root.id);
    const cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const answer = await post("/trpc/organizations.create", JSON.stringify({ json: { name: "Acme\u0000Labs" } }), { cookie });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { json: { message: MSG.controlCharacters } } });
    expect(answer.body).not.toMatch(/invalid byte sequence|0x00/);
    expect(await harness.database.db.organization.count({ where: { name: { startsWith: "Acme" } } })).toBe(0);
  });

  describe("a malformed superjson envelope: 400 in our words, on every way in", () => {
    const envelopes: [string, unknown][] = [
      ["a class annotation with no class", { json: { email: "a@example.test" }, meta: { values: { "json.email": ["class", "Foo"] } } }],
      ["a class annotation on a key", { json: { email: "a@example.test" }, meta: { values: { email: ["class", "Foo"] } } }],
      ["values that are a string", { json: { email: "a@example.test" }, meta: { values: "x" } }],
      ["an unknown transformation", { json: { email: "a@example.test" }, meta: { values: { email: ["nope"] } } }],
      ["a __proto__ path", { json: { email: "a@example.test" }, meta: { values: { "__proto__.x": ["Date"] } } }],
      ["referential equalities that are a string", { json: { email: "a@example.test" }, meta: { referentialEqualities: "x" } }],
      ["a bigint that is not a number", { json: { email: "a@example.test" }, meta: { values: { email: ["bigint"] } } }],
    ];
    const expectOurWords = (status: number, body: string) => {
      expect(status).toBe(400);
      expect(body).toContain(MALFORMED_ENVELOPE);
      expect(body).not.toMatch(/call stack|Unknown transformation|__proto__ is not allowed|is not a function|BigInt/);
      expectNoInternals(body);
    };

    it.each(envelopes)("%s: a GET query's ?input=", async (_name, envelope) => {
      const response = await fetch(`${base}/trpc/invites.get?input=${encodeURIComponent(JSON.stringify(envelope))}`);
      expectOurWords(response.status, await response.text());
    });

    it.each(envelopes)("%s: a batched GET", async (_name, envelope) => {
      const input = encodeURIComponent(JSON.stringify({ 0: envelope, 1: envelope }));
      const response = await fetch(`${base}/trpc/invites.get,invites.get?batch=1&input=${input}`);
      expectOurWords(response.status, await response.text());
    });

    it.each(envelopes)("%s: a mutation's body", async (_name, envelope) => {
      const answer = await post("/trpc/auth.signIn", JSON.stringify(envelope));
      expectOurWords(answer.status, answer.body);
    });

    it.each(envelopes)("%s: a batched mutation", async (_name, envelope) => {
      const answer = await post("/trpc/auth.signIn,auth.signIn?batch=1", JSON.stringify({ 0: envelope, 1: envelope }));
      expectOurWords(answer.status, answer.body);
    });

    it("a well-formed envelope with annotations still reads", async () => {
      const envelope = { json: { email: "nobody@example.test", password: "wrong-password-1", extra: "x" }, meta: { values: { extra: ["undefined"] }, v: 1 } };
      const answer = await post("/trpc/auth.signIn", JSON.stringify(envelope));
      expect(JSON.parse(answer.body)).toMatchObject({ error: { json: { message: MSG.invalidCredentials } } });
    });
  });

  it.each([
    ['{"a": [[[1]]]}', 4, false],
    ['{"a": [[[1]]]}', 3, true],
    ['{"a": "[[[[[[[["}', 1, false],
    ['["\\"[[[["]', 1, false],
    ["[[[[]]]]", 3, true],
  ])("depth check of %s against %i: %s", (text, max, exceeds) => {
    expect(jsonDepthExceeds(text, max)).toBe(exceeds);
  });
});

/** A raw HTTP request, so the Host header can be anything (fetch always sends the URL's). */
function rawRequest(options: { method?: string; path: string; host: string; headers?: Record<string, string>; body?: string }) {
  const url = new URL(base);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, method: options.method ?? "GET", path: options.path, headers: { host: options.host, ...options.headers } },
      (res) => {
        let body = "";
        res.on("data", (chunk) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

describe("only our own host names are served", () => {
  it("a POST with Host and Origin evil.test is refused before routing (DNS rebinding)", async () => {
    const before = await harness.database.db.user.count();
    const answer = await rawRequest({
      method: "POST",
      path: "/trpc/auth.signUp",
      host: "evil.test",
      headers: { origin: "http://evil.test", "content-type": "application/json" },
      body: JSON.stringify({ json: { email: "rebound@example.test", password: "secret-password" } }),
    });
    expect(answer.status).toBe(421);
    expect(await harness.database.db.user.count()).toBe(before);
  });

  it("pages and API reads under a foreign name are refused too", async () => {
    expect((await rawRequest({ path: "/", host: "evil.test:3000" })).status).toBe(421);
    expect((await rawRequest({ path: "/trpc/auth.me", host: "evil.test" })).status).toBe(421);
  });

  it("health answers under any name (load balancers probe by address), but with the status alone", async () => {
    const foreign = await rawRequest({ path: "/api/health", host: "10.1.2.3:3000" });
    expect(foreign.status).toBe(200);
    expect(JSON.parse(foreign.body)).toEqual({ status: "ok", db: "ok", storage: "ok", mail: "ok" });
    const own = await rawRequest({ path: "/api/health", host: "localhost:3000" });
    expect(JSON.parse(own.body)).toHaveProperty("outbox");
  });

  it("APP_URL's name, the loopback names of a loopback APP_URL and ALLOWED_HOSTS are served", async () => {
    for (const host of ["localhost:3000", "127.0.0.1", "[::1]:3000", "promptly.internal", "PROMPTLY.INTERNAL:8080"]) {
      expect((await rawRequest({ path: "/api/health", host })).status, host).toBe(200);
      expect((await rawRequest({ path: "/trpc/auth.me", host })).status, host).toBe(200);
    }
  });

  it("an Origin that is not ours is refused even with our Host", async () => {
    const answer = await rawRequest({
      method: "POST",
      path: "/trpc/auth.signOut",
      host: "localhost:3000",
      headers: { origin: "http://evil.test", "content-type": "application/json" },
      body: "{}",
    });
    expect(answer.status).toBe(403);
  });
});

describe("API answers are never cached; static assets are", () => {
  it("every API answer is no-store; static assets keep their long cache", async () => {
    expect((await fetch(`${base}/trpc/auth.me`)).headers.get("cache-control")).toBe("no-store");
    expect((await fetch(`${base}/trpc/organizations.list`)).headers.get("cache-control")).toBe("no-store");
    expect((await fetch(`${base}/api/health`)).headers.get("cache-control")).toBe("no-store");
    const signOut = await fetch(`${base}/trpc/auth.signOut`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(signOut.headers.get("cache-control")).toBe("no-store");
    const asset = await fetch(`${base}/assets/app-1234.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  });
});

describe("malformed percent-encoding in a path", () => {
  const MESSAGE = "The path is not valid percent-encoding";
  const V1 = { error: { code: "BAD_REQUEST", message: MESSAGE } };
  const TRPC = { error: { message: MESSAGE, code: -32600, data: { code: "BAD_REQUEST", httpStatus: 400 } } };
  it.each([
    ["/api/v1/prompts/%ZZ", V1],
    ["/api/v1/prompts/a%E0%A4%A/compile", V1],
    ["/api/v1/%ZZ", V1],
    ["/api/%ZZ", V1],
    ["/api/health/%ZZ", V1],
    ["/avatars/%ZZ", V1],
    ["/avatars/%ZZ.png", V1],
    ["/trpc/%ZZ", TRPC],
    ["/trpc/prompts.get%ZZ?input=%7B%7D", TRPC],
    ["/trpc/auth.me,%ZZ?batch=1", TRPC],
  ])("GET %s: 400 JSON in that transport's error shape", async (path, shape) => {
    const response = await fetch(`${base}${path}`);
    const body = await response.text();
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(JSON.parse(body)).toEqual(shape);
    expectNoInternals(body);
  });

  it.each(["/%ZZ", "/assets/%ZZ", "/some/page/%C0%AF"])("GET %s: 400 in words, like every page error", async (path) => {
    const response = await fetch(`${base}${path}`);
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await response.text()).toBe(MESSAGE);
  });

  it.each(["/trpc/auth.me?input=%ZZ", "/trpc/auth.me?batch=1&input=%ZZ", "/trpc/prompts.get?input=%ZZ", "/api/v1/prompts?page=%ZZ"])(
    "GET %s (the query, not the path): tolerated by the parsers, never a 500",
    async (path) => {
      const response = await fetch(`${base}${path}`);
      const body = await response.text();
      expect(response.status, body).toBeLessThan(500);
      expectNoInternals(body);
    },
  );

  it("a POST to a malformed tRPC path: 400 too", async () => {
    const answer = await post("/trpc/auth.signIn%ZZ", "{}");
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual(TRPC);
  });
});
