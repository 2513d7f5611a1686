// Comments on prompts. The procedure builder has checked that the caller reads the prompt;
// who may edit or delete one comment is canOnComment's (packages/shared). Every write and its
// notifications happen in one transaction.
import { z } from "zod";
import { Prisma, type Db, type DbOrTx, type DbTransaction } from "@promptly/db";
import {
  COMMENT_MSG, MENTION_CANDIDATES_MAX, MSG, canOnComment, mentionedUserIds, type CommentAbility, type CreateCommentInput,
} from "@promptly/shared";
import { fail } from "../../errors.ts";
import { instantSortValue, decodeKeysetCursor, encodeKeysetCursor } from "../platform/keyset-cursor.ts";
import { avatarUrl } from "../identity/account.ts";
import type { Caller } from "../access/access.ts";
import { notify } from "../notifications/notify.ts";
import { emitWebhookEvent } from "../webhooks/events.ts";
import type { LoadedPrompt } from "../prompts/loaded-prompt.ts";
import { archivedRefusal, refuse } from "../prompts/prompt-rules.ts";
import { memberReadsPrompt } from "../access/visibility.ts";
import type { RateLimitRule, RateLimits } from "../platform/rate-limits.ts";

const THREADS_PER_PAGE = 20;
/** Replies a thread carries in a page of threads, and in a page of comments.replies: a thread may have any number, so none is read whole. */
const REPLIES_PER_PAGE = 50;
/**
 * Comments one person may post in ten minutes, on every prompt together: any reader of a prompt may
 * comment, and each comment notifies and fires webhooks, so a script must not post without bound. A
 * person in a lively discussion stays well under it.
 */
const COMMENT_RATE_LIMIT: RateLimitRule = { limit: 60, windowMs: 10 * 60_000 };

interface CommentLimits {
  rateLimiter: RateLimits;
  /** RATE_LIMITS: off, nothing is counted. */
  rateLimits: boolean;
}

// ---- answers ----

const personItem = z.object({ id: z.string(), fullName: z.string().nullable(), email: z.string().nullable(), avatarUrl: z.string().nullable() });

const commentItem = z.object({
  id: z.string(),
  parentId: z.string().nullable(),
  /** The version it speaks of, or null for the prompt as a whole. */
  version: z.number().nullable(),
  /** Null for a deleted thread's stub, and when the author's account is gone. */
  author: personItem.nullable(),
  /** Empty for a deleted thread's stub. Mentions are `@[Name](user:<uuid>)` tokens. */
  body: z.string(),
  deleted: z.boolean(),
  createdAt: z.date(),
  editedAt: z.date().nullable(),
  /** The people the body mentions, with their names of today. */
  mentions: z.array(z.object({ id: z.string(), fullName: z.string().nullable() })),
  /** What the caller may do with it (the same rules the procedures enforce). */
  can: z.object({ edit: z.boolean(), delete: z.boolean(), reply: z.boolean() }),
});

const commentThread = commentItem.extend({
  /** Its newest replies, oldest first, at most REPLIES_PER_PAGE: comments.replies from repliesCursor reads the earlier ones. */
  replies: z.array(commentItem),
  /** How many replies the thread has in all. */
  replyCount: z.number(),
  /** Where comments.replies goes on before `replies`, or null when they are all of them. */
  repliesCursor: z.string().nullable(),
});
export const commentPage = z.object({ items: z.array(commentThread), nextCursor: z.string().nullable() });
export const replyPage = z.object({ items: z.array(commentItem), nextCursor: z.string().nullable() });

export const mentionCandidate = z.object({
  id: z.string(),
  fullName: z.string().nullable(),
  username: z.string().nullable(),
  /** A colleague who may read the prompt: the autocomplete finds and tells people apart by address too. */
  email: z.string(),
  avatarUrl: z.string().nullable(),
});

// ---- access ----

