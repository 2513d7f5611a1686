// MCP at /api/mcp: the Streamable HTTP transport of the official SDK, stateless (a new
// server and transport for each request, as the SDK's stateless example does), answered as JSON (no
// event stream: nothing here streams, and compression would hold events back). The door is REST's:
// the same `Authorization: Bearer <key>` authentication and rate limit (v1's authenticate), and the
// same error body for a missing or wrong key; what a key may then do is the one decision's and the
// runtime services' (server.ts), never this file's.
import express, { Router, type Request, type Response } from "express";
import { ERROR_STATUS, JSON_RPC_ERROR, countKeyCalls, type ApiServices } from "@promptly/api";
import { refuseDeepJson } from "../../security.ts";
import { logRequestFailure } from "../../logger.ts";
import { v1ErrorHandler } from "../v1/http.ts";
import { authenticate, callerOf, keyRefused } from "../v1/router.ts";

/** A JSON-RPC error without a request id: what the transport's own refusals look like. */
const rpcError = (res: Response, status: number, code: number, message: string) =>
  void res.status(status).json({ jsonrpc: "2.0", error: { code, message }, id: null });

export function mcpRouter(services: ApiServices, options: { ratePerMinute: number | null }): Router {
  const router = Router();
  // The key first: a body is read only for a caller we know.
  router.use(authenticate(services, options), express.json({ limit: "1mb", verify: refuseDeepJson }));

  router.post("/", async (req: Request, res: Response) => {
    // Each message of a batch is a request of the key, as if sent alone: authenticate counted the first.
    const messages = Array.isArray(req.body) ? req.body.length : 1;
    const counted = await countKeyCalls(services.rateLimits, options.ratePerMinute, callerOf(res).apiKey.id, messages - 1);
    if (!counted.ok) throw keyRefused(res, counted);
    // The MCP SDK (with its JSON-schema validator, about 10 MB) is loaded by the first MCP request, not at start-up.
    const [{ mcpServer }, { StreamableHTTPServerTransport }] = await Promise.all([
      import("./server.ts"),
      import("@modelcontextprotocol/sdk/server/streamableHttp.js"),
    ]);
    const server = mcpServer(services, callerOf(res), req);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    } catch (error) {
      logRequestFailure(req, "MCP request failed", error);
      if (!res.headersSent) rpcError(res, ERROR_STATUS.INTERNAL_SERVER_ERROR, JSON_RPC_ERROR.INTERNAL_SERVER_ERROR, "Something went wrong on our side. Please try again.");
    }
  });
  // Stateless: no session to open a stream on or to end.
  router.all("/", (_req, res) => {
    res.setHeader("Allow", "POST");
    rpcError(res, 405, -32000, "Method not allowed: send MCP requests with POST");
  });

  router.use(v1ErrorHandler());
  return router;
}
