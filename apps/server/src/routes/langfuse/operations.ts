// The one table of the Langfuse-compatible prompts API, under /api/public: each route's
// method, path and action of the permission table. router.ts registers exactly these routes and asks
// the one decision (authorize) for the action before anything is read; each handler is a thin adapter
// over the runtime services of packages/api that /api/v1 and MCP call (they hold the rules: the key's
// team, its labels and scopes, `production` never moved by a key, names as Promptly names them), and
// maps their answers to the shapes the Langfuse SDKs read. These routes are Langfuse's contract, not
// Promptly's: they are deliberately not in /api/v1's table and OpenAPI document (Langfuse documents them).
import { z } from "zod";
import {
  DomainError, authorize, deleteRuntimePrompt, keyProject, pageRuntimePromptVersions, resolveRuntimePrompt, runtimeLabelsToMove, runtimeSelector, saveRuntimePrompt,
  serveRuntimeVersion, setRuntimeLabels, type KeyCaller, type ResolvedPrompt, type Resource,
} from "@promptly/api";
import {
  LANGFUSE_MSG, LATEST_LABEL, PROMPT_MSG, PROTECTED_LABEL, langfuseCreateInput, langfuseDeleteQuery, langfuseGetQuery, langfuseListQuery,
  langfuseUpdateLabelsInput, defaultPromptTitle, langfuseConfigOf, langfusePromptNameSchema, namesOfBothKinds, PLACEHOLDER_MSG, promptLabelSchema, runtimeCreatePromptInput, splitLangfuseConfig,
  type Action, UNIT_HEADER,
} from "@promptly/shared";
import { allow } from "../v1/http.ts";
import { changed, type Call, type Parsed } from "../v1/operations.ts";
import { parseOrInvalid } from "./http.ts";
import { jsonDepthExceeds } from "../../security.ts";
import { createLangfuseScore, ingestLangfuseBatch, ingestOtlpTraces } from "@promptly/api";
import { LANGFUSE_INGESTION_MAX_BYTES, langfuseIngestionInput, langfuseScoreBody } from "@promptly/shared";


export interface LangfuseOperation<Q extends z.ZodType | undefined = z.ZodType | undefined, B extends z.ZodType | undefined = z.ZodType | undefined> {
  method: "get" | "post" | "patch" | "delete";
  /** The path under /api/public: `{name}` is a prompt name (may hold '/', sent encoded), any other `{x}` one segment. */
  path: string;
  /** What the key does, as the permission table names it: the one decision is asked before anything else. */
  action: Action;
  /** What the request itself says of the resource (a fetched label or version), asked of the decision once parsed. */
  resource?(call: { query: Parsed<Q>; body: Parsed<B> }): Resource;
  query?: Q;
  body?: B;
  /** The body is read as bytes (inflated when gzip'd), up to `limit`, and the handler decodes it: OTLP's protobuf, a batch bigger than JSON's 1 MB. */
  rawBody?: { limit: string };
  handle(call: Call<Parsed<Q>, Parsed<B>>): Promise<void>;
}

const operation = <Q extends z.ZodType | undefined = undefined, B extends z.ZodType | undefined = undefined>(entry: LangfuseOperation<Q, B>) =>
  entry as unknown as LangfuseOperation;

/**
 * One version as the Langfuse SDKs read it (their Prompt type: v3's TextPromptClient/ChatPromptClient,
 * v5's generated client, Python's pydantic models). `latest` is listed on the newest version.
 */
