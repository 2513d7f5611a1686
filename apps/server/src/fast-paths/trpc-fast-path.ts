// The hot path of the API: one tRPC query over GET (auth.me, teams.list, ... as the web app's
// loaders ask for them), alone or as a batch of one (`?batch=1`, which httpBatchLink sends even for
// one call: every query of the web app and @promptly/client), is answered without the express
// adapter's conversion of the request and the answer to fetch's Request/Response (about half of a
// small query's cost under load). It calls, shapes errors and serialises with tRPC's own functions,
// so the answer is the adapter's: the same status, body (superjson envelope, error shape with zod
// issues; a batch's in an array) and headers. Everything else (batches of several calls, mutations,
// unknown paths, streaming, odd input) goes on to the adapter untouched.
import type { NextFunction, Request, Response } from "express";
import {
  callTRPCProcedure, getTRPCErrorFromUnknown, getTRPCErrorShape, transformTRPCResponse, type AnyTRPCRouter, type TRPCError,
} from "@trpc/server";
import { getHTTPStatusCode } from "@trpc/server/http";
import { fastPathAnswers } from "./answers.ts";

export interface FastPathOptions<TContext> {
  router: AnyTRPCRouter;
  /** The adapter's createContext: the same function, so cookies and the caller are resolved alike. */
  createContext(opts: { req: Request; res: Response }): Promise<TContext>;
  /**
   * The router's transformer writing a result's data as JSON text itself (JSON.stringify of its
   * serialize, byte for byte), or null to have it stringified; absent: always stringified.
   */
  serializeToJsonText?(data: unknown): string | null;
  /**
   * Queries whose data some function writes as JSON text itself (serializeToJsonText's text, in parts
   * whose concatenation it is), by procedure path: given the context and the input, the parts, or null
   * to have the procedure answer.
   */
  directAnswers?: Readonly<Record<string, (ctx: TContext, input: unknown) => Promise<string[] | null>>>;
  /** The adapter's onError. */
  onError?(opts: { error: TRPCError; path: string; input: unknown; ctx: TContext | undefined; type: "query"; req: Request }): void;
}

/** What the fast path answers: one query, its input, and whether it came as a batch of one; null sends the request on to the adapter. */
function plainQuery(router: AnyTRPCRouter, req: Request): { path: string; input: unknown; batch: boolean } | null {
  if (req.method !== "GET") return null;
  // A streaming client (trpc-accept, or application/jsonl among Accept's types, as the adapter reads
  // them) and a request with a body type other than JSON take the adapter's checks.
  if (req.headers["trpc-accept"] !== undefined || req.headers.accept?.includes("application/jsonl")) return null;
  const contentType = req.headers["content-type"];
  if (contentType !== undefined && !contentType.startsWith("application/json")) return null;
  const path = decodePath(req.path.slice(req.path.lastIndexOf("/") + 1));
  if (!path || path.includes(",")) return null;
  const procedure = (router._def.procedures as Record<string, { _def?: { type?: string } } | undefined>)[path];
  if (procedure?._def?.type !== "query") return null;
  // Only `?input=...` and `batch=1` (or nothing): connectionParams, another batch value and repeated keys are the adapter's.
  const query = req.query as Record<string, unknown>;
  let raw: unknown;
  let batch = false;
  for (const key in query) {
    if (key === "batch" && query[key] === "1") batch = true;
    else if (key !== "input") return null;
    else raw = query[key];
  }
  if (raw === undefined) return { path, input: undefined, batch };
  if (typeof raw !== "string") return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!batch) return { path, input: router._def._config.transformer.input.deserialize(parsed), batch };
    // A batch's input is an object of each call's input by its index (the adapter refuses anything else).
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return null;
    const own = (parsed as Record<string, unknown>)["0"];
    return { path, input: own === undefined ? undefined : router._def._config.transformer.input.deserialize(own), batch };
  } catch {
    return null; // the adapter words what is wrong with it
  }
}

function decodePath(encoded: string): string | null {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return null;
  }
}

/**
 * The UTF-8 bytes of the parts' concatenation, each part encoded once into one buffer: joining them
 * first made one more string of the whole answer (a 500-team list's is 250 kB, kept until a full
 * collection), and Buffer.byteLength then writing a string encoded it twice (12% of that list's CPU).
 */
function encoded(parts: readonly string[]): Buffer {
  if (parts.length === 1) return Buffer.from(parts[0]!);
  let length = 0;
  for (const part of parts) length += Buffer.byteLength(part);
  const bytes = Buffer.allocUnsafe(length);
  let at = 0;
  for (const part of parts) at += bytes.write(part, at);
  return bytes;
}

/** Express middleware before the tRPC adapter: answers plain single queries itself, passes the rest on. */
export function trpcQueryFastPath<TContext>({ router, createContext, serializeToJsonText, directAnswers = {}, onError }: FastPathOptions<TContext>) {
  const config = router._def._config;
  return (req: Request, res: Response, next: NextFunction) => {
    const call = plainQuery(router, req);
    if (!call) return next();
    void answer(call, req, res).catch(next);
  };

  async function answer({ path, input, batch }: { path: string; input: unknown; batch: boolean }, req: Request, res: Response) {
    let ctx: TContext | undefined;
    let body: { result: { data: unknown } } | { error: ReturnType<typeof getTRPCErrorShape> };
    /** The data as JSON text in parts, where a direct answer wrote it. */
    let written: string[] | null = null;
    try {
      ctx = await createContext({ req, res });
      const direct = Object.hasOwn(directAnswers, path) ? directAnswers[path] : undefined;
      // Anything the direct answer leaves (a refusal, a failure) is the procedure's to answer, as without it;
      // a failure is still reported as the adapter reports one, so a broken statement is seen, not run twice unseen.
      const asked = ctx;
      written = direct
        ? await direct(asked, input).catch((cause: unknown) => {
            onError?.({ error: getTRPCErrorFromUnknown(cause), path, input, ctx: asked, type: "query", req });
            return null;
          })
        : null;
      if (written !== null) fastPathAnswers.directAnswer++;
      const data = written !== null ? null : await callTRPCProcedure({
        router, path, type: "query", ctx, getRawInput: async () => input, signal: undefined, batchIndex: 0,
      });
      body = { result: { data } };
    } catch (cause) {
      const error = getTRPCErrorFromUnknown(cause);
      onError?.({ error, path, input, ctx, type: "query", req });
      body = { error: getTRPCErrorShape({ config, ctx, error, input, path, type: "query" }) };
    }
    // The adapter's headers: its Vary and content type (Set-Cookie from the context is already on res).
    res.statusCode = getHTTPStatusCode(body);
    res.setHeader("vary", "trpc-accept, accept");
    res.setHeader("content-type", "application/json");
    // With its length known, a small answer leaves in one write: compression (which writes the head
    // itself) would otherwise send it chunked, as a head, the chunk and a terminator.
    const data = written ?? ("result" in body && serializeToJsonText ? serializeToJsonText(body.result.data) : null);
    // A batch's answer is the list of its calls' answers; its status is its one call's.
    const text = data !== null
      ? [batch ? '[{"result":{"data":' : '{"result":{"data":', ...(typeof data === "string" ? [data] : data), batch ? "}}]" : "}}"]
      : [JSON.stringify(transformTRPCResponse(config, batch ? [body] : body))];
    const bytes = encoded(text);
    res.setHeader("content-length", bytes.length);
    res.end(bytes);
    fastPathAnswers.trpcQuery++;
  }
}
