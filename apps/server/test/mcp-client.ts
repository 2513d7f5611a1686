// For the tests of /api/mcp: clients of the official MCP SDK with an API key, and their tool calls.
import { expect } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { TestServer } from "./test-server.ts";

/** Connects clients of `server` with a key; `close` closes every one connected. */
export function mcpClients(server: TestServer) {
  const clients: Client[] = [];
  return {
    async connect(key: string): Promise<Client> {
      const client = new Client({ name: "promptly-test", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.base}/api/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
      clients.push(client);
      return client;
    },
    close: () => Promise.all(clients.map((client) => client.close())),
  };
}

export const callTool = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
/** A tool answer's text (its JSON, or a refusal's message). */
export const toolText = (result: CallToolResult) => (result.content[0] as { text: string }).text;
/** A tool answer's JSON, failing the test on a refusal (with its message). */
export const toolJson = (result: CallToolResult) => {
  expect(result.isError ?? false, toolText(result)).toBe(false);
  return JSON.parse(toolText(result)) as Record<string, unknown>;
};
