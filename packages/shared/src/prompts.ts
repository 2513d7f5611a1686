// The prompt library: names, limits, texts and input schemas shared by the procedures,
// the editor and the lists. Templates, compile and lint live in prompt-template.ts.
import { z } from "zod";
import { CHAT_ROLES, VARIABLE_NAME, VARIABLE_TYPES, isPlaceholder, lint, type PromptVersionBody } from "./prompt-template.ts";
import { idSchema, multilineText, plainText } from "./validation.ts";
import { PROMPT_SORTS, PROMPT_VISIBILITIES, type PromptSort, type PromptVisibility } from "./options.ts";
import { promptToolsSchema, responseFormatSchema } from "./prompt-tools.ts";

export const PROMPT_TYPES = ["text", "chat"] as const;
export type PromptType = (typeof PROMPT_TYPES)[number];

const PROMPT_NAME_MAX = 128;
const PROMPT_TITLE_MAX = 120;
/** The title of a prompt made by a tool that gives none (Langfuse has no titles): its name, as long as a title may be. */
export const defaultPromptTitle = (name: string) => name.slice(0, PROMPT_TITLE_MAX);
const PROMPT_DESCRIPTION_MAX = 1000;
/** Tags one prompt carries at most. */
export const PROMPT_TAGS_MAX = 10;
const PROMPT_TAG_MAX = 32;
const PROMPT_MODEL_MAX = 100;
const PROMPT_CONFIG_MAX_BYTES = 16 * 1024;
const PROMPT_COMMIT_MESSAGE_MAX = 500;
const PROMPT_TEXT_MAX = 100_000;
const PROMPT_VARIABLES_MAX = 100;
const PROMPT_LIST_LIMIT_MAX = 100;
const PROMPT_LABEL_MAX = 36;
/** Labels one request may point at a version at most: a create's `labels`, an update's `newLabels` (Langfuse API, MCP). */
export const PROMPT_LABELS_PER_REQUEST_MAX = 50;
/** Distinct labels one prompt carries at most (`latest` is never stored, so never counted). */
export const PROMPT_LABELS_MAX = 100;
/** Only team admin level moves or removes it. */
export const PROTECTED_LABEL = "production";
/** Always the highest version; never stored. */
export const LATEST_LABEL = "latest";

export const PROMPT_VISIBILITY_LABELS: Record<PromptVisibility, string> = {
  private: "Private",
  team: "Team",
  organization: "Organization",
};
export const PROMPT_SORT_LABELS: Record<PromptSort, string> = {
  updated: "Recently updated",
  name: "Name",
  rating: "Rating",
  bookmarks: "Most bookmarked",
};

const NAME_RULE = "A name uses lowercase letters, digits, '-', '_' and '.', with '/' between folders (no leading, trailing or doubled '/')";

