// What /api/docs documents, read from the tables the servers are built from, so the page cannot drift
// from them: /api/v1's OpenAPI document, /api/public's table of routes, and the MCP server's own tool
// registry (asked with tools/list, as a client with every scope would ask it).
import type { Request } from "express";
import { keyCaller, keyScopeFor, type ApiServices } from "@promptly/api";
import { API_KEY_SCOPES, type ApiKeyScope } from "@promptly/shared";
import { LANGFUSE_OPERATIONS } from "../langfuse/operations.ts";
import { openApiDocument } from "../v1/openapi.ts";

export interface McpToolEntry {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  /** Offered only to a key with the write scope. */
  writes: boolean;
}

export interface JsonSchema {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  $ref?: string;
  additionalProperties?: unknown;
}

interface LangfuseRoute {
  method: string;
  path: string;
  scope: ApiKeyScope;
}

export interface Catalog {
  openApi: ReturnType<typeof openApiDocument>;
  langfuse: LangfuseRoute[];
  mcp: { instructions: string | undefined; tools: McpToolEntry[] };
}

const NO_ID = "00000000-0000-0000-0000-000000000000";

/**
 * The MCP server's tools as a key with every scope is offered them: the server is built as for a
 * request and asked over an in-memory transport, so the list is the registry's, descriptions and
 * argument schemas included. No tool is called.
 */
async function mcpTools(services: ApiServices, req: Request): Promise<Catalog["mcp"]> {
  const [{ mcpServer }, { Client }, { InMemoryTransport }] = await Promise.all([
    import("../mcp/server.ts"),
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/inMemory.js"),
  ]);
  // A key that does not exist, with every scope: it is only offered the tools, never calls one.
  const caller = keyCaller({ id: NO_ID, teamId: NO_ID, labels: null, scopes: [...API_KEY_SCOPES] });
  const server = mcpServer(services, caller, req);
  const client = new Client({ name: "promptly-docs", version: "1.0.0" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  try {
    await server.connect(serverSide);
    await client.connect(clientSide);
    const { tools } = await client.listTools();
    return {
      instructions: client.getInstructions(),
      tools: tools.map((tool) => ({
        name: tool.name,
        description: tool.description ?? "",
        inputSchema: tool.inputSchema as JsonSchema,
        writes: tool.annotations?.readOnlyHint === false,
      })),
    };
  } finally {
    await client.close();
    await server.close();
  }
}

export async function apiCatalog(services: ApiServices, req: Request): Promise<Catalog> {
  return {
    openApi: openApiDocument(),
    langfuse: LANGFUSE_OPERATIONS.map((operation) => ({ method: operation.method.toUpperCase(), path: operation.path, scope: keyScopeFor(operation.action) })),
    mcp: await mcpTools(services, req),
  };
}
