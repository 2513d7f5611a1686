// The answers of the prompt library: the zod shapes of a list item, a page, a version, a prompt's detail and its history.
import { z } from "zod";
import { PROMPT_TYPES, PROMPT_VISIBILITIES, messageAnswer, promptToolSchema, resolutionGraph, responseFormatSchema, variableAnswer } from "@promptly/shared";

/** An author or reviewer: email is a colleague's address, for the name's fallback and its hover. */
export const personItem = z.object({ id: z.string(), fullName: z.string().nullable(), email: z.string().nullable(), avatarUrl: z.string().nullable() });
/** A label and its version; `split`: it also serves that version to `weight` percent of fetches (the rest stay on `version`). */
const labelItem = z.object({ name: z.string(), version: z.number(), split: z.object({ version: z.number(), weight: z.number() }).nullable() });

export const promptListItem = z.object({
  id: z.string(),
  teamId: z.string(),
  teamName: z.string(),
  name: z.string(),
  title: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
  visibility: z.enum(PROMPT_VISIBILITIES),
  type: z.enum(PROMPT_TYPES),
  latestVersion: z.number(),
  labels: z.array(labelItem),
  author: personItem.nullable(),
  ratingAverage: z.number(),
  ratingCount: z.number(),
  bookmarkCount: z.number(),
  bookmarked: z.boolean(),
  /** Live comments and replies (a deleted thread's stub is not counted). */
  commentCount: z.number(),
  archivedAt: z.date().nullable(),
  createdAt: z.date(),
  updatedAt: z.date(),
});

export const promptPage = z.object({ items: z.array(promptListItem), nextCursor: z.string().nullable() });

export const promptVersionItem = z.object({
  version: z.number(),
  type: z.enum(PROMPT_TYPES),
  template: z.string().nullable(),
  messages: z.array(messageAnswer).nullable(),
  /** The effective contract (effectiveContract): every variable the template uses, described or a required string. */
  variables: z.array(variableAnswer),
  /** The chat version's placeholder names, in order: each takes a list of messages, apart from the variables. */
  placeholders: z.array(z.string()),
  model: z.string(),
  config: z.record(z.string(), z.unknown()),
  tools: z.array(promptToolSchema),
  responseFormat: responseFormatSchema.nullable(),
  commitMessage: z.string(),
  author: personItem.nullable(),
  createdAt: z.date(),
});

/** A version's includes resolved for the page's Try it and Playground; null when it includes nothing. */
const resolvedVersion = z
  .discriminatedUnion("ok", [
    z.object({
      ok: z.literal(true),
      template: z.string().nullable(),
      messages: z.array(messageAnswer).nullable(),
      /** The contract in force of the resolved text (the included prompts' variables count). */
      variables: z.array(variableAnswer),
      graph: resolutionGraph.nullable(),
    }),
    /** An include that does not resolve for this reader (missing, unreadable, a cycle since a label moved): why, naming it. */
    z.object({ ok: z.literal(false), message: z.string() }),
  ])
  .nullable();

export const promptDetail = promptListItem.extend({
  organizationId: z.string(),
  /** The version shown: the one asked for, else `production` when set, else the latest. As written: its includes are tags. */
  version: promptVersionItem,
  resolved: resolvedVersion,
  /** What this version includes, as written; `promptId` when the reader may open it. */
  includes: z.array(z.object({ name: z.string(), label: z.string().nullable(), version: z.number().nullable(), promptId: z.string().nullable() })),
  /** Other prompts (that the reader may read) whose versions include this one: the newest such version of each. */
  usedBy: z.array(
    z.object({ promptId: z.string(), name: z.string(), title: z.string(), version: z.number(), label: z.string().nullable(), includedVersion: z.number().nullable() }),
  ),
  myRating: z.number().nullable(),
  /** Approvals its team requires before `production` moves, private prompts included. */
  requiredApprovals: z.number(),
  /** What the caller may do with this prompt (the same rules the procedures enforce). */
  can: z.object({
    read: z.boolean(),
    write: z.boolean(),
    "label.protected": z.boolean(),
    rename: z.boolean(),
    archive: z.boolean(),
    delete: z.boolean(),
    rate: z.boolean(),
    run: z.boolean(),
  }),
});

const versionHistoryItem = promptVersionItem
  .pick({ version: true, type: true, model: true, commitMessage: true, author: true, createdAt: true })
  .extend({ labels: z.array(z.string()) });
export const versionHistoryPage = z.object({ items: z.array(versionHistoryItem), nextCursor: z.number().nullable() });
