// Avatars are served by the app from the real S3 server, with long-lived caching.
import { randomBytes } from "node:crypto";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "@promptly/api/testing";
import { createApp } from "../app.ts";
import { listenForTests, type TestServer } from "../../test/test-server.ts";

let h: Harness;
let server: TestServer;
let base: string;

beforeAll(async () => {
  h = await createHarness();
  server = await listenForTests(createApp({ services: h.services }));
  base = server.base;
});
afterAll(async () => {
  await server.close();
  await h.close();
});

describe("GET /avatars/:file", () => {
  it("serves a stored avatar with its type and immutable caching, and answers 304 to a matching ETag", async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#36c" } }).png().toBuffer();
    const file = `${crypto.randomUUID()}-${Date.now()}.png`;
    await h.services.storage.put(`avatars/${file}`, png, "image/png");
    const response = await fetch(`${base}/avatars/${file}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(await response.arrayBuffer()).equals(png)).toBe(true);
    const etag = response.headers.get("etag")!;
    const again = await fetch(`${base}/avatars/${file}`, { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
  });

  it.each([
    ["a missing avatar", () => `${crypto.randomUUID()}-${Date.now()}.png`],
    ["a name that is not an avatar key", () => `../profiles-${randomBytes(3).toString("hex")}.png`],
    ["an SVG name", () => `${crypto.randomUUID()}-${Date.now()}.svg`],
  ])("answers 404 for %s", async (_, name) => {
    expect((await fetch(`${base}/avatars/${encodeURIComponent(name())}`)).status).toBe(404);
  });
});
