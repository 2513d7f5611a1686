// The runtime REST API for tools: its inputs, answers and texts as zod schemas.
// The server validates with them, the OpenAPI document is generated from them, and the typed client
// takes its types from them: one contract, written once.
import { z } from "zod";
import { CHAT_ROLES, VARIABLE_TYPES } from "./prompt-template.ts";
import { LATEST_LABEL, PROMPT_MSG, PROMPT_TYPES, PROTECTED_LABEL, promptLabelSchema } from "./prompts.ts";
import { promptToolSchema, responseFormatSchema, toolCallSchema } from "./prompt-tools.ts";
import { RUN_STATUSES } from "./options.ts";
import { idSchema, plainText } from "./validation.ts";

/** What a fetch means without a label or a version. */
export const RUNTIME_DEFAULT_LABEL = PROTECTED_LABEL;

export const RUNTIME_MSG = {
  missingKey: "Missing API key: send it as 'Authorization: Bearer <key>'",
  malformedHeader: "Malformed Authorization header: send 'Authorization: Bearer <key>'",
  malformedKey: "Malformed API key: a Promptly key is 'promptly_' and 43 letters and digits",
  unknownKey: "Unknown API key",
  readOnlyKey: "This API key may only read: creating prompts and versions and moving labels need the 'write' scope",
  runScopeNeeded: "Running prompts on models needs an API key with the 'run' scope",
  protectedLabel: `An API key never moves the '${PROTECTED_LABEL}' label: a team admin moves it in the app`,
  privateByKey: "An API key cannot create a private prompt: a private prompt belongs to a person",
  deleteScopeNeeded: "Deleting prompts needs an API key with the 'delete' scope",
  ingestScopeNeeded: "Sending generations and scores needs an API key with the 'ingest' scope",
  deleteProduction: `An API key never deletes the version the '${PROTECTED_LABEL}' label points to: a team admin moves the label first, or deletes the prompt in the app`,
  rateLimited: "Too many requests with this API key: retry after the time in Retry-After",
  tooManyFailedKeys: "Too many unknown API keys from this address: retry after the time in Retry-After",
  notFound: "Not found",
  /** `Prompt not found: 'support/reply' with label 'production'`. */
  promptNotFound: (name: string, selector?: RuntimeSelector) =>
    `Prompt not found: '${name}'` +
    (selector ? ` with ${selector.version !== undefined ? `version ${selector.version}` : `label '${selector.label}'`}` : ""),
  /** `This API key may only fetch the labels: production, staging`. */
  labelsOnly: (labels: readonly string[]) => `This API key may only fetch the labels: ${labels.join(", ")}`,
  compileFailed: "The variables do not meet the prompt's contract: ",
  /** A prompt keeps its type: `'reply' is a text prompt: its new versions must be text too`. */
  typeFixed: (name: string, type: string) => `'${name}' is a ${type} prompt: its new versions must be ${type} too`,
  noConnection: "No model connection of this organization is open to this team: an organization admin adds one",
  /** No connection named and none to pick: no default, and not exactly one that passed its test. */
  chooseConnection: (count: number) =>
    `This team may use ${count} model connection${count === 1 ? "" : "s"}, none of them a default or the only one that passed its test: name one with connectionId, or set a default or test one under Model Providers`,
} as const;

/**
 * Which version a request means: exactly one of them once resolved (the default label filled in). A
 * split label serves one of its two versions by weight; `unit` (a caller's stable id: a user, a
 * session) makes that pick the same for every fetch of the unit.
 */
export type RuntimeSelector = { label: string; version?: undefined; unit?: string } | { version: number; label?: undefined; unit?: string };

/** The header that names a fetch's unit, for every runtime path (the query's or argument's `unit` wins). */
export const UNIT_HEADER = "x-promptly-unit";

const selectorLabel = z.union([promptLabelSchema, z.literal(LATEST_LABEL)]);

/** A split label's unit: any short text that stays the same for one user, session or tenant. */
export const runtimeUnitSchema = z
  .string()
  .min(1)
  .max(200)
  .describe(
    "A stable id (a user, a session): a split label serves the same one of its versions for it on every fetch. Taken as sent, " +
      "spaces at either end too (the X-Promptly-Unit header loses those: send such a unit here)",
  );

/** The query of GET /api/v1/prompts/{name}: a label or a version, not both. */
export const runtimeGetQuery = z
  .object({
    label: selectorLabel.optional(),
    version: z.coerce.number().int().min(1).max(2 ** 31 - 1).optional(),
    unit: runtimeUnitSchema.optional(),
  })
  .refine((query) => query.label === undefined || query.version === undefined, PROMPT_MSG.versionOrLabel);

