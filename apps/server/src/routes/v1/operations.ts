// The one table of the runtime API (/api/v1): each operation's method, path, action (of the permission
// table: the one decision says whether the key may, and which scope it needs), input schemas,
// handler and documented answers. router.ts registers the routes from it and openapi.ts writes the
// document from it, so no route exists without its entry in the document. Handlers parse nothing
// themselves: the table's schemas are what the route validates with and what the document states.
import { createHash } from "node:crypto";
import { DOMAIN_ERRORS, DomainError, createApiScore } from "@promptly/api";
import { runtimeScoreAnswer, runtimeScoreInput } from "@promptly/shared";
import type { Request, Response } from "express";
import type { z } from "zod";
import {
  type KeyCaller, type Resource, compileRuntimePrompt, runtimeGenerationPages, runtimeGenerations, runtimeProductionMetrics, createRuntimePrompt, getRuntimeEvaluation, readRuntimeEvaluationItems, startRuntimeEvaluation, createRuntimeVersion, listRuntimePrompts, runtimeSelector, serveRuntimePrompt, setRuntimeLabel,
  startRuntimeRun, type ApiServices, type RunEvent,
} from "@promptly/api";
import {
  evaluationItemsAnswer, idSchema, promptLabelSchema, runtimeCompileInput, runtimeEvaluationInput, runtimeEvaluationSummary, runtimeCompiled, runtimeCreatePromptInput, runtimeCreateVersionInput, runtimeCreatedPrompt,
  runtimeCreatedVersion, runtimeError, runtimeGetQuery, runtimeLabelSet, runtimeListQuery, runtimePrompt, runtimePromptPage, runtimeRunInput, runtimeRunResult,
  runtimeSetLabelInput, RUNTIME_MSG, type Action, type RuntimeError, type RuntimePrompt, type RuntimeRunResult, type RuntimeSelector, type VariableProblem,
  PRODUCTION_EXPORT_LIMIT, csvText, generationPage, runtimeGenerationsQuery, runtimeProductionMetrics as productionMetricsAnswer, runtimeProductionMetricsQuery, GENERATION_CSV_HEADER, generationCsvRow, generationExportFileName, generationJsonLines, UNIT_HEADER,
} from "@promptly/shared";
import { EventWriter } from "./event-writer.ts";
import { sendError } from "./http.ts";

interface Answer {
  description: string;
  schema?: z.ZodType;
  /** Also answered as server-sent events: what they are. */
  events?: string;
  /** Also answered in these media types (asked for by the query): what each holds. */
  formats?: Record<string, string>;
  headers?: Record<string, string>;
}

export type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a handler is given: the request's key as its caller, its decoded path parameters and its parsed input (the Langfuse API's handlers too). */
export interface Call<Q, B> {
  services: ApiServices;
  caller: KeyCaller;
  req: Request;
  res: Response;
  params: Record<string, string>;
  query: Q;
  body: B;
}

export interface Operation<Q extends z.ZodObject | undefined = z.ZodObject | undefined, B extends z.ZodType | undefined = z.ZodType | undefined> {
  id: string;
  method: "get" | "post" | "put";
  /** OpenAPI path, under /api/v1: `{name}` is a prompt name (may hold '/'), any other `{x}` one path segment. */
  path: string;
  summary: string;
  /** What the key does, as the permission table names it: the one decision is asked before anything else. */
  action: Action;
  /** What the request itself says of the resource (a fetched label, a moved one), asked of the decision once parsed. */
  resource?(call: { params: Record<string, string>; query: Parsed<Q>; body: Parsed<B> }): Resource;
  /** Path parameters checked with a schema (the document states them as strings). */
  pathSchemas?: Record<string, z.ZodType<string>>;
  query?: Q;
  body?: B;
  /** Request headers it reads beside Authorization, by name: what each says (the document states them as optional strings). */
  headers?: Record<string, string>;
  responses: Record<number, Answer>;
  /** Answers the request (after the key, the decision and the input are checked): parse, call the service, map the result. */
  handle(call: Call<Parsed<Q>, Parsed<B>>): Promise<void> | void;
}