export const PROMPT_MSG = {
  nameRequired: "Name is required",
  nameTooLong: `A name has at most ${PROMPT_NAME_MAX} characters`,
  nameInvalid: NAME_RULE,
  nameDotSegment: "A name or folder cannot be '.' or '..'",
  /** A name the rule refuses, with the nearest name it accepts (nearestPromptName). */
  nameInvalidNearest: (nearest: string) => `${NAME_RULE}: the nearest name Promptly accepts is '${nearest}'`,
  nameTaken: "A prompt with this name already exists in this team",
  titleRequired: "Title is required",
  titleTooLong: `Title cannot exceed ${PROMPT_TITLE_MAX} characters`,
  descriptionTooLong: `Description cannot exceed ${PROMPT_DESCRIPTION_MAX} characters`,
  tooManyTags: `A prompt has at most ${PROMPT_TAGS_MAX} tags`,
  tagInvalid: `A tag uses 1-${PROMPT_TAG_MAX} lowercase letters, digits and '-'`,
  modelTooLong: `Model cannot exceed ${PROMPT_MODEL_MAX} characters`,
  configNotObject: "Config must be a JSON object of model parameters",
  configTooLarge: "Config cannot exceed 16 kB",
  commitMessageTooLong: `Commit message cannot exceed ${PROMPT_COMMIT_MESSAGE_MAX} characters`,
  textTooLong: "A template (or all messages together) has at most 100,000 characters",
  templateRequired: "A text prompt needs a template (and no messages)",
  messagesRequired: "A chat prompt needs messages (and no template)",
  tooManyVariables: `A prompt describes at most ${PROMPT_VARIABLES_MAX} variables`,
  variableNameInvalid: "A variable name uses letters, digits and _, not starting with a digit",
  placeholderNameInvalid: "A placeholder name uses letters, digits and _, not starting with a digit",
  labelInvalid: `A label uses 1-${PROMPT_LABEL_MAX} lowercase letters, digits, '_', '-' and '.'`,
  labelLatest: "'latest' always means the highest version: it cannot be set or removed",
  labelNotFound: "Label not found",
  tooManyLabelsAtOnce: `A request sets at most ${PROMPT_LABELS_PER_REQUEST_MAX} labels`,
  tooManyLabels: `A prompt has at most ${PROMPT_LABELS_MAX} labels: remove one before adding another`,
  splitWeightRange: "A split's weight is a whole percent from 1 to 99",
  splitSameVersion: "The candidate must be another version than the one the label points at",
  notSplit: "This label is not split: there is nothing to promote or roll back",
  splitChanged: "This label's split changed since it was shown: nothing was promoted or rolled back, look at it again",
  versionNotFound: "Version not found",
  versionOrLabel: "Choose a version or a label, not both",
  lintFailed: "The prompt has errors: ",
  ownPromptRating: "You cannot rate your own prompt",
  protectedLabel: "Only a team admin can move or remove the 'production' label",
  privateAuthorOnly: "Only its author can make a prompt private",
  shareProduction: "Only a team admin can share a private prompt that carries the 'production' label",
  removeProduction: "Only a team admin can archive or delete a prompt that carries the 'production' label",
  starsRange: "Stars are a whole number from 1 to 5",
  archived: "This prompt is archived: restore it before changing it",
  notArchived: "Only an archived prompt can be deleted: archive it first",
  alreadyArchived: "This prompt is already archived",
  invalidCursor: "The list has changed or the cursor is invalid: start from the first page",
  // The web app's own texts.
  nameAvailable: "Name is available",
  createdToast: "Prompt created",
  versionSavedToast: "Version saved",
  labelSetToast: "Label set",
  labelRemovedToast: "Label removed",
  detailsSavedToast: "Details saved",
  renamedToast: "Prompt renamed",
  archivedToast: "Prompt archived",
  restoredToast: "Prompt restored",
  deletedToast: "Prompt deleted",
  copiedToast: "Copied to clipboard",
  unsavedChanges: "You have unsaved changes. Leave this page and lose them?",
  noPrompts: "No prompts yet. Create the first one with 'New Prompt'.",
  noMatches: "No prompts match these filters. Clear a filter or search for something else.",
  noBookmarks: "You have no bookmarks yet. Open a prompt and choose 'Add to bookmarks'.",
  popularEmpty: "Popular prompts will appear here.",
  bookmarkedEmpty: "Your bookmarked prompts will appear here.",
  recentEmpty: "Recently updated prompts will appear here.",
} as const;

/** `a/b/c` and similar: lowercase letters, digits, -, _, . with / between folders. */
const PROMPT_NAME = /^[a-z0-9._-]+(\/[a-z0-9._-]+)*$/;
const TAG = /^[a-z0-9-]{1,32}$/;
const LABEL = /^[a-z0-9_.-]{1,36}$/;
/** No part of a name is '.' or '..': a name is also a path (in the zip export, in URLs), and these would move out of it. */
export const withoutDotSegments = (path: string) => path.split("/").every((segment) => segment !== "." && segment !== "..");

export const promptNameSchema = z
  .string({ error: PROMPT_MSG.nameRequired })
  .min(1, PROMPT_MSG.nameRequired)
  .max(PROMPT_NAME_MAX, PROMPT_MSG.nameTooLong)
  .regex(PROMPT_NAME, PROMPT_MSG.nameInvalid)
  .refine(withoutDotSegments, PROMPT_MSG.nameDotSegment);

