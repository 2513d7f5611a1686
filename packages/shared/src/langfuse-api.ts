// The Langfuse-compatible prompts API (/api/public): what the official Langfuse SDKs send, as
// zod schemas, and the texts Promptly answers where Langfuse's own do not fit its rules. The server's
// adapter parses with these and then with the runtime API's own schemas, so a prompt saved through
// the Langfuse SDKs meets every rule of one saved through /api/v1 or the app.
import { z } from "zod";
import { PROMPT_MSG, nearestPromptName, promptLabelsRequestSchema, promptNameSchema } from "./prompts.ts";
import { plainText } from "./validation.ts";

export const LANGFUSE_MSG = {
  missingAuth: "Missing credentials: send HTTP Basic auth with the key's public key as the username and the Promptly API key as the password",
  malformedAuth: "Malformed Authorization header: send HTTP Basic 'publicKey:secretKey' (the secret key is the Promptly API key) or 'Bearer <API key>'",
  keyPairMismatch: "The public key does not belong to this API key: use the public key shown beside it on the team's API keys",
  /** Langfuse's words for a request its schemas refuse; each problem is in `error`. */
  invalidRequest: "Invalid request data",
  chatNeedsMessages: "A chat prompt's prompt is a list of messages ({ role, content })",
  textNeedsString: "A text prompt's prompt is a string",
  /** A fetch or a delete that names a version and a label (Langfuse's words). */
  versionAndLabel: "Cannot specify both version and label",
  /** The same, as Langfuse's MCP read tools word it. */
  mcpVersionAndLabel: "Cannot specify both label and version - they are mutually exclusive",
  /** A prompt not found, as Langfuse's MCP read tools word it: `Prompt 'reply' not found with label 'production'`. */
  mcpPromptNotFound: (name: string, selector: { label?: string; version?: number }) =>
    `Prompt '${name}' not found${selector.label !== undefined ? ` with label '${selector.label}'` : ""}${selector.version !== undefined ? ` with version ${selector.version}` : ""}`,
  /** A path of the API asked with a method it does not take (405). */
  methodNotAllowed: "Method not allowed",
} as const;

/**
 * A prompt's name as the Langfuse API's create and MCP's create tools take it: Promptly's rule, and a
 * name it refuses (capitals, spaces, as Langfuse allows) names the nearest it accepts.
 */
export const langfusePromptNameSchema = z.string().superRefine((name, ctx) => {
  const parsed = promptNameSchema.safeParse(name);
  if (parsed.success) return;
  const nearest = nearestPromptName(name);
  for (const issue of parsed.error.issues) {
    ctx.addIssue({ code: "custom", message: issue.message === PROMPT_MSG.nameInvalid && nearest ? PROMPT_MSG.nameInvalidNearest(nearest) : issue.message });
  }
});

const version = z.coerce.number().int().min(1).max(2 ** 31 - 1);
/** A label or filter as a request names it (no control characters); a label Promptly cannot hold is simply not found. */
const label = plainText().min(1).max(200);

/**
 * GET /api/public/v2/prompts/{name}: a version or a label (production when neither); `resolve` is accepted
 * (includes resolve by default). Both is refused by the route, in Langfuse's words (versionAndLabel).
 */
export const langfuseGetQuery = z.object({ version: version.optional(), label: label.optional(), resolve: z.enum(["true", "false"]).optional() });

/** GET /api/public/v2/prompts: Langfuse's filters and numbered pages (10 a page by default, at most 100). */
export const langfuseListQuery = z.object({
  name: plainText().max(200).optional(),
  label: label.optional(),
  tag: plainText().max(100).optional(),
  version: version.optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(10),
  fromUpdatedAt: z.iso.datetime({ offset: true }).optional(),
  toUpdatedAt: z.iso.datetime({ offset: true }).optional(),
});

/** DELETE /api/public/v2/prompts/{name}: Langfuse's optional version or label (the whole prompt when neither); both as GET. */
export const langfuseDeleteQuery = z.object({ version: version.optional(), label: label.optional() });

/** A chat message as the SDKs send it: `{ role, content }` (v3 and v5 add `type: "chatmessage"`), or a placeholder. */
const langfuseMessage = z.union([
  z.object({ type: z.literal("placeholder"), name: z.string() }),
  z.object({ type: z.literal("chatmessage").optional(), role: z.string(), content: z.string() }),
]);

/** POST /api/public/v2/prompts: a new prompt, or the next version of the one of that name. */
export const langfuseCreateInput = z.object({
  name: z.string(),
  type: z.enum(["text", "chat"]).optional(),
  prompt: z.union([z.string(), z.array(langfuseMessage)]),
  config: z.unknown().optional(),
  labels: promptLabelsRequestSchema(z.string()).optional(),
  tags: z.array(z.string()).optional(),
  commitMessage: z.string().nullish(),
  /** Langfuse's legacy flag: true adds `production` to the labels. */
  isActive: z.boolean().optional(),
});

/** PATCH /api/public/v2/prompts/{name}/versions/{version}. */
export const langfuseUpdateLabelsInput = z.object({ newLabels: promptLabelsRequestSchema(z.string()) });