const operation = <Q extends z.ZodObject | undefined = undefined, B extends z.ZodType | undefined = undefined>(entry: Operation<Q, B>) =>
  entry as unknown as Operation;

const error = (description: string): Answer => ({ description, schema: runtimeError });
const COMMON_ERRORS: Record<number, Answer> = {
  401: error("No key, a malformed, unknown, revoked or expired key: the message says which"),
  429: { ...error("Over the key's request limit a minute"), headers: { "Retry-After": "Seconds until the key may ask again" } },
};
/** A split label's unit, as a header: what every fetch, compile and run of a label reads. */
const UNIT_HEADERS = {
  "X-Promptly-Unit":
    "A stable id (a user, a session): a split label (one serving two versions by weight) serves it the same version on every request; " +
    "without one each request is picked by weight. The query's or body's unit wins. The answer's version says which was served. " +
    "Held to the query's rule (1 to 200 characters, else 400). HTTP drops spaces at either end of a header's value: send a unit " +
    "that begins or ends with spaces as unit in the query or body",
};
const NO_SUCH_PROMPT = "No such prompt for this key (another team's, private, archived), or no such label or version";
const NAME_ERRORS: Record<number, Answer> = {
  404: error(NO_SUCH_PROMPT),
};

// Every process hears of a write from the database's notification; the writer's own next read must not wait for it.
export const changed = ({ services, caller }: { services: ApiServices; caller: KeyCaller }) => services.runtime.invalidate(`team:${caller.apiKey.teamId}`);

/** A contract refusal, as compile answers it: every problem, each naming its variable. */
function sendContractProblems(res: Response, result: { message: string; problems: VariableProblem[] }) {
  const details = result.problems.map((problem) => ({ variable: problem.variable, message: problem.message }));
  sendError(res, "BAD_REQUEST", result.message, { details });
}

type Done = Extract<RunEvent, { type: "done" }>;

/** What a tool is told of a finished run. */
const runAnswer = ({ run }: Done): RuntimeRunResult => ({
  output: run.output,
  run: { id: run.id, version: run.version, model: run.model, inputTokens: run.inputTokens, outputTokens: run.outputTokens, ttftMs: run.ttftMs, totalMs: run.totalMs, cost: run.cost, status: run.status,
    toolCalls: run.toolCalls, schemaMatched: run.schemaMatched, schemaProblem: run.schemaProblem },
});

/** A run the provider failed (or did not answer in time): 502, its words and the status it answered. */
const providerFailure = (done: Done): RuntimeError => ({
  error: { code: "BAD_GATEWAY", message: done.run.error ?? "The provider failed", reason: "PROVIDER_FAILED", providerStatus: done.providerStatus ?? null, detail: done.run.errorDetail },
});

/**
 * A run whose record was refused because its prompt is gone (it, its team or its organization deleted
 * while the model answered; nothing was written): the 404 a run of it asked for now gets. Null: another failure.
 */
const promptGone = (error: unknown, name: string, selector: RuntimeSelector): DomainError | null =>
  error instanceof DomainError && error.code === "NOT_FOUND" ? new DomainError("NOT_FOUND", RUNTIME_MSG.promptNotFound(name, selector)) : null;

/** A strong validator of exactly these bytes. */
const etagOf = (body: string) => `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`;

/**
 * A fetched version's answer as sent: its JSON and ETag, made once per answer the runtime cache keeps
 * (an entry is replaced on a change, never modified), so a fetch served from memory serializes and
 * hashes nothing.
 */
