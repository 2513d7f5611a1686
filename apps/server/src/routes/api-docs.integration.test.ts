// The API reference page: plain HTML from this origin (no script) that documents every operation of
// /api/v1's OpenAPI document, every route of /api/public's table, and every tool the MCP server offers a
// key with every scope, asked through /api/mcp itself, so a tool added or described anew shows here.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_KEY_SCOPES } from "@promptly/shared";
import { startKeyServer, type KeyServer } from "../../test/key-server.ts";
import { mcpClients } from "../../test/mcp-client.ts";
import { LANGFUSE_OPERATIONS } from "./langfuse/operations.ts";
import { V1_OPERATIONS } from "./v1/openapi.ts";
import { LANGFUSE_ROUTE_NOTES } from "./api-docs/page.ts";

let ks: KeyServer;
let html: string;

const escaped = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

beforeAll(async () => {
  ks = await startKeyServer();
  const page = await fetch(`${ks.server.base}/api/docs`);
  expect(page.status).toBe(200);
  expect(page.headers.get("content-type")).toMatch(/^text\/html/);
  expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
  html = await page.text();
});
afterAll(async () => {
  await ks.close();
});

describe("GET /api/docs", () => {
  it("is plain HTML: no script, nothing loaded from another origin", () => {
    expect(html).not.toMatch(/<script/i);
    expect([...html.matchAll(/(?:src|href)="(https?:[^"]+)"/g)].map(([, url]) => url)).toEqual([]);
  });

  it("documents every operation of /api/v1 with its path, summary and key scope, and links the OpenAPI document", () => {
    expect(html).toContain('href="/api/v1/openapi.json"');
    for (const operation of V1_OPERATIONS) {
      expect(html).toContain(`<code>/api/v1${escaped(operation.path)}</code>`);
      expect(html).toContain(escaped(operation.summary));
      expect(html).toContain(`<code>${operation.id}</code>`);
    }
  });

  it("documents every route of /api/public, each with what it does, and what differs from Langfuse", () => {
    expect(Object.keys(LANGFUSE_ROUTE_NOTES).sort()).toEqual(LANGFUSE_OPERATIONS.map((operation) => `${operation.method.toUpperCase()} ${operation.path}`).sort());
    for (const operation of LANGFUSE_OPERATIONS) {
      expect(html).toContain(`<code>/api/public${escaped(operation.path)}</code>`);
      expect(html).toContain(escaped(LANGFUSE_ROUTE_NOTES[`${operation.method.toUpperCase()} ${operation.path}`]!));
    }
    expect(html).toContain("What differs from Langfuse");
  });

  it("documents every tool /api/mcp offers a key with every scope, with its description and arguments", async () => {
    const key = await ks.key(await ks.team("Docs"), { scopes: [...API_KEY_SCOPES] });
    const clients = mcpClients(ks.server);
    try {
      const { tools } = await (await clients.connect(key.secretKey)).listTools();
      expect(tools.map((tool) => tool.name)).toContain("createTextPrompt");
      for (const tool of tools) {
        expect(html).toContain(`<code>${tool.name}</code>`);
        expect(html).toContain(escaped(tool.description!));
        const section = html.slice(html.indexOf(`id="mcp-${tool.name.toLowerCase()}"`));
        for (const argument of Object.keys(tool.inputSchema.properties ?? {})) expect(section).toContain(`<code>${argument}</code>`);
      }
    } finally {
      await clients.close();
    }
    expect(html).toContain(`${ks.h.services.config.appUrl.replace(/\/$/, "")}/api/mcp`);
  });
});
