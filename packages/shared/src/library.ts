// Import, export and bulk work on the library: the versioned export format that export and
// import both use, the Langfuse prompt shape import also reads, the bulk actions, and their texts.
import { z } from "zod";
import { CHAT_ROLES } from "./prompt-template.ts";
import { PROMPT_LABELS_MAX, PROMPT_MSG, PROMPT_TAGS_MAX, PROMPT_TYPES, withoutDotSegments, promptLabelSchema, promptNameSchema, promptTagsSchema } from "./prompts.ts";
import { PROMPT_VISIBILITIES } from "./options.ts";
import { idSchema } from "./validation.ts";

export const LIBRARY_FORMAT = "promptly.library";
export const LIBRARY_FORMAT_VERSION = 1;
/** Prompts one import may hold, and versions of one prompt. */
const IMPORT_PROMPTS_MAX = 1000;
const IMPORT_VERSIONS_MAX = 500;
/** Prompts one bulk action may change, all or none: a page of them, or a selection up to this many. */
const BULK_MAX = 500;
/** The tRPC body limit of apps/server (express.json) less room for the envelope. */
export const IMPORT_FILE_MAX_BYTES = 4 * 1024 * 1024 - 16 * 1024;

export const LIBRARY_MSG = {
  notADocument:
    "This is neither a Promptly library export (format 'promptly.library', version 1) nor Langfuse prompt JSON (one prompt or an array of them)",
  fileTooLarge: "The file is larger than 4 MB: split the library and import it in parts",
  hasConflicts: "The import has conflicts: nothing was imported. Fix them and preview again.",
  previewConflicts: "An import with conflicts is not applied: fix them in the file and choose it again.",
  nothingToImport: "Nothing to import: every prompt and version is already here",
  productionNeedsReview: "production not applied: needs review",
  productionNotAllowed: "production not applied: only a team admin can move it",
  /** A split release in the document: its label is applied to its own version alone. `version` is the number it has here. */
  splitNotApplied: (label: string, version: number, weight: number) => `${label} split not applied: its ${weight}% to version ${version} is not imported`,
  /** A split whose other version the file does not hold (given as the file numbers it). */
  splitUnknownVersion: (label: string, version: number) => `${label} split not applied: its version ${version} is not in the file`,
  /** A `splits` entry that is not a version number and a weight from 1 to 99: noted, the rest of the file imports. */
  splitInvalid: (label: string) => `${label} split not applied: not a split (a version number and a weight from 1 to 99)`,
  invalidName: "The name is not a valid prompt name",
  nameTaken: "A prompt with this name exists and you cannot change it",
  archived: "A prompt with this name is archived: restore it first",
  typeDiffers: (existing: string, imported: string) => `The prompt here is ${existing}, the import is ${imported}`,
  mixedTypes: "Its versions mix text and chat",
  duplicateName: "The import holds this name twice",
  /** A Langfuse name renamed to the nearest name Promptly accepts (its include tags in the file follow). */
  renamed: (from: string) => `Renamed from '${from}': a Promptly name is lowercase, with '-' for spaces and other characters`,
  privateNeedsPerson: "A private prompt needs a person as its author (import it signed in)",
  labelUnknownVersion: (label: string, version: number) => `Label '${label}' points at version ${version}, which the import does not hold`,
  /** The prompt's labels here and the new ones the import would add, past a prompt's limit. */
  tooManyLabels: (count: number) => `It would have ${count} labels, more than the ${PROMPT_LABELS_MAX} a prompt may have`,
  importedToast: (created: number, versions: number) => `Imported: ${created} prompt${created === 1 ? "" : "s"} created, ${versions} version${versions === 1 ? "" : "s"} saved`,
  exportedToast: "Library exported",
  bulkRefused: "Nothing was changed:",
  bulkTooMany: `Choose at most ${BULK_MAX} prompts at once`,
  bulkDone: (count: number) => `${count} prompt${count === 1 ? "" : "s"} updated`,
  folderInvalid: "A folder uses lowercase letters, digits, '-', '_' and '.', with '/' between folders",
  bulkNameTaken: (name: string) => `'${name}' is taken in its team`,
  bulkNameTwice: (name: string) => `Two chosen prompts would both be named '${name}'`,
  bulkTooManyTags: `It would have more than ${PROMPT_TAGS_MAX} tags`,
  bulkNotFound: "Not found",
  bulkNotAllowed: "You may not do this to it",
} as const;

// ---- the export format, version 1 ----

/** A role's message, or a placeholder where a list of messages goes when the prompt is used. */
const messageSchema = z.union([z.object({ role: z.enum(CHAT_ROLES), content: z.string() }), z.object({ type: z.literal("placeholder"), name: z.string() })]);

/** One version as exported: its number, body, contract and model settings. */
const libraryVersionSchema = z.object({
  version: z.number().int().min(1),
  type: z.enum(PROMPT_TYPES),
  template: z.string().optional(),
  messages: z.array(messageSchema).optional(),
  variables: z.array(z.record(z.string(), z.unknown())).default([]),
  model: z.string().default(""),
  config: z.record(z.string(), z.unknown()).default({}),
  /** Checked by the version's rules when imported (promptToolsSchema, responseFormatSchema). */
  tools: z.array(z.record(z.string(), z.unknown())).default([]),
  responseFormat: z.record(z.string(), z.unknown()).nullable().default(null),
  commitMessage: z.string().default(""),
  createdAt: z.string().optional(),
});

