import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, createS3Storage, type Harness } from "@promptly/api/testing";
import { createClient } from "@promptly/client";
import { createApp } from "./app.ts";
import { listenForTests, type TestServer } from "../test/test-server.ts";

let harness: Harness;
let server: TestServer;
let base: string;

beforeAll(async () => {
  harness = await createHarness();
  server = await listenForTests(createApp({ services: harness.services }));
  base = server.base;
});
afterAll(async () => {
  await server.close();
  await harness.close();
});

describe("HTTP host", () => {
  it("GET /api/health reports every part ok", async () => {
    const response = await fetch(`${base}/api/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok", db: "ok", storage: "ok", mail: "ok", outbox: { depth: 0, oldestAgeSeconds: 0, failed: 0 } });
  });

  it("GET /api/health answers 503 and names the failing part", async () => {
    const broken = createApp({
      services: {
        ...harness.services,
        storage: createS3Storage({ endpoint: "http://127.0.0.1:1", accessKey: "x", secretKey: "y", region: "us-east-1" }),
      },
    });
    const brokenServer = await listenForTests(broken);
    try {
      const response = await fetch(`${brokenServer.base}/api/health`);
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ status: "error", db: "ok", storage: "error", mail: "ok" });
    } finally {
      await brokenServer.close();
    }
  });

  it("TEST_FAULTS: the promptly-test-faults cookie fails the named procedures only, and only when switched on", async () => {
    const cookie = { cookie: "theme=dark; promptly-test-faults=health.check%2Corganizations.list" };
    // Off (every real installation): the cookie changes nothing.
    expect((await fetch(`${base}/trpc/health.check`, { headers: cookie })).status).toBe(200);
    const faulty = await listenForTests(createApp({ services: harness.services, testFaults: true }));
    try {
      const failed = await fetch(`${faulty.base}/trpc/health.check`, { headers: cookie });
      expect(failed.status).toBe(500);
      expect(await failed.json()).toMatchObject({ error: { json: { message: "An unexpected error occurred", data: { code: "INTERNAL_SERVER_ERROR" } } } });
      // In a batch, the other procedures answer as usual.
      const batch = await fetch(`${faulty.base}/trpc/health.check,auth.me?batch=1&input=${encodeURIComponent("{}")}`, { headers: cookie });
      const answers = (await batch.json()) as { error?: unknown; result?: unknown }[];
      expect(answers.map((answer) => ("error" in answer ? "error" : "result"))).toEqual(["error", "result"]);
      expect((await fetch(`${faulty.base}/trpc/health.check`)).status).toBe(200);
    } finally {
      await faulty.close();
    }
  });

  it("TEST_FAULTS: the promptly-test-delay cookie holds a request that long, and only when switched on", async () => {
    const timed = async (url: string, ms: number) => {
      const started = Date.now();
      const response = await fetch(url, { headers: { cookie: `promptly-test-delay=${ms}` } });
      return { status: response.status, ms: Date.now() - started };
    };
    // Switched off, a held request would take at least the whole delay: anything under it says it was
    // not held, however loaded the machine (a 600 ms delay against a 500 ms bound failed under load).
    expect((await timed(`${base}/trpc/health.check`, 5000)).ms).toBeLessThan(5000);
    const delaying = await listenForTests(createApp({ services: harness.services, testFaults: true }));
    try {
      const held = await timed(`${delaying.base}/trpc/health.check`, 600);
      expect(held.status).toBe(200);
      expect(held.ms).toBeGreaterThanOrEqual(590);
    } finally {
      await delaying.close();
    }
  });

  it("sends security headers on every response", async () => {
    const response = await fetch(`${base}/api/health`);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(response.headers.get("x-powered-by")).toBeNull();
    const auth = await fetch(`${base}/auth/reset-password?token=abc`);
    expect(auth.headers.get("referrer-policy")).toBe("no-referrer");
  });

  it("refuses cross-site and non-JSON mutations", async () => {
    const crossSite = await fetch(`${base}/trpc/health.check`, {
      method: "POST",
      headers: { "content-type": "application/json", "sec-fetch-site": "cross-site" },
      body: "{}",
    });
    expect(crossSite.status).toBe(403);
    const foreignOrigin = await fetch(`${base}/trpc/health.check`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: "https://evil.example" },
      body: "{}",
    });
    expect(foreignOrigin.status).toBe(403);
    const form = await fetch(`${base}/trpc/health.check`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "a=b",
    });
    expect(form.status).toBe(415);
  });

  it("compresses large answers for clients that accept gzip, and only for them", async () => {
    const db = harness.database.db;
    const superUser = await db.user.create({
      data: { email: "compress@example.test", profile: { create: { superUser: true } }, appRole: { create: { role: "user" } } },
    });
    await db.organization.createMany({ data: Array.from({ length: 200 }, (_, i) => ({ name: `Compressed ${String(i).padStart(3, "0")}` })) });
    const client = await harness.signedInClient(superUser.id);
    const cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const list = (acceptEncoding: string) => fetch(`${base}/trpc/organizations.list`, { headers: { cookie, "accept-encoding": acceptEncoding } });

    const gzipped = await list("gzip");
    expect(gzipped.status).toBe(200);
    expect(gzipped.headers.get("content-encoding")).toBe("gzip");
    const body = (await gzipped.json()) as { result: { data: { json: { name: string }[] } } };
    expect(body.result.data.json.filter((o) => o.name.startsWith("Compressed "))).toHaveLength(200);

    const plain = await list("identity");
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect((await plain.text()).length).toBeGreaterThan(10_000);
    // Small answers are not worth it.
    const health = await fetch(`${base}/api/health`, { headers: { "accept-encoding": "gzip" } });
    expect(health.headers.get("content-encoding")).toBeNull();
  });

  it("the typed client package talks to the real router", async () => {
    const client = createClient({ url: base });
    await expect(client.health.check.query()).resolves.toEqual({ status: "ok", db: "ok", storage: "ok", mail: "ok", outbox: { depth: 0, oldestAgeSeconds: 0, failed: 0 } });
  });
});