export const promptTitleSchema = plainText()
  .trim()
  .min(1, PROMPT_MSG.titleRequired)
  .max(PROMPT_TITLE_MAX, PROMPT_MSG.titleTooLong);

export const promptDescriptionSchema = multilineText().trim().max(PROMPT_DESCRIPTION_MAX, PROMPT_MSG.descriptionTooLong);

/** Stored lowercase, without repeats. */
export const promptTagsSchema = z
  .array(plainText().trim().toLowerCase().regex(TAG, PROMPT_MSG.tagInvalid))
  .transform((tags) => [...new Set(tags)])
  .refine((tags) => tags.length <= PROMPT_TAGS_MAX, PROMPT_MSG.tooManyTags);

const promptVisibilitySchema = z.enum(PROMPT_VISIBILITIES);

export const promptLabelSchema = z
  .string()
  .regex(LABEL, PROMPT_MSG.labelInvalid)
  .refine((label) => label !== LATEST_LABEL, PROMPT_MSG.labelLatest);

/** The labels one request points at a version (each checked by the door, or by promptLabelSchema): at most PROMPT_LABELS_PER_REQUEST_MAX. */
export const promptLabelsRequestSchema = <T extends z.ZodType>(label: T) =>
  z.array(label).max(PROMPT_LABELS_PER_REQUEST_MAX, PROMPT_MSG.tooManyLabelsAtOnce);

/** A role's message, or a placeholder (`{ type: "placeholder", name }`) where a list of messages goes when the prompt is used. */
export const promptMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.undefined().optional(), role: z.enum(CHAT_ROLES), content: multilineText() }),
  z.object({ type: z.literal("placeholder"), name: z.string().regex(VARIABLE_NAME, PROMPT_MSG.placeholderNameInvalid) }),
]);

const variableSchema = z.object({
  name: z.string().regex(VARIABLE_NAME, PROMPT_MSG.variableNameInvalid),
  type: z.enum(VARIABLE_TYPES),
  required: z.boolean().optional(),
  default: z.unknown().optional(),
  description: multilineText().max(500).optional(),
  options: z.array(plainText().min(1).max(200)).max(100).optional(),
});

const configSchema = z
  .record(z.string(), z.unknown(), { error: PROMPT_MSG.configNotObject })
  .refine((config) => new TextEncoder().encode(JSON.stringify(config)).length <= PROMPT_CONFIG_MAX_BYTES, PROMPT_MSG.configTooLarge);

/** The body of a version as a form or a procedure gives it; the type is read from what is given when absent. */
const versionFields = {
  type: z.enum(PROMPT_TYPES).optional(),
  template: multilineText().optional(),
  messages: z.array(promptMessageSchema).max(200).optional(),
  variables: z.array(variableSchema).max(PROMPT_VARIABLES_MAX, PROMPT_MSG.tooManyVariables).optional(),
  model: plainText().trim().max(PROMPT_MODEL_MAX, PROMPT_MSG.modelTooLong).optional(),
  config: configSchema.optional(),
  /** The tools the model may call (JSON, never compiled: variables in them stay as written). */
  tools: promptToolsSchema.optional(),
  /** The shape of the answer; none (null) leaves it to the model. */
  responseFormat: responseFormatSchema.nullable().optional(),
  commitMessage: multilineText().trim().max(PROMPT_COMMIT_MESSAGE_MAX, PROMPT_MSG.commitMessageTooLong).optional(),
};
type VersionFields = z.infer<z.ZodObject<typeof versionFields>>;

/** The version a draft describes, or the reason it cannot be one (before lint). */
export function versionBodyOf(fields: VersionFields): { body: PromptVersionBody } | { problem: string } {
  const type = fields.type ?? (fields.messages !== undefined ? "chat" : "text");
  const variables = fields.variables as PromptVersionBody["variables"];
  if (type === "text") {
    if (fields.template === undefined || fields.messages !== undefined) return { problem: PROMPT_MSG.templateRequired };
    if (fields.template.length > PROMPT_TEXT_MAX) return { problem: PROMPT_MSG.textTooLong };
    return { body: { type, template: fields.template, variables } };
  }
  if (fields.messages === undefined || fields.template !== undefined) return { problem: PROMPT_MSG.messagesRequired };
  if (fields.messages.reduce((sum, message) => sum + (isPlaceholder(message) ? 0 : message.content.length), 0) > PROMPT_TEXT_MAX) {
    return { problem: PROMPT_MSG.textTooLong };
  }
  return { body: { type, messages: fields.messages, variables } };
}

