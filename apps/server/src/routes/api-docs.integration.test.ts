// The runtime API's reference page: Scalar's viewer from our own files renders the
// OpenAPI document in a real browser under the app's CSP, and nothing is fetched from elsewhere.
import { chromium } from "@playwright/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "@promptly/api/testing";
import { createApp } from "../app.ts";
import { listenForTests, type TestServer } from "../../test/test-server.ts";
import { V1_OPERATIONS } from "./v1/openapi.ts";

let h: Harness;
let server: TestServer;

beforeAll(async () => {
  h = await createHarness();
  server = await listenForTests(createApp({ services: h.services }));
});
afterAll(async () => {
  await server.close();
  await h.close();
});

describe("GET /api/docs", () => {
  it("serves a page and the viewer from this origin, under the app's CSP", async () => {
    const page = await fetch(`${server.base}/api/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    const html = await page.text();
    expect([...html.matchAll(/src="([^"]+)"/g)].map(([, src]) => src)).toEqual(["/api/docs/viewer.js", "/api/docs/start.js"]);
    expect(html).not.toMatch(/https?:\/\//);
    const viewer = await fetch(`${server.base}/api/docs/viewer.js`);
    expect(viewer.status).toBe(200);
    expect(viewer.headers.get("content-type")).toMatch(/^application\/javascript/);
  });

  it("renders every operation in a browser, with no CSP violation and no request to another origin", async () => {
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
    try {
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on("console", (message) => {
        if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
      });
      page.on("pageerror", (error) => problems.push(error.message));
      page.on("request", (request) => {
        if (!request.url().startsWith(server.base) && !request.url().startsWith("data:")) problems.push(`external request: ${request.url()}`);
      });
      await page.goto(`${server.base}/api/docs`);
      await page.getByRole("heading", { name: "Promptly runtime API" }).waitFor({ timeout: 20_000 });
      for (const operation of V1_OPERATIONS) await expect(page.getByText(operation.summary).first().isVisible()).resolves.toBe(true);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