function langfusePrompt(resolved: ResolvedPrompt, options: { resolve: boolean }) {
  const { version } = resolved;
  // `resolve=false` (and a create's answer, as Langfuse's): the version as written, with no graph.
  const prompt = options.resolve ? resolved.prompt : (resolved.unresolved ?? resolved.prompt);
  return {
    id: version.id,
    name: prompt.name,
    version: prompt.version,
    type: prompt.type,
    // A placeholder is answered as Langfuse answers it: `{ type: "placeholder", name }`.
    prompt: prompt.type === "text" ? (prompt.template ?? "") : (prompt.messages ?? []).map((m) => ("type" in m ? { type: m.type, name: m.name } : { role: m.role, content: m.content })),
    config: langfuseConfigOf(prompt.config, prompt.tools ?? [], prompt.responseFormat ?? null),
    labels: prompt.version === version.latestVersion ? [...prompt.labels, LATEST_LABEL] : prompt.labels,
    tags: prompt.tags,
    commitMessage: version.commitMessage || null,
    resolutionGraph: (options.resolve && prompt.resolutionGraph) || null,
    projectId: resolved.teamId,
    createdBy: version.authorId ?? "API",
    createdAt: version.createdAt,
    updatedAt: prompt.updatedAt,
  };
}

/** The labels a write names, once each, checked by Promptly's label rule ('latest' is never set). */
function checkedLabels(labels: readonly string[]): string[] {
  const unique = [...new Set(labels)];
  for (const label of unique) {
    const parsed = promptLabelSchema.safeParse(label);
    if (!parsed.success) throw new DomainError("INVALID", `'${label}': ${parsed.error.issues[0]?.message ?? PROMPT_MSG.labelInvalid}`);
  }
  return unique;
}

/** The labels a new version is created with, each checked: checkedLabels, then the decision (never `production`). */
function labelsToSet(caller: KeyCaller, labels: readonly string[]): string[] {
  const unique = checkedLabels(labels);
  for (const label of unique) allow(authorize(caller, "prompt.write", { label }));
  return unique;
}

/**
 * The version's config, tools and response format from Langfuse's `config`: OpenAI's `tools` and
 * `response_format` (or Anthropic's tools) become the version's own, the rest stays its config.
 */
function versionConfig(config: unknown) {
  if (config === null || config === undefined) return {};
  if (typeof config !== "object" || Array.isArray(config)) return { config };
  const split = splitLangfuseConfig(config as Record<string, unknown>);
  if ("problem" in split) throw new DomainError("INVALID", split.problem, undefined, [{ path: split.path, message: split.problem }]);
  return split;
}

/** A version's body from Langfuse's `prompt`: the text, or the messages (placeholders among them, as written). */
function versionBody(
  input: z.output<typeof langfuseCreateInput>,
): { type: "text"; template: string } | { type: "chat"; messages: ({ role: string; content: string } | { type: "placeholder"; name: string })[] } {
  const type = input.type ?? "text";
  if (type === "text") {
    if (typeof input.prompt !== "string") throw new DomainError("INVALID", LANGFUSE_MSG.textNeedsString);
    return { type, template: input.prompt };
  }
  if (typeof input.prompt === "string") throw new DomainError("INVALID", LANGFUSE_MSG.chatNeedsMessages);
  const messages = input.prompt.map((message) =>
    message.type === "placeholder" ? { type: message.type, name: message.name } : { role: message.role, content: message.content },
  );
  // Langfuse's own refusal, before the schemas' (a role it does not know would be named first there).
  const both = namesOfBothKinds({
    type: "chat",
    messages: messages.map((m) => (m.type === "placeholder" ? { type: m.type, name: m.name } : { role: "user" as const, content: m.content })),
  });
  if (both.length) throw new DomainError("INVALID", PLACEHOLDER_MSG.notUnique(both));
  return { type, messages };
}

/** The version or the label a fetch or a delete names: both is Langfuse's 400. */
function versionOrLabel<Q extends { version?: number; label?: string }>(query: Q): Q {
  if (query.version !== undefined && query.label !== undefined) throw new DomainError("INVALID", LANGFUSE_MSG.versionAndLabel);
  return query;
}

