// One error table for every transport: each domain error code, thrown by a service, answers the same
// HTTP status and keeps the same reason over tRPC (/trpc's adapter and procedure builder) and over the
// runtime REST API (its error handler), each code's status is the one tRPC itself gives it, and MCP's
// JSON-RPC code for it is the table's.
import express from "express";
import { TRPCError } from "@trpc/server";
import * as trpcExpress from "@trpc/server/adapters/express";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { DOMAIN_ERRORS, ERROR_STATUS, JSON_RPC_ERROR } from "@promptly/api";
import { refuseWith, refusingRouter } from "@promptly/api/testing";
import { runtimeError } from "@promptly/shared";
import { listenForTests, type TestServer } from "../../../test/test-server.ts";
import { v1ErrorHandler } from "./http.ts";

let server: TestServer;

beforeAll(async () => {
  const app = express();
  // The procedure builder reads only the request's test faults and the principal: a caller with neither.
  app.use("/trpc", trpcExpress.createExpressMiddleware({ router: refusingRouter, createContext: () => ({ req: {}, principal: null }) as never }));
  app.get("/rest/:code", (req) => refuseWith(req.params.code as keyof typeof DOMAIN_ERRORS));
  app.use(v1ErrorHandler());
  server = await listenForTests(app);
});
afterAll(async () => {
  await server.close();
});

describe("the one error table", () => {
  it.each(Object.entries(DOMAIN_ERRORS))("%s answers the same status, code and reason over tRPC and REST", async (code, expected) => {
    const trpc = await fetch(`${server.base}/trpc/refuse?input=${encodeURIComponent(JSON.stringify({ json: { code } }))}`);
    const trpcError = ((await trpc.json()) as { error: { json: { message: string; data: { code: string; httpStatus: number; reason: string | null } } } }).error.json;
    const rest = await fetch(`${server.base}/rest/${code}`);
    const restError = runtimeError.parse(await rest.json()).error;

    expect(trpc.status).toBe(expected.status);
    expect(rest.status).toBe(expected.status);
    expect(trpcError.data).toMatchObject({ code: expected.code, httpStatus: expected.status, reason: `REASON_${code}` });
    expect(restError).toEqual({ code: expected.code, message: `Refused: ${code}`, reason: `REASON_${code}` });
    expect(trpcError.message).toBe(restError.message);
  });

  it("gives every error code the JSON-RPC code MCP answers it with: the input's fault is invalid params, ours an internal error, any other an invalid request", () => {
    const expected = (code: string) =>
      code === "INTERNAL_SERVER_ERROR" ? ErrorCode.InternalError : code === "BAD_REQUEST" || code === "NOT_FOUND" ? ErrorCode.InvalidParams : ErrorCode.InvalidRequest;
    expect(JSON_RPC_ERROR).toEqual(Object.fromEntries(Object.keys(ERROR_STATUS).map((code) => [code, expected(code)])));
  });

  it("gives every error code the HTTP status tRPC gives it", () => {
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      expect([code, getHTTPStatusCodeFromError(new TRPCError({ code: code as TRPCError["code"] }))]).toEqual([code, status]);
    }
  });
});
