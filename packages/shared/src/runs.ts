// Running a prompt version on a model (the playground) and the recorded runs: input schemas, limits and
// texts shared by the procedures, the REST route and the web app.
import { z } from "zod";
import { isPlaceholder } from "./prompt-template.ts";
import { promptMessageSchema } from "./prompts.ts";
import { placeholderValuesSchema } from "./runtime-api.ts";
import { idSchema, multilineText } from "./validation.ts";
import { toolCallSchema } from "./prompt-tools.ts";
import { RUN_STATUSES } from "./options.ts";

/** An answer longer than this many characters (its text and its tool calls' ids, names and arguments together) is cut there, with a notice. */
export const RUN_OUTPUT_MAX_CHARS = 200_000;
/**
 * An answer with more tool calls than this is cut before the next, as a long one is (an empty call counts
 * no character, so a provider could otherwise send millions). Neither OpenAI nor Anthropic documents a limit
 * on one answer's calls; OpenAI takes at most 128 tools in a request, and a model calls a few at once.
 */
export const RUN_ANSWER_TOOL_CALLS_MAX = 128;
/** Runs of one organization at once (per app process) unless PROVIDER_MAX_CONCURRENT_RUNS says otherwise. */
export const DEFAULT_MAX_CONCURRENT_RUNS = 4;
const RUN_STOP_MAX = 4;
/** A draft's template, or all its messages together, or a conversation's turns together: at most this many characters (as a version's). */
const RUN_DRAFT_TEXT_MAX = 100_000;
const RUN_FOLLOW_UP_MAX = 50;
const RUN_TOOL_CALLS_MAX = 20;

export const RUN_MSG = {
  modelRequired: "Choose a model: the version names none",
  modelNotOffered: (model: string) => `This connection does not offer the model '${model}'`,
  connectionNotForTeam: "This provider connection is not available to this prompt's team",
  versionNotFound: "Version not found",
  runNotFound: "Run not found",
  tooManyRuns: (limit: number) =>
    `This organization already has ${limit} run${limit === 1 ? "" : "s"} in progress, the most allowed at once; wait for one to finish or stop one, then try again`,
  outputCut: `The answer was longer than ${RUN_OUTPUT_MAX_CHARS.toLocaleString("en-US")} characters and was cut there`,
  stopped: "Stopped",
  temperatureInvalid: "Temperature is a number from 0 to 2",
  maxTokensInvalid: "Max tokens is a whole number from 1 to 1,000,000",
  topPInvalid: "Top p is a number from 0 to 1",
  stopInvalid: `At most ${RUN_STOP_MAX} stop sequences of 1 to 100 characters`,
  draftTemplateForChat: "This is a chat prompt: run its messages, not a template",
  draftMessagesForText: "This is a text prompt: run its template, not messages",
  draftTooLong: `A draft (or a conversation) has at most ${RUN_DRAFT_TEXT_MAX.toLocaleString("en-US")} characters`,
  followUpTooLong: `A conversation has at most ${RUN_FOLLOW_UP_MAX} turns`,
  draftExpired: "This playground draft has expired. Run it again.",
  draftWithInline: "A run takes its edited prompt either from a staged draft (draftId) or inline (template, messages, followUp), not both",
  /** One placeholder's problem, beside its name. */
  placeholderUnfilled: "is a placeholder: give it a list of messages ([] for none)",
  /** `Fill the placeholder 'history' with a list of messages ([] for none)`. */
  placeholdersUnfilled: (names: readonly string[]) =>
    `Fill the placeholder${names.length === 1 ? "" : "s"} ${names.map((name) => `'${name}'`).join(", ")} with a list of messages ([] for none)`,
} as const;

/** A staged playground draft is kept this long after staging (every run of it in that time may use it). */
export const PLAYGROUND_DRAFT_TTL_MS = 15 * 60_000;

/** Model parameters of a run; each absent one comes from the version's config, else the provider's default. */
export const runParametersSchema = z.object({
  temperature: z.number({ error: RUN_MSG.temperatureInvalid }).min(0, RUN_MSG.temperatureInvalid).max(2, RUN_MSG.temperatureInvalid).optional(),
  maxTokens: z.number({ error: RUN_MSG.maxTokensInvalid }).int(RUN_MSG.maxTokensInvalid).min(1, RUN_MSG.maxTokensInvalid).max(1_000_000, RUN_MSG.maxTokensInvalid).optional(),
  topP: z.number({ error: RUN_MSG.topPInvalid }).min(0, RUN_MSG.topPInvalid).max(1, RUN_MSG.topPInvalid).optional(),
  stop: z.array(z.string().min(1, RUN_MSG.stopInvalid).max(100, RUN_MSG.stopInvalid)).max(RUN_STOP_MAX, RUN_MSG.stopInvalid).optional(),
});
export type RunParameters = z.infer<typeof runParametersSchema>;