/** Shape and lint: a version that breaks either is refused with every reason. */
const checkVersion = (fields: VersionFields, ctx: z.RefinementCtx) => {
  const found = versionBodyOf(fields);
  if ("problem" in found) {
    ctx.addIssue({ code: "custom", message: found.problem, path: [fields.type === "chat" || fields.messages ? "messages" : "template"] });
    return;
  }
  const { errors } = lint(found.body);
  if (errors.length) ctx.addIssue({ code: "custom", message: PROMPT_MSG.lintFailed + errors.join("; "), path: ["template"] });
};

/** A new prompt without its team: the REST API takes the team from the key. */
const newPromptFields = {
  name: promptNameSchema,
  title: promptTitleSchema,
  description: promptDescriptionSchema.optional(),
  tags: promptTagsSchema.optional(),
  visibility: promptVisibilitySchema,
  ...versionFields,
  type: z.enum(PROMPT_TYPES),
};

export const createPromptInput = z.object({ teamId: idSchema, ...newPromptFields }).superRefine(checkVersion);
export type CreatePromptInput = z.input<typeof createPromptInput>;

/** POST /api/v1/prompts: the same rules as prompts.create; the team is the key's. */
export const runtimeCreatePromptInput = z.object(newPromptFields).superRefine(checkVersion);

export const createVersionInput = z.object({ promptId: idSchema, ...versionFields }).superRefine(checkVersion);
export type CreateVersionInput = z.input<typeof createVersionInput>;

/** POST /api/v1/prompts/{name}/versions: the same rules as promptVersions.create; the prompt is in the path. */
export const runtimeCreateVersionInput = z.object(versionFields).superRefine(checkVersion);

export const updatePromptInput = z.object({
  id: idSchema,
  title: promptTitleSchema.optional(),
  description: promptDescriptionSchema.optional(),
  tags: promptTagsSchema.optional(),
  visibility: promptVisibilitySchema.optional(),
});

export const renamePromptInput = z.object({ id: idSchema, name: promptNameSchema });

export const getPromptInput = z
  .object({ id: idSchema, version: z.number().int().min(1).optional(), label: z.union([promptLabelSchema, z.literal(LATEST_LABEL)]).optional() })
  .refine((input) => input.version === undefined || input.label === undefined, PROMPT_MSG.versionOrLabel);

export const setLabelInput = z.object({ promptId: idSchema, label: promptLabelSchema, version: z.number().int().min(1) });
export const removeLabelInput = z.object({ promptId: idSchema, label: promptLabelSchema });
/** A split's weight: the whole percent of fetches its candidate serves (the rest stay on the label's version). Every door that splits parses it. */
export const splitWeightSchema = z.number({ error: PROMPT_MSG.splitWeightRange }).int(PROMPT_MSG.splitWeightRange).min(1, PROMPT_MSG.splitWeightRange).max(99, PROMPT_MSG.splitWeightRange);
/** A split release: the label keeps its version and serves `version` (the candidate) to `weight` percent of fetches. */
export const splitLabelInput = z.object({
  promptId: idSchema,
  label: promptLabelSchema,
  version: z.number().int().min(1),
  weight: splitWeightSchema,
});
/** A split as its caller saw it, in the shape the prompt's labels show it: the label's version and its candidate with the weight. */
const seenSplitSchema = z.object({
  version: z.number().int().min(1),
  split: z.object({ version: z.number().int().min(1), weight: splitWeightSchema }),
});
/**
 * Ends a split: `promote` makes the candidate the label's only version, `rollback` keeps the label's version alone.
 * `expected` is the split the caller saw (the web app always sends it): ended only if the label is still split so.
 * Without it (older callers), the split is ended as it is.
 */