/** What fills a chat prompt's placeholders: each name's list of messages (`[]` for none), put in as given. */
export const placeholderValuesSchema = z
  .record(z.string(), z.array(z.object({ role: z.enum(CHAT_ROLES), content: z.string().max(100_000) })).max(500))
  .describe("Each placeholder's messages by its name ([] for none); their text is not compiled");

export const runtimeCompileInput = z
  .object({
    label: selectorLabel.optional(),
    version: z.number().int().min(1).max(2 ** 31 - 1).optional(),
    unit: runtimeUnitSchema.optional(),
    variables: z.record(z.string(), z.unknown()).default({}),
    placeholders: placeholderValuesSchema.default({}),
  })
  .refine((input) => input.label === undefined || input.version === undefined, PROMPT_MSG.versionOrLabel);

/** POST /api/v1/prompts/{name}/run: a version as compile selects it, run on a connection (the team's only one when absent). */
export const runtimeRunInput = z
  .object({
    label: selectorLabel.optional(),
    version: z.number().int().min(1).max(2 ** 31 - 1).optional(),
    unit: runtimeUnitSchema.optional(),
    variables: z.record(z.string(), z.unknown()).default({}),
    placeholders: placeholderValuesSchema.default({}).describe("Each placeholder's messages by its name ([] for none): a run needs every placeholder filled"),
    model: z.string().trim().min(1).max(200).optional().describe("Absent: the version's model"),
    connectionId: idSchema.optional().describe("Absent: the one connection of the organization open to the key's team"),
    stream: z.boolean().default(false).describe("true: answer text/event-stream, `delta` events then one `done` (or `error`) event"),
  })
  .refine((input) => input.label === undefined || input.version === undefined, PROMPT_MSG.versionOrLabel);

/** POST /prompts/{name}/evaluations: every test case against the version a label (production by default) or a number selects. */
export const runtimeEvaluationInput = z
  .object({
    label: selectorLabel.optional(),
    version: z.number().int().min(1).max(2 ** 31 - 1).optional(),
    model: z.string().trim().min(1).max(200).optional().describe("Absent: the version's model"),
    connectionId: idSchema.optional().describe("Absent: the first connection by name open to the key's team that offers the model"),
  })
  .refine((input) => input.label === undefined || input.version === undefined, PROMPT_MSG.versionOrLabel);

export const runtimeListQuery = z.object({
  folder: z.string().max(128).regex(/^[a-z0-9._-]+(\/[a-z0-9._-]+)*$/, PROMPT_MSG.nameInvalid).optional(),
  tag: plainText().trim().toLowerCase().max(32).optional(),
  q: plainText().trim().max(200).optional(),
  cursor: z.string().max(500).optional(),
});

export const runtimeSetLabelInput = z.object({ version: z.number().int().min(1).max(2 ** 31 - 1) });

// ---- answers ----

/** A stored variable contract entry and a chat message, as answers carry them (the API's and the app's). */
export const variableAnswer = z.object({
  name: z.string(),
  type: z.enum(VARIABLE_TYPES),
  required: z.boolean().optional().describe("Absent means true: compile refuses a missing value without a default"),
  default: z.unknown().optional(),
  description: z.string().optional(),
  options: z.array(z.string()).optional(),
});
export const messageAnswer = z.union([
  z.object({ role: z.enum(CHAT_ROLES), content: z.string() }),
  z.object({ type: z.literal("placeholder"), name: z.string() }).describe("Where a list of messages goes when the prompt is used; compile leaves one it is not given in place"),
]);

const graphNode = z.object({ name: z.string(), version: z.number().int(), id: z.string() });

/** What a version's includes resolved to, as Langfuse answers it: the root version, and each version's includes by its id. */
export const resolutionGraph = z.object({ root: graphNode, dependencies: z.record(z.string(), z.array(graphNode)) });