/** The prompt a comment is on (stubs included), or null: the locator of `{ id }` inputs. */
export async function findCommentPromptId(db: DbOrTx, commentId: string): Promise<string | null> {
  const row = await db.promptComment.findUnique({ where: { id: commentId }, select: { promptId: true } });
  return row?.promptId ?? null;
}

const refuseArchived = (prompt: LoadedPrompt) => refuse(archivedRefusal(prompt.archived, COMMENT_MSG.archived));

// ---- reading ----

const authorSelect = { select: { id: true, email: true, profile: { select: { fullName: true, avatarKey: true } } } } as const;
const commentSelect = {
  id: true,
  parentId: true,
  version: true,
  authorId: true,
  body: true,
  createdAt: true,
  editedAt: true,
  deletedAt: true,
  author: authorSelect,
  mentions: { select: { user: { select: { id: true, profile: { select: { fullName: true } } } } } },
} as const satisfies Prisma.PromptCommentSelect;

type CommentRow = Prisma.PromptCommentGetPayload<{ select: typeof commentSelect }>;

function toItem(prompt: LoadedPrompt, row: CommentRow) {
  const deleted = row.deletedAt !== null;
  const may = (ability: CommentAbility) => !deleted && canOnComment(prompt.access, row, ability);
  return {
    id: row.id,
    parentId: row.parentId,
    version: row.version,
    author:
      deleted || !row.author
        ? null
        : { id: row.author.id, fullName: row.author.profile?.fullName ?? null, email: row.author.email, avatarUrl: avatarUrl(row.author.profile?.avatarKey) },
    body: deleted ? "" : row.body,
    deleted,
    createdAt: row.createdAt,
    editedAt: deleted ? null : row.editedAt,
    mentions: deleted ? [] : row.mentions.map(({ user }) => ({ id: user.id, fullName: user.profile?.fullName ?? null })),
    can: {
      edit: !prompt.archived && may("edit"),
      delete: may("delete"),
      reply: !prompt.archived && !deleted && row.parentId === null,
    },
  };
}

// Replies are read newest first (a discussion shows its latest) and turned oldest first for the page.
const newestFirst = [{ createdAt: "desc" }, { id: "desc" }] satisfies Prisma.PromptCommentOrderByWithRelationInput[];
/** The rows before a keyset cursor on (createdAt, id), newest first (none without a cursor). */
const olderThan = (cursor: string | undefined) => {
  const after = cursor ? decodeKeysetCursor(cursor, instantSortValue) : null;
  return after ? { OR: [{ createdAt: { lt: after.sortValue } }, { createdAt: after.sortValue, id: { lt: after.id } }] } : {};
};
const nextCursorOf = (rows: { createdAt: Date; id: string }[], size: number) => {
  const last = rows[size - 1];
  return rows.length > size && last ? encodeKeysetCursor(last.createdAt.toISOString(), last.id) : null;
};

/**
 * A page of a prompt's threads, newest first, each with its newest replies (shown oldest first) and how
 * many it has in all. Keyset pages on (createdAt, id).
 */
export async function listComments(db: DbOrTx, prompt: LoadedPrompt, cursor: string | undefined) {
  const rows = await db.promptComment.findMany({
    where: {
      promptId: prompt.id,
      parentId: null,
      ...olderThan(cursor),
    },
    orderBy: newestFirst,
    take: THREADS_PER_PAGE + 1,
    select: {
      ...commentSelect,
      // One more than a page tells whether comments.replies has more to give.
      replies: { select: commentSelect, orderBy: newestFirst, take: REPLIES_PER_PAGE + 1 },
      _count: { select: { replies: true } },
    },
  });
  const page = rows.slice(0, THREADS_PER_PAGE);
  return commentPage.parse({
    items: page.map(({ replies, _count, ...thread }) => ({
      ...toItem(prompt, thread),
      replies: replies.slice(0, REPLIES_PER_PAGE).reverse().map((reply) => toItem(prompt, reply)),
      replyCount: _count.replies,
      repliesCursor: nextCursorOf(replies, REPLIES_PER_PAGE),
    })),
    nextCursor: nextCursorOf(rows, THREADS_PER_PAGE),
  });
}