export const endSplitInput = z.object({ promptId: idSchema, label: promptLabelSchema, outcome: z.enum(["promote", "rollback"]), expected: seenSplitSchema.optional() });
export type SplitOutcome = z.infer<typeof endSplitInput>["outcome"];
/** What ending a split asks: its outcome, and the split it was asked on, when the caller said. */
export type SplitEnd = Pick<z.infer<typeof endSplitInput>, "outcome" | "expected">;
export const setRatingInput = z.object({
  promptId: idSchema,
  stars: z.number({ error: PROMPT_MSG.starsRange }).int(PROMPT_MSG.starsRange).min(1, PROMPT_MSG.starsRange).max(5, PROMPT_MSG.starsRange),
});
export const listVersionsInput = z.object({ promptId: idSchema, cursor: z.number().int().min(1).optional(), limit: z.number().int().min(1).max(100).optional() });

/** A folder filter: a name prefix without the trailing '/'. */
const folderSchema = z.string().max(PROMPT_NAME_MAX).regex(PROMPT_NAME, PROMPT_MSG.nameInvalid).refine(withoutDotSegments, PROMPT_MSG.nameDotSegment);

export const listPromptsInput = z.object({
  organizationId: idSchema,
  teamId: idSchema.optional(),
  q: plainText().trim().max(200).optional(),
  tags: z.array(plainText().trim().toLowerCase().regex(TAG, PROMPT_MSG.tagInvalid)).max(PROMPT_TAGS_MAX).optional(),
  folder: folderSchema.optional(),
  visibility: promptVisibilitySchema.optional(),
  mine: z.boolean().optional(),
  bookmarked: z.boolean().optional(),
  archived: z.boolean().optional(),
  sort: z.enum(PROMPT_SORTS).optional(),
  cursor: z.string().max(500).optional(),
  limit: z.number().int().min(1).max(PROMPT_LIST_LIMIT_MAX).optional(),
});
export type ListPromptsInput = z.input<typeof listPromptsInput>;

export const nameAvailableInput = z.object({ teamId: idSchema, name: promptNameSchema });
export const promptFacetsInput = z.object({ organizationId: idSchema, teamId: idSchema.optional() });
export const dashboardInput = z.object({ organizationId: idSchema, teamId: idSchema.optional() });

/** A name from a title: lowercase words joined by '-', within the limits ('Refund Answer' -> 'refund-answer'). */
export function nameFromTitle(title: string): string {
  return title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, PROMPT_NAME_MAX)
    .replace(/-+$/, "");
}

/** A run of characters a name cannot hold (with the '-' around it): one '-' in the nearest name. */
const NAME_FORBIDDEN_RUN = "[^a-z0-9._]*[^a-z0-9._-][^a-z0-9._]*";

/**
 * The nearest name the rule accepts to `name` (a Langfuse name with capitals, spaces or brackets, for
 * one): lowercase, accents dropped, each run of other characters one '-' ('Support Reply' is
 * 'support-reply'), none at a folder's ends, empty, '.' and '..' folders left out; null when nothing
 * is left. A valid name is its own nearest.
 */
export function nearestPromptName(name: string): string | null {
  const folders = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .split("/")
    .map((folder) => folder.replace(new RegExp(`^${NAME_FORBIDDEN_RUN}|${NAME_FORBIDDEN_RUN}$`, "g"), "").replace(new RegExp(NAME_FORBIDDEN_RUN, "g"), "-"))
    .filter((folder) => folder !== "" && withoutDotSegments(folder));
  const nearest = folders.join("/").slice(0, PROMPT_NAME_MAX).replace(/\/+$/, "");
  return promptNameSchema.safeParse(nearest).success ? nearest : null;
}

/** The folders of a name: 'a/b/c' -> ['a', 'a/b']. */
export function foldersOf(name: string): string[] {
  const parts = name.split("/").slice(0, -1);
  return parts.map((_, index) => parts.slice(0, index + 1).join("/"));
}

/** Version label as the cards show it. */
export const versionLabel = (version: number) => `v${version}`;