/** One version of a prompt as a tool receives it: `template` for a text prompt, `messages` for a chat prompt. */
export const runtimePrompt = z.object({
  name: z.string(),
  title: z.string(),
  version: z.number().int(),
  type: z.enum(PROMPT_TYPES),
  template: z.string().optional(),
  messages: z.array(messageAnswer).optional(),
  /** The contract in force (effectiveContract): what compile checks the values against. */
  variables: z
    .array(variableAnswer)
    .describe(
      "The contract compile checks: every variable the template uses, as its author described it or else as a required string, then any described variable the template does not use (compile still asks for it when required)",
    ),
  placeholders: z.array(z.string()).default([]).describe("The names of the chat prompt's placeholders, in order: each takes a list of messages, apart from the variables"),
  model: z.string(),
  config: z.record(z.string(), z.unknown()),
  tools: z
    .array(promptToolSchema)
    .optional()
    .describe("The tools the model may call: name, description and the JSON Schema of their arguments (never compiled)"),
  responseFormat: responseFormatSchema
    .nullable()
    .optional()
    .describe("The shape of the answer: text, any JSON object, or a named JSON Schema (strict or not); null leaves it to the model"),
  /** The labels on this version. */
  labels: z.array(z.string()),
  tags: z.array(z.string()),
  updatedAt: z.iso.datetime(),
  resolutionGraph: resolutionGraph
    .nullable()
    .optional()
    .describe("Its includes (@@@langfusePrompt:name=NAME|label=LABEL@@@ or |version=N), resolved in template and messages: what was included; null when nothing is"),
});
export type RuntimePrompt = z.infer<typeof runtimePrompt>;

export const runtimeCompiled = z.object({
  version: z.number().int(),
  text: z.string().optional(),
  messages: z.array(messageAnswer).optional(),
});

export const runtimePromptPage = z.object({
  items: z.array(
    z.object({
      name: z.string(),
      title: z.string(),
      labels: z.array(z.object({ name: z.string(), version: z.number().int() })),
      latestVersion: z.number().int(),
      tags: z.array(z.string()),
      updatedAt: z.iso.datetime(),
    }),
  ),
  nextCursor: z.string().nullable(),
});

/** A recorded run, as a tool sees it: US dollars for cost (null: unknown price), milliseconds for times. */
const runtimeRunRecord = z.object({
  id: z.string(),
  version: z.number().int(),
  model: z.string(),
  inputTokens: z.number().int().nullable(),
  outputTokens: z.number().int().nullable(),
  ttftMs: z.number().int().nullable(),
  totalMs: z.number().int(),
  cost: z.number().nullable(),
  status: z.enum(RUN_STATUSES),
  /** The tools the model called instead of answering (name and arguments as it wrote them); optional: an older server sends none. */
  toolCalls: z.array(toolCallSchema).optional(),
  /** Whether a whole answer matched the version's response format (null: no format to match, or no answer). */
  schemaMatched: z.boolean().nullable().optional(),
  /** Why it did not match. */
  schemaProblem: z.string().nullable().optional(),
});
export const runtimeRunResult = z.object({ output: z.string(), run: runtimeRunRecord });
export type RuntimeRunResult = z.infer<typeof runtimeRunResult>;

export const runtimeCreatedPrompt = z.object({ name: z.string(), version: z.number().int() });
export const runtimeCreatedVersion = z.object({ name: z.string(), version: z.number().int() });
export const runtimeLabelSet = z.object({ name: z.string(), label: z.string(), version: z.number().int() });

const RUNTIME_ERROR_CODES = [
  "BAD_REQUEST", "UNAUTHORIZED", "FORBIDDEN", "NOT_FOUND", "CONFLICT", "PRECONDITION_FAILED", "PAYLOAD_TOO_LARGE", "TOO_MANY_REQUESTS",
  "INTERNAL_SERVER_ERROR", "BAD_GATEWAY", "SERVICE_UNAVAILABLE",
] as const;

/**
 * Every error answer: `reason` is a machine-readable cause where one exists (e.g. "REVIEW_REQUIRED"),
 * the same the tRPC API gives; `details` lists every problem of a 400 (each input issue, each variable).
 */
export const runtimeError = z.object({
  error: z.object({
    code: z.enum(RUNTIME_ERROR_CODES),
    message: z.string(),
    reason: z.string().optional(),
    details: z.array(z.object({ path: z.string().optional(), variable: z.string().optional(), message: z.string() })).optional(),
    /** A 502 from a run: the status the model's provider answered (null: it did not answer). */
    providerStatus: z.number().int().nullable().optional(),
    /** A 502 from a run: the provider's or the network's own words behind `message` (null: none). */
    detail: z.string().nullable().optional(),
  }),
});
export type RuntimeError = z.infer<typeof runtimeError>;

/**
 * The HTTP status of each error code, the one tRPC answers for it: the server's one error table
 * (packages/api/src/error-table.ts, which every transport reads), here so the typed client gives an
 * error that came without a status (a streamed run's `error` event, after the 200) the same one.
 */
export const ERROR_STATUS: Record<RuntimeError["error"]["code"], number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  TOO_MANY_REQUESTS: 429,
  INTERNAL_SERVER_ERROR: 500,
  BAD_GATEWAY: 502,
  SERVICE_UNAVAILABLE: 503,
};