/**
 * A split release's other version (the candidate) and its share of fetches in percent; the label's own version serves the rest.
 * Checked per entry by the import (a bad one is noted), not as part of the document: a file is not refused for a split it never applies.
 */
export const librarySplitSchema = z.object({ version: z.number().int().min(1), weight: z.number().int().min(1).max(99) });

/** One prompt as exported; the name carries its folders (`a/b/name`); labels map a label to a version number. */
const libraryPromptSchema = z.object({
  name: z.string(),
  title: z.string(),
  description: z.string().default(""),
  tags: z.array(z.string()).default([]),
  visibility: z.enum(PROMPT_VISIBILITIES).default("team"),
  labels: z.record(z.string(), z.number().int()).default({}),
  /** The labels that are split releases, each with its other version and weight; only when some label is (import notes it, does not apply it). */
  // Read loosely: nothing of it is applied, so a malformed one (null, an array) never refuses the file; its entries are checked by the import.
  splits: z.unknown().optional(),
  versions: z.array(libraryVersionSchema).min(1).max(IMPORT_VERSIONS_MAX),
});

/** A team's library: `{ format: "promptly.library", version: 1, exportedAt, team: { name }, prompts }` (documented in the README). */
const libraryDocumentSchema = z.object({
  format: z.literal(LIBRARY_FORMAT),
  version: z.literal(LIBRARY_FORMAT_VERSION),
  exportedAt: z.string(),
  team: z.object({ name: z.string() }),
  prompts: z.array(libraryPromptSchema).max(IMPORT_PROMPTS_MAX),
});
export type LibraryDocument = z.infer<typeof libraryDocumentSchema>;
export type LibraryPrompt = z.infer<typeof libraryPromptSchema>;
export type LibraryVersion = z.infer<typeof libraryVersionSchema>;

// ---- Langfuse (GET /api/public/v2/prompts/{name}) ----

const langfusePromptSchema = z.object({
  name: z.string(),
  version: z.number().int().min(1),
  type: z.enum(["text", "chat"]).default("text"),
  prompt: z.union([
    z.string(),
    z.array(z.union([z.object({ type: z.literal("placeholder"), name: z.string() }), z.object({ type: z.literal("chatmessage").optional(), role: z.string(), content: z.string() }).loose()])),
  ]),
  config: z.unknown().optional(),
  labels: z.array(z.string()).default([]),
  tags: z.array(z.string()).default([]),
  commitMessage: z.string().nullish(),
});
export type LangfusePrompt = z.infer<typeof langfusePromptSchema>;

/** What an import reads: our export, one Langfuse prompt, or an array of them (versions of one or many prompts). */
export const importDocumentSchema = z.union(
  [libraryDocumentSchema, langfusePromptSchema, z.array(langfusePromptSchema).min(1).max(IMPORT_PROMPTS_MAX * 10)],
  { error: LIBRARY_MSG.notADocument },
);

const LIBRARY_EXPORT_FORMATS = ["json", "zip"] as const;
export const exportLibraryInput = z.object({ teamId: idSchema, format: z.enum(LIBRARY_EXPORT_FORMATS) });
/** The document is checked by the service, which names what it is not. */
export const importLibraryInput = z.object({ teamId: idSchema, document: z.unknown() });

// ---- bulk work ----

const folderSchema = z
  .string()
  .regex(/^([a-z0-9._-]+(\/[a-z0-9._-]+)*)?$/, LIBRARY_MSG.folderInvalid)
  .max(100)
  .refine(withoutDotSegments, PROMPT_MSG.nameDotSegment);

const bulkActionSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("addTags"), tags: promptTagsSchema.pipe(z.array(z.string()).min(1)) }),
  z.object({ kind: z.literal("removeTags"), tags: promptTagsSchema.pipe(z.array(z.string()).min(1)) }),
  /** Moves each prompt into `folder` ("" is the top): `a/b/x` -> `c/x`. */
  z.object({ kind: z.literal("moveToFolder"), folder: folderSchema }),
  /** Points the label at each prompt's latest version. */
  z.object({ kind: z.literal("setLabel"), label: promptLabelSchema }),
  z.object({ kind: z.literal("removeLabel"), label: promptLabelSchema }),
  z.object({ kind: z.literal("archive") }),
  z.object({ kind: z.literal("restore") }),
]);
export type BulkAction = z.infer<typeof bulkActionSchema>;

export const bulkPromptsInput = z.object({
  promptIds: z.array(idSchema).min(1).max(BULK_MAX, LIBRARY_MSG.bulkTooMany),
  action: bulkActionSchema,
});

/** The name a prompt gets when moved into `folder`: its last segment under the folder. */
export function nameInFolder(name: string, folder: string): string {
  const base = name.slice(name.lastIndexOf("/") + 1);
  return folder ? `${folder}/${base}` : base;
}

/** Whether `name` is a valid prompt name (the import reports an invalid one as a conflict). */
export const isPromptName = (name: string) => promptNameSchema.safeParse(name).success;