const sentAnswers = new WeakMap<RuntimePrompt, { body: string; bytes: Buffer; etag: string }>();
export function sentAnswer(prompt: RuntimePrompt) {
  let answer = sentAnswers.get(prompt);
  if (!answer) {
    const body = JSON.stringify(prompt);
    answer = { body, bytes: Buffer.from(body), etag: etagOf(body) };
    sentAnswers.set(prompt, answer);
  }
  return answer;
}

/** A fetched version's Cache-Control: the key is part of the request, so only the tool's own cache may keep it, and must ask again each time. */
export const FETCH_CACHE_CONTROL = "private, no-cache";

/** If-None-Match as RFC 9110 compares it: any of the listed tags, weakly, or `*`. */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((tag) => {
    const value = tag.trim();
    return value === "*" || value.replace(/^W\//, "") === etag;
  });
}

/** Parsed time bounds of a production query. */
const spanQuery = (query: { from?: string; to?: string }) => ({
  from: query.from === undefined ? undefined : new Date(query.from),
  to: query.to === undefined ? undefined : new Date(query.to),
});

/**
 * Writes to a streamed answer at the pace its client reads: each resolves once the client has taken
 * the text (drain), so one that stops reading holds the answer there, not the whole of it in memory;
 * false once the client has gone away (close): read nothing more for it. The listeners stay for the
 * whole answer: compression hands `drain` listeners to its stream and cannot remove them.
 */
function pacedWriter(res: Response): (text: string) => Promise<boolean> {
  let gone = res.destroyed;
  let taken = () => {};
  res.on("drain", () => taken());
  res.on("close", () => {
    gone = true;
    taken();
  });
  return async (text) => {
    if (gone) return false;
    if (!res.write(text) && !gone) await new Promise<void>((resolve) => (taken = resolve));
    return !gone;
  };
}

/** A production read refused before anything was written (a bad span, an unknown prompt) answers as any error does. */
const productionErrors = {
  400: error("Invalid filters, span (from after to, more than 366 days) or cursor"),
  403: error("The key is bound to labels"),
  ...NAME_ERRORS,
  ...COMMON_ERRORS,
};

/**
 * Production reads come before getPrompt: its `{name}` takes any path, so `/prompts/a/metrics` would
 * fetch a prompt named `a/metrics`. Such a prompt is fetched with its name encoded (`a%2Fmetrics`).
 */
const PRODUCTION_OPERATIONS: Operation[] = [
  operation({
    id: "getPromptMetrics",
    method: "get",
    path: "/prompts/{name}/metrics",
    summary:
      "A prompt's production figures per version over a span (default the last 7 days), from the hourly rollups: generations, error rate, " +
      "latency p50 and p95, time to first token p50, tokens, cost (USD) and each score's mean (numeric) or share of true (boolean) with its count. " +
      "A model filter applies to the generation figures only: scores carry no model (scoresAllModels says so)",
    action: "prompt.read",
    query: runtimeProductionMetricsQuery,
    responses: { 200: { description: "The figures per version, newest version first", schema: productionMetricsAnswer }, ...productionErrors },
    async handle({ services, caller, res, params, query }) {
      const filters = { ...spanQuery(query), environment: query.environment, model: query.model };
      res.setHeader("Cache-Control", "no-store").json(await runtimeProductionMetrics(services.db, caller, params["name"]!, filters, services.now()));
    },
  }),
  operation({
    id: "listPromptGenerations",
    method: "get",
    path: "/prompts/{name}/generations",
    summary:
      "A prompt's generations over a span (default the last 7 days), newest first, with their scores: a page (format json, up to 200 with limit, " +
      `fewer when their scores' text is large; follow nextCursor until it is null), or every one of the span as CSV or JSON Lines (format csv or jsonl; at most ${PRODUCTION_EXPORT_LIMIT.toLocaleString("en-US")}, streamed)`,
    action: "prompt.read",
    query: runtimeGenerationsQuery,
    responses: {
      200: {
        description: "A page of generations (json), or the export (csv, jsonl)",
        schema: generationPage,
        formats: {
          "text/csv": `One row per generation, with a header row: ${GENERATION_CSV_HEADER.join(", ")}; scores as name=value pairs separated by "; "`,
          "application/x-ndjson": "One generation per line, each as an item of the json page",
        },
      },
      ...productionErrors,
    },
    async handle({ services, caller, res, params, query }) {
      const { format = "json", cursor, limit, ...rest } = query;
      const filters = { ...rest, ...spanQuery(rest) };
      if (format === "json") {
        return void res.setHeader("Cache-Control", "no-store").json(await runtimeGenerations(services.db, caller, params["name"]!, { ...filters, cursor, limit }, services.now()));
      }
      const pages = runtimeGenerationPages(services.db, caller, params["name"]!, filters, PRODUCTION_EXPORT_LIMIT, services.now());
      // The first page is read before anything is sent, so an unknown prompt or a bad span answers as an error.
      let next = await pages.next();
      const csv = format === "csv";
      const file = generationExportFileName(params["name"]!, format);
      res.status(200).set({
        "Content-Type": csv ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8",
        "Content-Disposition": `attachment; filename="${file}"`,
        "Cache-Control": "no-store",
      });
      const write = pacedWriter(res);
      if (csv) res.write(csvText([GENERATION_CSV_HEADER]));
      try {
        for (; !next.done; next = await pages.next()) {
          const items = next.value;
          if (items.length === 0) continue;
          if (!(await write(csv ? csvText(items.map(generationCsvRow)) : generationJsonLines(items)))) return;
        }
      } catch (cause) {
        // The answer has begun: a failure can only cut it short, never turn into an error answer.
        res.destroy(cause as Error);
        return;
      }
      res.end();
    },
  }),
];

