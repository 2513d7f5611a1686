// Behind a reverse proxy the client address comes from X-Forwarded-For. The client writes the left end
// of that header itself, so rotating it must not reset the per-address rate limits.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH_RATE_LIMITS, createHarness, type Harness } from "@promptly/api/testing";
import { createApp } from "./app.ts";
import { listenForTests, type TestServer } from "../test/test-server.ts";

let harness: Harness;
let server: TestServer;
let base: string;

beforeAll(async () => {
  harness = await createHarness({ rateLimits: true });
  // TRUST_PROXY=true (env.test.ts: read as one proxy in front).
  server = await listenForTests(createApp({ services: harness.services, trustProxy: 1 }));
  base = server.base;
});
afterAll(async () => {
  await server.close();
  await harness.close();
});

describe("TRUST_PROXY=true", () => {
  it("takes the address the proxy saw, so a forged X-Forwarded-For does not get around the per-address limit", async () => {
    const limit = AUTH_RATE_LIMITS.sendMagicLink.ip.limit;
    const statuses: number[] = [];
    for (let i = 0; i <= limit; i++) {
      const response = await fetch(`${base}/trpc/auth.sendMagicLink`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          origin: harness.services.config.appUrl,
          // A new forged address each time on the left; the proxy appends the one it saw (the same).
          "x-forwarded-for": `203.0.113.${i}, 198.51.100.7`,
        },
        body: JSON.stringify({ json: { email: `proxy-${i}@example.test` } }),
      });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, limit).every((status) => status === 200)).toBe(true);
    expect(statuses[limit]).toBe(429);
  });
});
