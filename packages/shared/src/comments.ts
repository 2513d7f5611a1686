// Comments on prompts: limits, texts, input schemas, the mention token and who may edit
// or delete a comment, shared by the procedures and the web app.
import { z } from "zod";
import { can, type PromptAccess } from "./permissions.ts";
import { idSchema, multilineText } from "./validation.ts";

const COMMENT_BODY_MAX = 5000;
/** How many people the mention autocomplete offers at once. */
export const MENTION_CANDIDATES_MAX = 10;
const MENTION_QUERY_MAX = 100;
const MENTION_NAME_MAX = 100;

export const COMMENT_MSG = {
  bodyRequired: "Write a comment first",
  bodyTooLong: `A comment has at most ${COMMENT_BODY_MAX.toLocaleString("en-US")} characters`,
  notFound: "Comment not found",
  versionNotFound: "Version not found",
  replyToReply: "Replies are one level deep: reply to the thread's first comment instead",
  replyToDeleted: "This comment was deleted: it takes no new replies",
  archived: "This prompt is archived: its comments are read-only",
  editOwnOnly: "You can only edit your own comments",
  deleteOwnOnly: "You can only delete your own comments",
  // The web app's own texts.
  deletedStub: "Comment deleted",
  posted: "Comment posted",
  replied: "Reply posted",
  saved: "Comment saved",
  deleted: "Comment deleted",
} as const;

/** A comment's text: 1-5,000 characters once trimmed; tabs and line breaks allowed, other control characters not. */
export const commentBodySchema = multilineText()
  .trim()
  .min(1, COMMENT_MSG.bodyRequired)
  .max(COMMENT_BODY_MAX, COMMENT_MSG.bodyTooLong);

export const listCommentsInput = z.object({ promptId: idSchema, cursor: z.string().max(200).optional() });
/** A thread's replies a page at a time: `id` is the thread's first comment. */
export const listRepliesInput = z.object({ id: idSchema, cursor: z.string().max(200).optional() });
export const createCommentInput = z.object({
  promptId: idSchema,
  /** The version the comment speaks of ("on v3"); none for the prompt as a whole. */
  version: z.number().int().min(1, COMMENT_MSG.versionNotFound).max(2 ** 31 - 1, COMMENT_MSG.versionNotFound).optional(),
  /** The thread answered: a top-level comment of the same prompt. */
  parentId: idSchema.optional(),
  body: commentBodySchema,
});
export const updateCommentInput = z.object({ id: idSchema, body: commentBodySchema });
export const deleteCommentInput = z.object({ id: idSchema });
export const mentionCandidatesInput = z.object({ promptId: idSchema, q: z.string().max(MENTION_QUERY_MAX).default("") });
export type CreateCommentInput = z.infer<typeof createCommentInput>;

// ---- mentions ----

/**
 * A mention in a comment's text: `@[Name](user:<uuid>)`. The id is what counts (stored resolved in
 * comment_mentions); the name is only what the writer saw, shown when the person cannot be named.
 */
const MENTION_TOKEN = /@\[([^\[\]\n]{1,100})\]\(user:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\)/gi;

/** The mention tokens of a text, in order: where each starts and ends, the name written and the user id. */
function mentionTokens(body: string): { start: number; end: number; name: string; userId: string }[] {
  return [...body.matchAll(MENTION_TOKEN)].map((match) => ({
    start: match.index,
    end: match.index + match[0].length,
    name: match[1]!,
    userId: match[2]!.toLowerCase(),
  }));
}

/** The distinct user ids a text mentions. */
export const mentionedUserIds = (body: string) => [...new Set(mentionTokens(body).map((token) => token.userId))];

/** The token for a person: their name without the characters the token uses, on one line. */
export function mentionToken(user: { id: string; name: string }): string {
  const name = user.name.replace(/[\[\]\n\r]/g, " ").replace(/\s+/g, " ").trim().slice(0, MENTION_NAME_MAX) || "someone";
  return `@[${name}](user:${user.id})`;
}

/** A mention as the comment box shows it: `@Name`, and the person it stands for. */
export interface TypedMention {
  name: string;
  id: string;
}

/**
 * The comment box shows `@Name` where the stored text has `@[Name](user:<uuid>)`: the text to show,
 * and the mentions it holds (for mentionsToTokens).
 */
export function tokensToMentions(body: string): { text: string; mentions: TypedMention[] } {
  const mentions: TypedMention[] = [];
  const text = body.replace(MENTION_TOKEN, (_token, name: string, id: string) => {
    mentions.push({ name, id: id.toLowerCase() });
    return `@${name}`;
  });
  return { text, mentions };
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The stored text of what the box shows: each `@Name` of a known mention (not followed by a letter or
 * digit) becomes its token again; a name edited in the box is plain text from then on.
 */
export function mentionsToTokens(text: string, mentions: readonly TypedMention[]): string {
  const byName = new Map(mentions.map((mention) => [mention.name, mention.id]));
  if (byName.size === 0) return text;
  // Longest names first, so "@Ada Lovelace" is not taken for "@Ada".
  const names = [...byName.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const pattern = new RegExp(`@(${names.join("|")})(?![\\p{L}\\p{N}])`, "gu");
  return text.replace(pattern, (_match, name: string) => mentionToken({ id: byName.get(name)!, name }));
}

// ---- who may ----

export type CommentAbility = "edit" | "delete";

/**
 * What a reader of the prompt may do with one comment: edit their own; delete their own, or anyone's
 * at team admin level (`comment.moderate`). Reading the prompt is the procedure builder's check.
 */
export function canOnComment(access: PromptAccess, comment: { authorId: string | null }, ability: CommentAbility): boolean {
  const own = comment.authorId !== null && comment.authorId === access.userId;
  if (ability === "edit") return own;
  return own || can(access, "comment.moderate");
}