export const V1_OPERATIONS: Operation[] = [
  ...PRODUCTION_OPERATIONS,
  operation({
    id: "listPrompts",
    method: "get",
    path: "/prompts",
    summary: "List the team's prompts (not private, not archived), by name, 50 a page",
    // Listing is reading what the key's organization shows it, as /trpc's prompts.list asks.
    action: "organization.read",
    query: runtimeListQuery,
    responses: { 200: { description: "A page of prompts", schema: runtimePromptPage }, 400: error("Invalid filters or cursor"), ...COMMON_ERRORS },
    async handle({ services, caller, res, query }) {
      res.json(await listRuntimePrompts(services.db, caller, query));
    },
  }),
  operation({
    id: "createPrompt",
    method: "post",
    path: "/prompts",
    summary: "Create a prompt and its version 1 in the key's team (the write scope; never private)",
    action: "prompt.write",
    body: runtimeCreatePromptInput,
    responses: {
      201: { description: "Created", schema: runtimeCreatedPrompt },
      400: error("Invalid input: every problem in details"),
      403: error("The key may only read"),
      409: error("A prompt with this name already exists in this team"),
      ...COMMON_ERRORS,
    },
    async handle(call) {
      const created = await createRuntimePrompt(call.services.db, call.caller, call.body, call.services.now(), call.req.ip ?? null);
      changed(call);
      call.res.status(201).json(created);
    },
  }),
  operation({
    id: "getPrompt",
    method: "get",
    path: "/prompts/{name}",
    summary:
      "Fetch one version of a prompt: by label (default production) or by version. A split label serves its candidate to its weight of " +
      "fetches and its version to the rest (the same one for a unit, given as unit or X-Promptly-Unit); the answer's version says which",
    action: "prompt.read",
    query: runtimeGetQuery,
    headers: UNIT_HEADERS,
    resource: ({ query }) => ({ fetch: runtimeSelector(query) }),
    responses: {
      200: { description: "The version", schema: runtimePrompt, headers: { ETag: "Strong validator of the answer" } },
      304: { description: "Not modified: If-None-Match matched the ETag" },
      400: error("Both a label and a version, or an invalid one"),
      403: error("The key may only fetch other labels: the message names them"),
      ...NAME_ERRORS,
      ...COMMON_ERRORS,
    },
    async handle({ services, caller, req, res, params, query }) {
      const { body, etag } = sentAnswer(await serveRuntimePrompt(services, caller, params["name"]!, runtimeSelector(query, req.headers[UNIT_HEADER])));
      res.setHeader("Cache-Control", FETCH_CACHE_CONTROL);
      res.setHeader("ETag", etag);
      if (matchesIfNoneMatch(req.get("if-none-match"), etag)) return void res.status(304).end();
      res.type("application/json").send(body);
    },
  }),
  operation({
    id: "compilePrompt",
    method: "post",
    path: "/prompts/{name}/compile",
    summary: "Fill a version's variables with the shared compile (a split label's version picked as the fetch picks it)",
    action: "prompt.read",
    body: runtimeCompileInput,
    headers: UNIT_HEADERS,
    resource: ({ body }) => ({ fetch: runtimeSelector(body) }),
    responses: {
      200: { description: "The text (text prompt) or messages (chat prompt)", schema: runtimeCompiled },
      400: error("The variables break the contract: every problem in details"),
      403: error("The key may only fetch other labels"),
      ...NAME_ERRORS,
      ...COMMON_ERRORS,
    },
    async handle({ services, caller, req, res, params, body }) {
      const prompt = await serveRuntimePrompt(services, caller, params["name"]!, runtimeSelector(body, req.headers[UNIT_HEADER]));
      const result = compileRuntimePrompt(prompt, body.variables, body.placeholders);
      if (!result.ok) return sendContractProblems(res, result);
      const { ok: _ok, ...compiled } = result;
      res.json(compiled);
    },
  }),
  operation({
    id: "runPrompt",
    method: "post",
    path: "/prompts/{name}/run",
    summary: "Run a version on a model of the organization's connections (the run scope), recorded as the key: JSON, or server-sent events with stream",
    action: "prompt.run",
    body: runtimeRunInput,
    headers: UNIT_HEADERS,
    resource: ({ body }) => ({ fetch: runtimeSelector(body) }),
    responses: {
      200: {
        description: "The output and the recorded run",
        schema: runtimeRunResult,
        events: "With stream: `delta` events ({ text }) as the answer comes, then `done` (the output and the run) or `error` (the 502's body and the run; the 404's body, no run, when the prompt was deleted while it ran)",
      },
      400: error("The variables break the contract (every problem in details), no connection to choose, or a model the connection does not offer"),
      403: error("The key lacks the run scope or may only fetch other labels, or the connection is not open to the key's team"),
      404: error(`${NO_SUCH_PROMPT}; or the prompt (its team, its organization) deleted while it ran, nothing recorded`),
      502: error("The model's provider failed: its status in providerStatus, its message in message"),
      ...COMMON_ERRORS,
    },
    async handle({ services, caller, req, res, params, body }) {
      // The caller gone (a closed connection, not a finished answer) aborts the provider call; the run is recorded as stopped.
      const gone = new AbortController();
      res.on("close", () => {
        if (!res.writableFinished) gone.abort();
      });
      const unit = body.unit ?? runtimeSelector({}, req.headers[UNIT_HEADER]).unit;
      const started = await startRuntimeRun(services, caller, params["name"]!, { ...body, unit }, gone.signal);
      if (!started.ok) return sendContractProblems(res, started);
      const selector = runtimeSelector({ ...body, unit });
      if (!body.stream) {
        let done: Done | undefined;
        try {
          for await (const event of started.events) if (event.type === "done") done = event;
        } catch (error) {
          throw promptGone(error, params["name"]!, selector) ?? error;
        }
        if (!done || gone.signal.aborted) return;
        if (done.run.status === "failed") return void res.status(502).setHeader("Cache-Control", "no-store").json(providerFailure(done));
        return void res.json(runAnswer(done));
      }
      // no-transform: compression must not hold the events back.
      res.status(200).set({ "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store, no-transform", "X-Accel-Buffering": "no" });
      // The provider is called first; the headers go (the caller knows its run has begun) once the call
      // is on its way, not before it (a write is a system call on the path to the first token).
      const events = started.events;
      const first = events.next();
      setImmediate(() => {
        if (!res.headersSent && !res.destroyed) res.flushHeaders();
      });
      const writer = new EventWriter(res);
      // The run's last event (done or error), written with the end of the answer.
      let last: { event: string; data: unknown } | undefined;
      try {
        for (let next = await first; !next.done; next = await events.next()) {
          const event = next.value;
          if (event.type === "delta") writer.send("delta", { text: event.text });
          else if (event.run.status === "failed") last = { event: "error", data: { ...providerFailure(event), run: runAnswer(event).run } };
          else last = { event: "done", data: runAnswer(event) };
        }
      } catch (error) {
        const refusal = promptGone(error, params["name"]!, selector);
        if (!refusal) {
          writer.flush();
          throw error;
        }
        // The headers are sent: the 404's body (as the one error table answers the refusal) is the last event.
        last = { event: "error", data: { error: { code: DOMAIN_ERRORS[refusal.code].code, message: refusal.message } } satisfies RuntimeError };
      } finally {
        // As `for await` would: an exit before the end closes the run (recorded as stopped).
        await events.return(undefined);
      }
      writer.end(last);
    },
  }),
  operation({
    id: "startEvaluation",
    method: "post",
    path: "/prompts/{name}/evaluations",
    summary: "Run every test case of the prompt against the version a label (production by default; a split label's own version, never a pick by weight) or a number selects, on the job queue (the run scope); follow it with getEvaluation",
    action: "prompt.run",
    body: runtimeEvaluationInput,
    resource: ({ body }) => ({ fetch: runtimeSelector(body) }),
    responses: {
      201: { description: "Started (queued): its id, status and figures so far", schema: runtimeEvaluationSummary },
      400: error("Invalid input, no connection to choose, a model missing or not offered"),
      403: error("The key lacks the run scope or may only fetch other labels, or the connection is not open to the key's team"),
      ...NAME_ERRORS,
      412: error("The prompt has no test cases"),
      ...COMMON_ERRORS,
    },
    async handle({ services, caller, res, params, body }) {
      res.status(201).json(await startRuntimeEvaluation(services, caller, params["name"]!, body));
    },
  }),
  operation({
    id: "getEvaluation",
    method: "get",
    path: "/evaluations/{id}",
    summary: "An evaluation's status, progress (total, done, failed, errors and the first error) and per-version passed, failed, errors and pass rate (over the cases judged), p50 latency, tokens and cost",
    action: "prompt.read",
    pathSchemas: { id: idSchema },
    responses: {
      200: { description: "The evaluation", schema: runtimeEvaluationSummary },
      400: error("Invalid id"),
      404: error("No such evaluation for this key (of a prompt it may not read)"),
      ...COMMON_ERRORS,
    },
    async handle({ services, caller, res, params }) {
      res.setHeader("Cache-Control", "no-store").json(await getRuntimeEvaluation(services, caller, params["id"]!));
    },
  }),
  operation({
    id: "getEvaluationItems",
    method: "get",
    path: "/evaluations/{id}/items",
    summary: "Every item of an evaluation (a case against a version), by version then case: its variables, status, output, each assertion's verdict, error and latency",
    action: "prompt.read",
    pathSchemas: { id: idSchema },
    responses: {
      200: { description: "The items", schema: evaluationItemsAnswer },
      400: error("Invalid id"),
      404: error("No such evaluation for this key (of a prompt it may not read)"),
      ...COMMON_ERRORS,
    },
    async handle({ services, caller, res, params }) {
      // Written as it is read, a page at a time (an evaluation's items run to gigabytes of outputs): the text
      // is exactly JSON.stringify of the whole answer, as res.json would send it. The access is decided
      // before anything is written, so a refusal answers as an error.
      try {
        await readRuntimeEvaluationItems(services, caller, params["id"]!, async (pages) => {
          const write = pacedWriter(res);
          res.status(200).set({ "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" });
          let first = true;
          for await (const items of pages) {
            const text = items.map((item) => JSON.stringify(item)).join(",");
            if (!(await write(first ? `{"items":[${text}` : `,${text}`))) return;
            first = false;
          }
          res.end(first ? `{"items":[]}` : "]}");
        });
      } catch (cause) {
        if (!res.headersSent) throw cause;
        // The answer has begun: a failure can only cut it short, never turn into an error answer.
        res.destroy(cause as Error);
      }
    },
  }),
  operation({
    id: "createVersion",
    method: "post",
    path: "/prompts/{name}/versions",
    summary: "Save the next version of a prompt (the write scope)",
    action: "prompt.write",
    body: runtimeCreateVersionInput,
    responses: {
      201: { description: "Created", schema: runtimeCreatedVersion },
      400: error("Invalid input: every problem in details"),
      403: error("The key may only read"),
      ...NAME_ERRORS,
      409: error("The prompt was archived meanwhile"),
      ...COMMON_ERRORS,
    },
    async handle(call) {
      const created = await createRuntimeVersion(call.services.db, call.caller, call.params["name"]!, call.body, call.services.now(), call.req.ip ?? null);
      changed(call);
      call.res.status(201).json(created);
    },
  }),
  operation({
    id: "setLabel",
    method: "put",
    path: "/prompts/{name}/labels/{label}",
    summary: "Point a label at a version (the write scope; never production)",
    action: "prompt.write",
    pathSchemas: { label: promptLabelSchema },
    resource: ({ params }) => ({ label: params["label"] }),
    body: runtimeSetLabelInput,
    responses: {
      200: { description: "The label's new place", schema: runtimeLabelSet },
      400: error("Invalid label or version"),
      403: error("The key may only read, or the label is production"),
      ...NAME_ERRORS,
      409: error("The prompt was archived meanwhile"),
      ...COMMON_ERRORS,
    },
    async handle(call) {
      const { name, label } = call.params;
      const moved = await setRuntimeLabel(call.services.db, call.caller, name!, label!, call.body.version, call.services.now(), call.req.ip ?? null);
      changed(call);
      call.res.json(moved);
    },
  }),
  operation({
    id: "createScore",
    method: "post",
    path: "/scores",
    summary: "Score a production generation (by its id, or its trace and span id) or a run, in the key's team (the ingest scope); repeating your score id changes nothing",
    action: "production.ingest",
    body: runtimeScoreInput,
    responses: {
      201: { description: "Stored; linked says whether it counts for a prompt version (a generation not yet sent is linked when it comes)", schema: runtimeScoreAnswer },
      400: error("Invalid input: every problem in details"),
      403: error("The key lacks the ingest scope"),
      404: error("No such generation or run for this key"),
      ...COMMON_ERRORS,
    },
    async handle({ services, caller, res, body }) {
      res.status(201).json(await createApiScore(services.db, caller, body));
    },
  }),
];

/**
 * The raw path an operation answers, matched by router.ts: a plain path as Express matches it, or, with
 * parameters, a pattern whose groups are the parameters in order (`{name}` may hold '/', sent plain or
 * encoded, so it is matched on the raw path; a trailing '/' is allowed).
 */
export function routePattern(path: string): string | RegExp {
  if (!path.includes("{")) return path;
  const source = path
    .split(/(\{\w+\})/)
    .map((part) => (part === "{name}" ? "(.+?)" : /^\{\w+\}$/.test(part) ? "([^/]+)" : part.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")))
    .join("");
  return new RegExp(`^${source}\\/?$`);
}

/** The names of an operation's path parameters, in order. */
export const pathParameters = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name!);