/** Every route of /api/public, in the order they are matched. */
export const LANGFUSE_OPERATIONS: LangfuseOperation[] = [
  operation({
    // The Python SDK's auth check: the key's team, as the one project it sees.
    method: "get",
    path: "/projects",
    action: "organization.read",
    async handle({ services, caller, res }) {
      const team = await keyProject(services.db, caller);
      res.json({ data: [{ id: team.id, name: team.name, organization: { id: team.organization.id, name: team.organization.name }, metadata: {} }] });
    },
  }),
  operation({
    method: "get",
    path: "/v2/prompts",
    // Listing is reading what the key's organization shows it, as /api/v1's listPrompts asks.
    action: "organization.read",
    query: langfuseListQuery,
    async handle({ services, caller, res, query }) {
      const { fromUpdatedAt, toUpdatedAt, ...filters } = query;
      const { data, totalItems } = await pageRuntimePromptVersions(services.db, caller, {
        ...filters,
        fromUpdatedAt: fromUpdatedAt ? new Date(fromUpdatedAt) : undefined,
        toUpdatedAt: toUpdatedAt ? new Date(toUpdatedAt) : undefined,
      });
      const meta = { page: query.page, limit: query.limit, totalItems, totalPages: Math.ceil(totalItems / query.limit) };
      // `pagination`: the legacy name of `meta`, which older SDKs read.
      res.json({ data, meta, pagination: meta });
    },
  }),
  operation({
    method: "post",
    path: "/v2/prompts",
    action: "prompt.write",
    body: langfuseCreateInput,
    async handle(call) {
      const { services, caller, req, body } = call;
      const now = services.now();
      const ip = req.ip ?? null;
      // Everything is checked before the first write: the labels (a key never moves production), the body, then the prompt.
      // `latest` asked of the new version is where it goes anyway: taken as said, not set.
      const asked = [...(body.labels ?? []), ...(body.isActive ? [PROTECTED_LABEL] : [])].filter((label) => label !== LATEST_LABEL);
      const labels = labelsToSet(caller, asked);
      // The answer is the new version, fetched by its number: a key bound to labels is refused it before anything is saved.
      allow(authorize(caller, "prompt.read", { fetch: { version: 1 } }));
      // The name alone first: the title is made from it, so its problems would only repeat the name's. A
      // Langfuse name Promptly refuses (capitals, spaces) is told the nearest name it accepts.
      parseOrInvalid(z.object({ name: langfusePromptNameSchema }), { name: body.name });
      const version = { ...versionBody(body), ...versionConfig(body.config), commitMessage: body.commitMessage ?? undefined };
      const fresh = parseOrInvalid(runtimeCreatePromptInput, { name: body.name, title: defaultPromptTitle(body.name), visibility: "team", tags: body.tags, ...version });
      const saved = await saveRuntimePrompt(services.db, caller, fresh, now, ip, labels);
      // The version and its labels were written in one transaction.
      changed(call);
      call.res.status(201).json(langfusePrompt(await resolveRuntimePrompt(services, caller, saved.name, { version: saved.version }), { resolve: false }));
    },
  }),
  operation({
    method: "get",
    path: "/v2/prompts/{name}",
    action: "prompt.read",
    query: langfuseGetQuery,
    resource: ({ query }) => ({ fetch: runtimeSelector(versionOrLabel(query)) }),
    async handle({ services, caller, req, res, params, query }) {
      // Includes resolve unless `resolve=false`, which answers the version as written (Langfuse's `resolutionGraph: null` then).
      // A split label's unit comes in the X-Promptly-Unit header: the SDKs send no query of Promptly's own.
      const selector = runtimeSelector(versionOrLabel(query), req.headers[UNIT_HEADER]);
      res.json(langfusePrompt(await serveRuntimeVersion(services, caller, params["name"]!, selector), { resolve: query.resolve !== "false" }));
    },
  }),
  operation({
    method: "delete",
    path: "/v2/prompts/{name}",
    // A key with the `delete` scope: the whole prompt, or with `version` that version, with `label` the
    // version it points to. A label is asked of the decision before anything is read (never `production`).
    action: "prompt.delete",
    query: langfuseDeleteQuery,
    resource: ({ query }) => ({ label: versionOrLabel(query).label }),
    async handle(call) {
      const { services, caller, req, params, query } = call;
      const which = query.version !== undefined ? { version: query.version } : query.label !== undefined ? { label: query.label } : {};
      await deleteRuntimePrompt(services.db, caller, params["name"]!, which, services.now(), req.ip ?? null);
      changed(call);
      call.res.status(204).end();
    },
  }),
  operation({
    method: "patch",
    path: "/v2/prompts/{name}/versions/{version}",
    action: "prompt.write",
    body: langfuseUpdateLabelsInput,
    async handle(call) {
      const { services, caller, req, params, body } = call;
      const { version } = parseOrInvalid(z.object({ version: z.coerce.number().int().min(1).max(2 ** 31 - 1) }), { version: params["version"] });
      const name = params["name"]!;
      // A label already on the version (on it, or through a split as its base or its candidate), as the
      // version's fetch names it, is there already: sent back as read, it moves nothing and ends no split
      // (as MCP's updatePromptLabels); decided again under the prompt's lock as the others move.
      const { move, keep } = await runtimeLabelsToMove(services.db, caller, name, version, checkedLabels(body.newLabels));
      // The answer is the version: a key that may not fetch it is refused before anything moves.
      allow(authorize(caller, "prompt.read", { fetch: { version } }));
      const moved = await setRuntimeLabels(services.db, caller, name, move, version, services.now(), req.ip ?? null, keep);
      if (moved.length) changed(call);
      call.res.json(langfusePrompt(await resolveRuntimePrompt(services, caller, name, { version }), { resolve: false }));
    },
  }),
  // Production signals (the `ingest` scope): OpenTelemetry traces, the v3 SDKs' batch ingestion and scores.
  operation({
    // OTLP/HTTP (@langfuse/otel, any OpenTelemetry exporter): JSON or protobuf, gzip'd or not. Answered once appended (durable), merged right after.
    method: "post",
    path: "/otel/v1/traces",
    action: "production.ingest",
    rawBody: { limit: LANGFUSE_INGESTION_MAX_BYTES },
    async handle({ services, caller, req, res }) {
      // JSON is held to the depth every other JSON body is, as it is read (protobuf has no nesting to abuse).
      const { encoding } = await ingestOtlpTraces(services.db, caller, bodyBytes(req.body), req.get("content-type") ?? "", services.now());
      // OTLP's success: an empty ExportTraceServiceResponse, in the request's encoding.
      if (encoding === "protobuf") res.status(200).type("application/x-protobuf").end(Buffer.alloc(0));
      else res.status(200).json({});
    },
  }),
  operation({
    // The v3 SDKs' batch: 207 with each event's envelope id, as Langfuse answers (the SDK reads `errors`).
    method: "post",
    path: "/ingestion",
    action: "production.ingest",
    rawBody: { limit: LANGFUSE_INGESTION_MAX_BYTES },
    async handle({ services, caller, req, res }) {
      const input = parseOrInvalid(langfuseIngestionInput, jsonOf(bodyBytes(req.body)));
      res.status(207).json(await ingestLangfuseBatch(services.db, caller, input, services.now()));
    },
  }),
  operation({
    method: "post",
    path: "/scores",
    action: "production.ingest",
    body: langfuseScoreBody,
    async handle({ services, caller, res, body }) {
      res.json(await createLangfuseScore(services.db, caller, body));
    },
  }),
];

const bodyBytes = (body: unknown) => (Buffer.isBuffer(body) ? body : Buffer.alloc(0));

/** A raw body read as JSON with the same depth bound as every JSON body; refused as Langfuse refuses bad JSON. */
function jsonOf(bytes: Buffer): unknown {
  if (jsonDepthExceeds(bytes)) throw new DomainError("INVALID", "The request body is nested too deeply");
  try {
    return JSON.parse(bytes.toString("utf8"));
  } catch {
    throw new DomainError("INVALID", "The request body is not valid JSON");
  }
}