/**
 * A page of one thread's replies shown oldest first: the ones just before the cursor (the newest without
 * one, as comments.list carries them); nextCursor goes on to earlier ones. Keyset pages on (createdAt, id).
 */
export async function listReplies(db: DbOrTx, prompt: LoadedPrompt, threadId: string, cursor: string | undefined) {
  const thread = await db.promptComment.findFirst({ where: { id: threadId, promptId: prompt.id, parentId: null }, select: { id: true } });
  if (!thread) fail("NOT_FOUND", COMMENT_MSG.notFound, "COMMENT_NOT_FOUND");
  const rows = await db.promptComment.findMany({
    where: {
      parentId: threadId,
      ...olderThan(cursor),
    },
    orderBy: newestFirst,
    take: REPLIES_PER_PAGE + 1,
    select: commentSelect,
  });
  return replyPage.parse({
    items: rows.slice(0, REPLIES_PER_PAGE).reverse().map((reply) => toItem(prompt, reply)),
    nextCursor: nextCursorOf(rows, REPLIES_PER_PAGE),
  });
}

/**
 * Members of the prompt's organization who may read it (the `@` autocomplete, and the only people a
 * mention names): `ids` narrows to those people, `q` to names, usernames or addresses containing it.
 */
async function readersOfPrompt(db: DbOrTx, prompt: LoadedPrompt, filter: { ids?: string[]; q?: string; excludeId?: string; limit?: number }) {
  // The prompt read rule, for each member instead of the caller.
  const reads = memberReadsPrompt({ userId: Prisma.sql`om.user_id`, organizationRole: Prisma.sql`om.role`, teamRole: Prisma.sql`tm.role` });
  const where: Prisma.Sql[] = [Prisma.sql`om.organization_id = p.organization_id`];
  if (filter.ids) where.push(Prisma.sql`om.user_id = ANY(${filter.ids}::uuid[])`);
  if (filter.excludeId) where.push(Prisma.sql`om.user_id <> ${filter.excludeId}::uuid`);
  const q = filter.q?.trim();
  if (q) {
    const pattern = `%${q.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
    where.push(Prisma.sql`(pr.full_name ILIKE ${pattern} OR pr.username ILIKE ${pattern} OR u.email ILIKE ${pattern})`);
  }
  return db.$queryRaw<{ id: string; fullName: string | null; username: string | null; email: string; avatarKey: string | null }[]>`
    SELECT om.user_id::text AS id, pr.full_name AS "fullName", pr.username, u.email, pr.avatar_key AS "avatarKey"
    FROM prompts p
    JOIN organization_members om ON om.organization_id = p.organization_id
    JOIN users u ON u.id = om.user_id
    LEFT JOIN team_members tm ON tm.team_id = p.team_id AND tm.user_id = om.user_id
    LEFT JOIN profiles pr ON pr.user_id = om.user_id
    WHERE p.id = ${prompt.id}::uuid AND ${Prisma.join(where, " AND ")}
      AND ${reads}
    ORDER BY pr.full_name NULLS LAST, pr.username NULLS LAST, u.email, om.user_id
    LIMIT ${filter.limit ?? 1000}`;
}

/** Who the `@` autocomplete offers: readers of the prompt in its organization, the caller aside, at most 10. */
export async function mentionCandidates(db: DbOrTx, caller: Caller, prompt: LoadedPrompt, q: string) {
  const rows = await readersOfPrompt(db, prompt, { q, excludeId: caller.userId, limit: MENTION_CANDIDATES_MAX });
  return rows.map(({ avatarKey, ...row }) => mentionCandidate.parse({ ...row, avatarUrl: avatarUrl(avatarKey) }));
}

/** The people a body mentions who may be mentioned; anyone else's token stays plain text. */
async function resolveMentions(db: DbOrTx, prompt: LoadedPrompt, body: string): Promise<string[]> {
  const ids = mentionedUserIds(body);
  if (ids.length === 0) return [];
  return (await readersOfPrompt(db, prompt, { ids })).map((row) => row.id);
}

// ---- writes ----

/**
 * Counts one comment, or one edit that mentions someone anew, against its author's limit; past it 429
 * (thrown in the caller's transaction, so nothing is stored). Called once the other checks are passed:
 * a post they refuse uses up none of the limit (one failing after it, a rare database error, does: the
 * limiter's count is not rolled back with the transaction).
 */
async function countAgainstLimit(limits: CommentLimits, caller: Caller) {
  if (limits.rateLimits && !(await limits.rateLimiter.hit("comment:author", COMMENT_RATE_LIMIT, caller.userId)).allowed) {
    fail("RATE_LIMITED", MSG.tooManyRequests);
  }
}

/**
 * A new thread, or a reply to one (one level deep). Version and parent are checked in the transaction,
 * then the post is counted against its author's limit (a refused one stores nothing), then mentions.
 */
export async function createComment(
  db: Db, limits: CommentLimits, caller: Caller, prompt: LoadedPrompt, input: Omit<CreateCommentInput, "promptId">, now: Date,
) {
  refuseArchived(prompt);
  return db.$transaction(async (tx) => {
    if (input.version !== undefined) {
      const version = await tx.promptVersion.findUnique({
        where: { promptId_version: { promptId: prompt.id, version: input.version } },
        select: { id: true },
      });
      if (!version) fail("NOT_FOUND", COMMENT_MSG.versionNotFound, "VERSION_NOT_FOUND");
    }
    let parentAuthorId: string | null = null;
    if (input.parentId) {
      // A share lock: the thread cannot be deleted for good while its new reply is written.
      const [parent] = await tx.$queryRaw<{ parentId: string | null; authorId: string | null; deleted: boolean }[]>`
        SELECT parent_id::text AS "parentId", author_id::text AS "authorId", deleted_at IS NOT NULL AS deleted
        FROM prompt_comments WHERE id = ${input.parentId}::uuid AND prompt_id = ${prompt.id}::uuid FOR SHARE`;
      if (!parent) return fail("NOT_FOUND", COMMENT_MSG.notFound, "COMMENT_NOT_FOUND");
      if (parent.parentId !== null) fail("INVALID", COMMENT_MSG.replyToReply, "REPLY_TO_REPLY");
      if (parent.deleted) fail("STATE_CONFLICT", COMMENT_MSG.replyToDeleted, "COMMENT_DELETED");
      parentAuthorId = parent.authorId;
    }
    await countAgainstLimit(limits, caller);
    const mentioned = await resolveMentions(tx, prompt, input.body);
    const comment = await tx.promptComment.create({
      data: {
        promptId: prompt.id,
        version: input.version ?? null,
        parentId: input.parentId ?? null,
        authorId: caller.userId,
        body: input.body,
        createdAt: now,
        mentions: { create: mentioned.map((userId) => ({ userId })) },
      },
      select: { id: true },
    });
    const event = { promptId: prompt.id, commentId: comment.id, actorId: caller.userId };
    await notify(tx, { kind: "comment", ...event }, now);
    if (parentAuthorId) await notify(tx, { kind: "reply", ...event, parentAuthorId }, now);
    if (mentioned.length) await notify(tx, { kind: "mention", ...event, mentionedUserIds: mentioned }, now);
    await emitWebhookEvent(tx, {
      type: "comment.created",
      organizationId: prompt.organizationId,
      teamId: prompt.teamId,
      actor: { kind: "user", userId: caller.userId },
      promptId: prompt.id,
      data: { comment: { id: comment.id, body: input.body, version: input.version ?? null, parentId: input.parentId ?? null } },
    }, now);
    return { id: comment.id };
  });
}

/** Locks a live comment of the prompt, or NOT_FOUND (a deleted thread's stub is no longer a comment). */
async function lockComment(tx: DbTransaction, prompt: LoadedPrompt, commentId: string) {
  const [row] = await tx.$queryRaw<{ id: string; parentId: string | null; authorId: string | null; body: string }[]>`
    SELECT id::text AS id, parent_id::text AS "parentId", author_id::text AS "authorId", body
    FROM prompt_comments WHERE id = ${commentId}::uuid AND prompt_id = ${prompt.id}::uuid AND deleted_at IS NULL FOR UPDATE`;
  return row ?? fail("NOT_FOUND", COMMENT_MSG.notFound, "COMMENT_NOT_FOUND");
}

/**
 * The author's new text (shown as edited). Mentions follow the text; only the newly named hear of it.
 * An edit that names someone anew counts against the author's comment limit, as a new comment does
 * (else removing and adding a mention again and again would notify without bound); one that notifies
 * nobody is not counted.
 */
export async function updateComment(
  db: Db, limits: CommentLimits, caller: Caller, prompt: LoadedPrompt, commentId: string, body: string, now: Date,
) {
  refuseArchived(prompt);
  return db.$transaction(async (tx) => {
    const comment = await lockComment(tx, prompt, commentId);
    if (!canOnComment(prompt.access, comment, "edit")) fail("FORBIDDEN", COMMENT_MSG.editOwnOnly);
    if (comment.body === body) return { id: commentId };
    const mentioned = await resolveMentions(tx, prompt, body);
    const before = (await tx.commentMention.findMany({ where: { commentId }, select: { userId: true } })).map((row) => row.userId);
    const added = mentioned.filter((userId) => !before.includes(userId));
    if (added.length) await countAgainstLimit(limits, caller);
    await tx.promptComment.update({ where: { id: commentId }, data: { body, editedAt: now } });
    await tx.commentMention.deleteMany({ where: { commentId, userId: { notIn: mentioned } } });
    await tx.commentMention.createMany({ data: added.map((userId) => ({ commentId, userId })) });
    if (added.length) {
      await notify(tx, { kind: "mention", promptId: prompt.id, commentId, mentionedUserIds: added, actorId: caller.userId }, now);
    }
    return { id: commentId };
  });
}

/**
 * Deletes a comment: its author, or team admin level. A thread with replies keeps a stub (text and
 * mentions gone); anything else goes for good, and a stub whose last reply goes goes with it.
 * Deletes are allowed on an archived prompt: taking words back never waits for a restore.
 */
export async function deleteComment(db: Db, prompt: LoadedPrompt, commentId: string, now: Date) {
  return db.$transaction(async (tx) => {
    // The thread's row is locked first (by replies' deletes too), so two deletes in one thread take turns.
    const found = await tx.promptComment.findFirst({ where: { id: commentId, promptId: prompt.id }, select: { parentId: true } });
    if (found?.parentId) await tx.$queryRaw`SELECT 1 FROM prompt_comments WHERE id = ${found.parentId}::uuid FOR UPDATE`;
    const comment = await lockComment(tx, prompt, commentId);
    if (!canOnComment(prompt.access, comment, "delete")) fail("FORBIDDEN", COMMENT_MSG.deleteOwnOnly);
    if (comment.parentId === null) {
      const replies = await tx.promptComment.count({ where: { parentId: commentId } });
      if (replies > 0) {
        await tx.promptComment.update({ where: { id: commentId }, data: { body: "", deletedAt: now, editedAt: null } });
        await tx.commentMention.deleteMany({ where: { commentId } });
        return { id: commentId, kept: "stub" as const };
      }
      await tx.promptComment.delete({ where: { id: commentId } });
      return { id: commentId, kept: "nothing" as const };
    }
    await tx.promptComment.delete({ where: { id: commentId } });
    // A deleted thread whose last reply went has nothing left to show.
    await tx.$executeRaw`
      DELETE FROM prompt_comments t WHERE t.id = ${comment.parentId}::uuid AND t.deleted_at IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM prompt_comments r WHERE r.parent_id = t.id)`;
    return { id: commentId, kept: "nothing" as const };
  });
}