/**
 * The playground's edited, unsaved body, run instead of the version's: a text prompt's template or a
 * chat prompt's messages, compiled with the version's contract; and a conversation's next turns after
 * the compiled prompt (its answers and the person's replies), sent as they are. The run is recorded as a draft.
 */
const runDraftFields = {
  template: multilineText().max(RUN_DRAFT_TEXT_MAX, RUN_MSG.draftTooLong).optional(),
  messages: z
    .array(promptMessageSchema)
    .max(200)
    .refine((messages) => messages.reduce((sum, m) => sum + (isPlaceholder(m) ? 0 : m.content.length), 0) <= RUN_DRAFT_TEXT_MAX, RUN_MSG.draftTooLong)
    .optional(),
  followUp: z
    .array(
      z.union([
        // The model's turn that called tools (first: a plain turn's shape would drop its calls), and the
        // author's answer to one of those calls (a tool result).
        z.object({ role: z.literal("assistant"), content: multilineText(), toolCalls: z.array(toolCallSchema).min(1).max(RUN_TOOL_CALLS_MAX) }),
        z.object({ role: z.literal("tool"), toolCallId: z.string().min(1).max(200), content: multilineText() }),
        z.object({ role: z.enum(["assistant", "user"]), content: multilineText() }),
      ]),
    )
    .max(RUN_FOLLOW_UP_MAX, RUN_MSG.followUpTooLong)
    // A tool call's arguments count with the text: they are sent back to the provider as written.
    .refine((turns) => turns.reduce((sum, turn) => sum + turn.content.length + ("toolCalls" in turn ? turn.toolCalls.reduce((n, call) => n + call.arguments.length, 0) : 0), 0) <= RUN_DRAFT_TEXT_MAX, RUN_MSG.draftTooLong)
    .optional(),
};

/** One run of a version: which connection and model (default: the version's model), its variables and parameters. */
export const runPromptInput = z.object({
  promptId: idSchema,
  version: z.number().int().min(1),
  connectionId: idSchema,
  model: z.string().trim().min(1).max(200).optional(),
  variables: z.record(z.string(), z.unknown()).default({}),
  /** Each placeholder's messages by its name ([] for none): a run needs every placeholder filled. */
  placeholders: placeholderValuesSchema.optional(),
  parameters: runParametersSchema.default({}),
  ...runDraftFields,
  /**
   * A draft staged by `playground.stage` (its template or messages and follow-up), run instead of inline
   * ones: a run's input travels in the event stream's URL, which a long draft would not fit.
   */
  draftId: idSchema.optional(),
});
export type RunPromptInput = z.input<typeof runPromptInput>;

/** A playground draft to stage for runs of the prompt (sent in a request's body, where its size is no problem). */
export const stagePlaygroundDraftInput = z.object({ promptId: idSchema, ...runDraftFields });
export type PlaygroundDraftBody = Omit<z.output<typeof stagePlaygroundDraftInput>, "promptId">;

/** One version's runs: how many, how often they failed, how long they took, their mean tokens and cost. */
export const versionRunStats = z.object({
  version: z.number(),
  runs: z.number(),
  /** Failed runs over all runs, 0 to 1 (a stopped run is not an error). */
  errorRate: z.number(),
  p50TotalMs: z.number().nullable(),
  p95TotalMs: z.number().nullable(),
  meanInputTokens: z.number().nullable(),
  meanOutputTokens: z.number().nullable(),
  /** US dollars, over the runs whose cost is known; null when none is. */
  meanCost: z.number().nullable(),
});
export type VersionRunStats = z.infer<typeof versionRunStats>;

export const listRunsInput = z.object({
  promptId: idSchema,
  version: z.number().int().min(1).optional(),
  model: z.string().trim().min(1).max(200).optional(),
  status: z.enum(RUN_STATUSES).optional(),
  cursor: z.string().max(500).optional(),
  limit: z.number().int().min(1).max(100).default(50),
});
