// The web build's assets: a browser that takes brotli or gzip gets the build's own copy, byte for byte,
// with the original file's type and a year's caching; one that takes neither gets the file itself;
// a file the build left uncompressed is compressed by the server as before.
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gzipSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "@promptly/api/testing";
import { createApp } from "./app.ts";
import { listenForTests, type TestServer } from "../test/test-server.ts";

let harness: Harness;
let server: TestServer;
let webDist: string;
const script = `export const greeting = ${JSON.stringify("Hello ".repeat(400))};\n`;
const brotli = brotliCompressSync(script);
const gzip = gzipSync(script);
const style = `body { color: black; }\n${".a { margin: 0 }\n".repeat(200)}`;

beforeAll(async () => {
  harness = await createHarness();
  webDist = mkdtempSync(join(tmpdir(), "promptly-web-"));
  mkdirSync(join(webDist, "assets"));
  writeFileSync(join(webDist, "index.html"), "<!doctype html><title>Promptly</title>");
  writeFileSync(join(webDist, "assets", "app-1234.js"), script);
  writeFileSync(join(webDist, "assets", "app-1234.js.br"), brotli);
  writeFileSync(join(webDist, "assets", "app-1234.js.gz"), gzip);
  // A file the build wrote no copies of.
  writeFileSync(join(webDist, "assets", "style-5678.css"), style);
  server = await listenForTests(createApp({ services: harness.services, webDist }));
});
afterAll(async () => {
  await server?.close();
  await harness?.close();
  rmSync(webDist, { recursive: true, force: true });
});

/** A raw GET (fetch would decode the body and drop the encoding's evidence). */
function get(path: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  const url = new URL(path, server.base);
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("precompressed assets", () => {
  it("brotli when the browser takes it: the build's bytes, the script's type, cached a year, varying by encoding", async () => {
    const answer = await get("/assets/app-1234.js", { "accept-encoding": "gzip, deflate, br, zstd" });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-encoding"]).toBe("br");
    expect(answer.body.equals(brotli)).toBe(true);
    expect(brotliDecompressSync(answer.body).toString()).toBe(script);
    expect(answer.headers["content-type"]).toMatch(/^(text|application)\/javascript/);
    expect(answer.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(answer.headers.vary).toMatch(/Accept-Encoding/i);
  });

  it("gzip when that is what the browser takes", async () => {
    const answer = await get("/assets/app-1234.js", { "accept-encoding": "gzip" });
    expect(answer.headers["content-encoding"]).toBe("gzip");
    expect(answer.body.equals(gzip)).toBe(true);
    expect(gunzipSync(answer.body).toString()).toBe(script);
  });

  it("the file itself when the browser takes no encoding", async () => {
    const asked: Record<string, string>[] = [{}, { "accept-encoding": "identity" }, { "accept-encoding": "br;q=0, gzip;q=0" }];
    for (const headers of asked) {
      const answer = await get("/assets/app-1234.js", headers);
      expect(answer.status).toBe(200);
      expect(answer.headers["content-encoding"]).toBeUndefined();
      expect(answer.body.toString()).toBe(script);
    }
  });

  it("a file with no copy is compressed by the server as before; nothing else is taken for a copy", async () => {
    const css = await get("/assets/style-5678.css", { "accept-encoding": "gzip" });
    expect(css.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(css.body).toString()).toBe(style);
    for (const path of ["/assets/missing-0000.js", "/assets/..%2Fapp-1234.js", "/assets/app-1234.js.br"]) {
      expect((await get(path, { "accept-encoding": "br" })).headers["content-encoding"], path).not.toBe("br");
    }
  });

  it("a copy gone since start-up: the file itself is sent, never labelled with the copy's encoding", async () => {
    writeFileSync(join(webDist, "assets", "gone-9999.js"), script);
    writeFileSync(join(webDist, "assets", "gone-9999.js.br"), brotli);
    const again = await listenForTests(createApp({ services: harness.services, webDist }));
    try {
      unlinkSync(join(webDist, "assets", "gone-9999.js.br"));
      const answer = await get(`${again.base}/assets/gone-9999.js`, { "accept-encoding": "br" });
      expect(answer.status).toBe(200);
      expect(answer.headers["content-type"]).toMatch(/^(text|application)\/javascript/);
      // Whatever encoding the answer names, its body decodes to the file (the server may compress it as it goes).
      const encoding = answer.headers["content-encoding"];
      const body = encoding === "br" ? brotliDecompressSync(answer.body) : encoding === "gzip" ? gunzipSync(answer.body) : answer.body;
      expect(body.toString()).toBe(script);
    } finally {
      await again.close();
    }
  });

  it("a file the build does not have is a 404 in words, never the app's page (which a browser would run as a script)", async () => {
    for (const path of ["/assets/missing-0000.js", "/assets/old/chunk-1111.js"]) {
      const answer = await get(path, { "accept-encoding": "gzip" });
      expect(answer.status, path).toBe(404);
      expect(answer.headers["content-type"], path).toMatch(/^text\/plain/);
      expect(answer.headers["cache-control"], path).toBe("no-store");
    }
    // Pages still get the app.
    expect((await get("/some/page", {})).body.toString()).toContain("<title>Promptly</title>");
  });
});
