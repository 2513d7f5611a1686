// The prompt library (issue 13): prompts, their immutable versions and labels. Services take `db`,
// the caller and plain values; the procedure builder has checked who may act on which prompt.
import { z } from "zod";
import { isUniqueViolation, Prisma, type Db, type DbOrTx, type DbTransaction } from "@promptly/db";
import {
  LATEST_LABEL, PROMPT_MSG, PROMPT_TYPES, PROMPT_VISIBILITIES, PROTECTED_LABEL, RUNTIME_MSG, messageAnswer, promptNameSchema, variableAnswer,
  accessOf, canOnPrompt, promptAbilities, versionBodyOf, type CreatePromptInput, type CreateVersionInput,
  type ListPromptsInput, type OrganizationRole, type PromptAccess, type PromptFacts, type TeamRole,
} from "@promptly/shared";
import { effectiveContract } from "@promptly/shared";
import { fail } from "../../errors.ts";
import { auditAs, type AuditAction, type AuditContext } from "../insight/audit.ts";
import { avatarUrl } from "../identity/account.ts";
import { notify } from "../collaboration/notify.ts";
import { archivedRefusal, directLabelRefusal, lockLivePrompt, refuse, requiredApprovals, shareRefusal } from "./prompt-rules.ts";
import type { Caller } from "../access/access.ts";
import { promptVisibility } from "../access/visibility.ts";

// ---- answers ----

export const personItem = z.object({ id: z.string(), fullName: z.string().nullable(), avatarUrl: z.string().nullable() });
const labelItem = z.object({ name: z.string(), version: z.number() });

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
  model: z.string(),
  config: z.record(z.string(), z.unknown()),
  commitMessage: z.string(),
  author: personItem.nullable(),
  createdAt: z.date(),
});

export const promptDetail = promptListItem.extend({
  organizationId: z.string(),
  /** The version shown: the one asked for, else `production` when set, else the latest. */
  version: promptVersionItem,
  myRating: z.number().nullable(),
  /** Approvals its team requires before `production` moves (issue 16), private prompts included. */
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
  }),
});

const versionHistoryItem = promptVersionItem
  .pick({ version: true, type: true, model: true, commitMessage: true, author: true, createdAt: true })
  .extend({ labels: z.array(z.string()) });
export const versionHistoryPage = z.object({ items: z.array(versionHistoryItem), nextCursor: z.number().nullable() });

// ---- access ----

/** A prompt as its rules see it, with the caller's access in its team. */
export interface LoadedPrompt {
  id: string;
  teamId: string;
  organizationId: string;
  archived: boolean;
  facts: PromptFacts;
  access: PromptAccess;
}

/** Null when there is no such prompt; whether the caller may read it is canOnPrompt's to say. */
export async function loadPrompt(db: DbOrTx, caller: Caller, promptId: string): Promise<LoadedPrompt | null> {
  const { joins } = promptVisibility(caller);
  const [row] = await db.$queryRaw<
    { teamId: string; organizationId: string; visibility: PromptFacts["visibility"]; authorId: string | null; archived: boolean; teamRole: TeamRole | null; organizationRole: OrganizationRole | null }[]
  >`
    SELECT p.team_id::text AS "teamId", p.organization_id::text AS "organizationId", p.visibility::text AS visibility,
           p.author_id::text AS "authorId", p.archived_at IS NOT NULL AS archived,
           my_tm.role::text AS "teamRole", my_om.role::text AS "organizationRole"
    FROM prompts p ${joins}
    WHERE p.id = ${promptId}::uuid`;
  // A key knows nothing outside its team, and no archived prompt (as on /api/v1): for it, the prompt does not exist.
  if (!row || (caller.apiKey && (row.teamId !== caller.apiKey.teamId || row.archived))) return null;
  return {
    id: promptId,
    teamId: row.teamId,
    organizationId: row.organizationId,
    archived: row.archived,
    facts: { visibility: row.visibility, authorId: row.authorId },
    access: { ...accessOf(caller, { teamRole: row.teamRole, organizationRole: row.organizationRole }), userId: caller.userId },
  };
}

const refuseArchived = (prompt: LoadedPrompt) => refuse(archivedRefusal(prompt.archived));

// ---- lists ----

/** The columns of a list item, for `FROM prompts p ${promptVisibility.joins}`. */
const itemColumns = (caller: Caller) => Prisma.sql`
  p.id::text AS id, p.team_id::text AS "teamId", t.name AS "teamName", p.name, p.title, p.description, p.tags,
  p.visibility::text AS visibility, lv.type::text AS type, p.latest_version AS "latestVersion",
  COALESCE((SELECT json_agg(json_build_object('name', l.name, 'version', l.version) ORDER BY l.name)
            FROM prompt_labels l WHERE l.prompt_id = p.id), '[]'::json) AS labels,
  CASE WHEN p.author_id IS NULL THEN NULL
       ELSE json_build_object('id', p.author_id, 'fullName', ap.full_name, 'avatarKey', ap.avatar_key) END AS author,
  p.rating_average AS "ratingAverage", p.rating_count AS "ratingCount", p.bookmark_count AS "bookmarkCount",
  EXISTS (SELECT 1 FROM prompt_bookmarks b WHERE b.prompt_id = p.id AND b.user_id = ${caller.userId}::uuid) AS bookmarked,
  (SELECT count(*)::int FROM prompt_comments c WHERE c.prompt_id = p.id AND c.deleted_at IS NULL) AS "commentCount", p.archived_at AS "archivedAt", p.created_at AS "createdAt", p.updated_at AS "updatedAt"`;

const itemJoins = Prisma.sql`
  JOIN teams t ON t.id = p.team_id
  JOIN prompt_versions lv ON lv.prompt_id = p.id AND lv.version = p.latest_version
  LEFT JOIN profiles ap ON ap.user_id = p.author_id`;

type RawItem = Record<string, unknown> & { author: { id: string; fullName: string | null; avatarKey: string | null } | null };

const toItem = ({ author, ...row }: RawItem) =>
  promptListItem.parse({ ...row, author: author && { id: author.id, fullName: author.fullName, avatarUrl: avatarUrl(author.avatarKey) } });

/** Words of a search, each a prefix: 'cust supp' -> 'cust:* & supp:*' (letters and digits only: no query syntax). */
export function prefixQuery(q: string): string | null {
  const words = q.toLowerCase().match(/[\p{L}\p{N}]+/gu)?.slice(0, 8) ?? [];
  return words.length ? words.map((word) => `${word}:*`).join(" & ") : null;
}

type SortKey = "updated" | "name" | "rating" | "bookmarks" | "relevance";

/**
 * ORDER BY and the keyset condition of each sort; `s` is the ranked row set. `parse` checks a
 * cursor's value against what the column holds, so a forged one is BAD_REQUEST, never a SQL error.
 */
const SORTS: Record<SortKey, { key: string; order: Prisma.Sql; after: (value: unknown, id: string) => Prisma.Sql; parse: z.ZodType }> = {
  updated: {
    key: "updatedAt",
    order: Prisma.sql`s."updatedAt" DESC, s.id DESC`,
    after: (value, id) => Prisma.sql`(s."updatedAt", s.id) < (${value}::timestamptz, ${id}::uuid)`,
    parse: z.iso.datetime().refine((value) => new Date(value).getUTCFullYear() >= 1), // PostgreSQL has no year 0
  },
  name: {
    key: "name",
    order: Prisma.sql`s.name COLLATE "C" ASC, s.id ASC`,
    after: (value, id) => Prisma.sql`(s.name COLLATE "C", s.id) > (${value}::text COLLATE "C", ${id}::uuid)`,
    parse: promptNameSchema,
  },
  rating: {
    key: "ratingAverage",
    order: Prisma.sql`s."ratingAverage" DESC, s.id DESC`,
    after: (value, id) => Prisma.sql`(s."ratingAverage", s.id) < (${value}::float8, ${id}::uuid)`,
    parse: z.number(),
  },
  bookmarks: {
    key: "bookmarkCount",
    order: Prisma.sql`s."bookmarkCount" DESC, s.id DESC`,
    after: (value, id) => Prisma.sql`(s."bookmarkCount", s.id) < (${value}::int, ${id}::uuid)`,
    parse: z.number().int().min(0).max(2 ** 31 - 1),
  },
  relevance: {
    key: "rank",
    order: Prisma.sql`s.rank DESC, s.id DESC`,
    after: (value, id) => Prisma.sql`(s.rank, s.id) < (${value}::float8, ${id}::uuid)`,
    parse: z.number(),
  },
};

const encodeCursor = (value: unknown, id: string) => Buffer.from(JSON.stringify([value, id])).toString("base64url");
function decodeCursor(cursor: string, parse: z.ZodType): [unknown, string] {
  try {
    const [value, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as [unknown, unknown];
    return [parse.parse(value), z.uuid().parse(id)];
  } catch {
    return fail("INVALID", PROMPT_MSG.invalidCursor, "INVALID_CURSOR");
  }
}

/**
 * One page of the prompts the caller may read in an organization: the visibility rule is part of
 * the SQL, so a page never holds what `get` would refuse, and filters and search narrow within it.
 * Keyset pagination: the cursor carries the last row's sort value and id.
 */
export async function listPrompts(db: DbOrTx, caller: Caller, input: ListPromptsInput & { organizationId: string }) {
  const limit = input.limit ?? 20;
  const tsquery = input.q ? prefixQuery(input.q) : null;
  const sortKey: SortKey = input.sort ?? (input.q ? "relevance" : "updated");
  const sort = SORTS[sortKey];
  const { joins, visible } = promptVisibility(caller);
  const where: Prisma.Sql[] = [Prisma.sql`p.organization_id = ${input.organizationId}::uuid`, visible];
  where.push(input.archived ? Prisma.sql`p.archived_at IS NOT NULL` : Prisma.sql`p.archived_at IS NULL`);
  if (input.teamId) where.push(Prisma.sql`p.team_id = ${input.teamId}::uuid`);
  if (input.tags?.length) where.push(Prisma.sql`p.tags @> ${input.tags}::text[]`);
  if (input.folder) where.push(Prisma.sql`starts_with(p.name, ${`${input.folder}/`})`);
  if (input.visibility) where.push(Prisma.sql`p.visibility = ${input.visibility}::prompt_visibility`);
  if (input.mine) where.push(Prisma.sql`p.author_id = ${caller.userId}::uuid`);
  if (input.bookmarked) where.push(Prisma.sql`EXISTS (SELECT 1 FROM prompt_bookmarks mb WHERE mb.prompt_id = p.id AND mb.user_id = ${caller.userId}::uuid)`);
  let rank = Prisma.sql`0::float8`;
  if (input.q) {
    // Full-text (english stems and plain words, each a prefix: 'cust' finds 'Customer') or, for typos,
    // trigram strict word similarity (threshold 0.5: 'custmer' is 0.55 from 'Customer') on title and
    // name. Both use the organization's search indexes.
    const query = tsquery
      ? Prisma.sql`(to_tsquery('english', ${tsquery}) || to_tsquery('simple', ${tsquery}))`
      : Prisma.sql`''::tsquery`;
    where.push(Prisma.sql`(p.search_vector @@ ${query}
      OR ${input.q} <<% p.title OR ${input.q} <<% p.name)`);
    rank = Prisma.sql`(ts_rank_cd(p.search_vector, ${query})::float8
      + GREATEST(strict_word_similarity(${input.q}, p.title), strict_word_similarity(${input.q}, p.name))::float8)`;
  }
  const after = input.cursor ? sort.after(...decodeCursor(input.cursor, sort.parse)) : Prisma.sql`TRUE`;
  // The page is chosen from prompts and the visibility joins alone, in the order of the organization's
  // sort index (s.id is the uuid), so LIMIT stops the index scan; only its rows get their team, latest
  // version, author, labels and bookmark state.
  const rows = await db.$queryRaw<(RawItem & { rank: number })[]>`
    SELECT ${itemColumns(caller)}, s.rank
    FROM (
      SELECT * FROM (
        SELECT p.id, p.updated_at AS "updatedAt", p.name, p.rating_average AS "ratingAverage",
               p.bookmark_count AS "bookmarkCount", ${rank} AS rank
        FROM prompts p ${joins}
        WHERE ${Prisma.join(where, " AND ")}
      ) s
      WHERE ${after}
      ORDER BY ${sort.order}
      LIMIT ${limit + 1}
    ) s
    JOIN prompts p ON p.id = s.id ${itemJoins}
    ORDER BY ${sort.order}`;
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const lastValue = last && (last[sort.key] instanceof Date ? (last[sort.key] as Date).toISOString() : last[sort.key]);
  return {
    items: page.map(({ rank: _rank, ...row }) => toItem(row as RawItem)),
    nextCursor: rows.length > limit && last ? encodeCursor(lastValue, last.id as string) : null,
  };
}

/** The folders (name prefixes) and tags of the prompts the caller may read, with counts, for the filters. */
export async function promptFacets(db: DbOrTx, caller: Caller, organizationId: string, teamId?: string) {
  const { joins, visible } = promptVisibility(caller);
  const scope = Prisma.sql`p.organization_id = ${organizationId}::uuid AND p.archived_at IS NULL AND ${visible}
    AND ${teamId ? Prisma.sql`p.team_id = ${teamId}::uuid` : Prisma.sql`TRUE`}`;
  const [folders, tags] = await Promise.all([
    db.$queryRaw<{ path: string; count: number }[]>`
      SELECT f.path, count(*)::int AS count
      FROM prompts p ${joins}
      CROSS JOIN LATERAL (
        SELECT array_to_string((string_to_array(p.name, '/'))[1:n], '/') AS path
        FROM generate_series(1, cardinality(string_to_array(p.name, '/')) - 1) AS n
      ) f
      WHERE ${scope}
      GROUP BY f.path ORDER BY f.path COLLATE "C"`,
    db.$queryRaw<{ tag: string; count: number }[]>`
      SELECT tag, count(*)::int AS count
      FROM prompts p ${joins} CROSS JOIN LATERAL unnest(p.tags) AS tag
      WHERE ${scope}
      GROUP BY tag ORDER BY count(*) DESC, tag LIMIT 100`,
  ]);
  return { folders, tags };
}

/** The most bookmarked prompts of the last 30 days, then the best rated (the dashboard's Popular tab). */
export async function popularPrompts(db: DbOrTx, caller: Caller, organizationId: string, teamId: string | undefined, now: Date) {
  const { joins, visible } = promptVisibility(caller);
  const since = new Date(now.getTime() - 30 * 24 * 3600 * 1000);
  const rows = await db.$queryRaw<(RawItem & { recent: number })[]>`
    SELECT * FROM (
      SELECT ${itemColumns(caller)},
             (SELECT count(*) FROM prompt_bookmarks rb WHERE rb.prompt_id = p.id AND rb.created_at >= ${since})::int AS recent
      FROM prompts p ${joins} ${itemJoins}
      WHERE p.organization_id = ${organizationId}::uuid AND p.archived_at IS NULL AND ${visible}
        AND ${teamId ? Prisma.sql`p.team_id = ${teamId}::uuid` : Prisma.sql`TRUE`}
        AND (p.bookmark_count > 0 OR p.rating_count > 0)
    ) s
    WHERE s.recent > 0 OR s."ratingCount" > 0
    ORDER BY s.recent DESC, s."ratingAverage" DESC, s."bookmarkCount" DESC, s.id DESC
    LIMIT 6`;
  return rows.map(({ recent: _recent, ...row }) => toItem(row as RawItem));
}

// ---- one prompt ----

const versionColumns = Prisma.sql`
  v.version, v.type::text AS type, v.template, v.messages, v.variables, v.model, v.config,
  v.commit_message AS "commitMessage", v.created_at AS "createdAt",
  CASE WHEN v.author_id IS NULL THEN NULL
       ELSE json_build_object('id', v.author_id, 'fullName', vp.full_name, 'avatarKey', vp.avatar_key) END AS author`;

const withAvatar = <T extends { author: RawItem["author"] }>({ author, ...row }: T) => ({
  ...row,
  author: author && { id: author.id, fullName: author.fullName, avatarUrl: avatarUrl(author.avatarKey) },
});

/** The prompt with one version: `version`, else `label`, else `production` when set, else the latest. */
export async function getPrompt(db: DbOrTx, caller: Caller, prompt: LoadedPrompt, choose: { version?: number; label?: string }) {
  const { joins } = promptVisibility(caller);
  const [row] = await db.$queryRaw<RawItem[]>`
    SELECT ${itemColumns(caller)}, p.organization_id::text AS "organizationId",
           (SELECT r.stars FROM prompt_ratings r WHERE r.prompt_id = p.id AND r.user_id = ${caller.userId}::uuid)::int AS "myRating",
           t.required_approvals AS "requiredApprovals"
    FROM prompts p ${joins} ${itemJoins}
    WHERE p.id = ${prompt.id}::uuid`;
  if (!row) return fail("NOT_FOUND", PROMPT_MSG.versionNotFound);
  const item = toItem(row);
  let version: number | undefined = choose.version;
  if (choose.label === LATEST_LABEL) version = item.latestVersion;
  else if (choose.label) {
    version = item.labels.find((label) => label.name === choose.label)?.version;
    if (version === undefined) fail("NOT_FOUND", PROMPT_MSG.labelNotFound, "LABEL_NOT_FOUND");
  } else if (version === undefined) {
    version = item.labels.find((label) => label.name === PROTECTED_LABEL)?.version ?? item.latestVersion;
  }
  const versionRow = (version === undefined ? null : await loadVersion(db, prompt.id, version)) ?? fail("NOT_FOUND", PROMPT_MSG.versionNotFound, "VERSION_NOT_FOUND");
  return promptDetail.parse({
    ...item,
    organizationId: row.organizationId,
    myRating: row.myRating ?? null,
    requiredApprovals: row.requiredApprovals,
    version: versionRow,
    can: promptAbilities(prompt.access, prompt.facts),
  });
}

/** One version of a prompt with its body and its contract in force (null when there is none), as `getPrompt` shows it. */
export async function loadVersion(db: DbOrTx, promptId: string, version: number) {
  const [row] = await db.$queryRaw<(Record<string, unknown> & { author: RawItem["author"] })[]>`
    SELECT ${versionColumns}
    FROM prompt_versions v LEFT JOIN profiles vp ON vp.user_id = v.author_id
    WHERE v.prompt_id = ${promptId}::uuid AND v.version = ${version}`;
  if (!row) return null;
  const answer = promptVersionItem.parse(withAvatar(row));
  return { ...answer, variables: effectiveContract(answer) };
}

/** The versions of a prompt, newest first, with the labels on each; `cursor` is the last version seen. */
export async function listVersions(db: DbOrTx, promptId: string, cursor: number | undefined, limit = 50) {
  const rows = await db.$queryRaw<(Record<string, unknown> & { author: RawItem["author"]; version: number })[]>`
    SELECT v.version, v.type::text AS type, v.model, v.commit_message AS "commitMessage", v.created_at AS "createdAt",
           CASE WHEN v.author_id IS NULL THEN NULL
                ELSE json_build_object('id', v.author_id, 'fullName', vp.full_name, 'avatarKey', vp.avatar_key) END AS author,
           COALESCE((SELECT array_agg(l.name ORDER BY l.name) FROM prompt_labels l WHERE l.prompt_id = v.prompt_id AND l.version = v.version), '{}') AS labels
    FROM prompt_versions v LEFT JOIN profiles vp ON vp.user_id = v.author_id
    WHERE v.prompt_id = ${promptId}::uuid AND v.version < ${cursor ?? 2147483647}
    ORDER BY v.version DESC
    LIMIT ${limit + 1}`;
  const page = rows.slice(0, limit);
  return versionHistoryPage.parse({
    items: page.map(withAvatar),
    nextCursor: rows.length > limit ? (page.at(-1)?.version ?? null) : null,
  });
}

// ---- writes ----

/** Who a write is recorded as: a person, or nobody when an API key makes it. */
export type Author = { userId: string | null };

type VersionBody = NonNullable<Extract<ReturnType<typeof versionBodyOf>, { body: unknown }>["body"]>;

function bodyOf(fields: CreateVersionInput | CreatePromptInput): VersionBody {
  const found = versionBodyOf(fields);
  return "body" in found ? found.body : fail("INVALID", found.problem);
}

const versionData = (body: VersionBody, fields: CreateVersionInput | CreatePromptInput, authorId: string | null) => ({
  type: body.type,
  template: body.type === "text" ? body.template : null,
  messages: body.type === "chat" ? (body.messages as unknown as Prisma.InputJsonValue) : Prisma.DbNull,
  variables: (body.variables ?? []) as unknown as Prisma.InputJsonValue,
  model: fields.model ?? "",
  config: (fields.config ?? {}) as Prisma.InputJsonValue,
  commitMessage: fields.commitMessage ?? "",
  authorId,
});

/**
 * A prompt and its version 1, together. A name taken in the team is ALREADY_EXISTS, also under concurrent creates.
 * The author is the signed-in person, or none when an API key creates it (a key is not a person).
 */
export async function createPrompt(
  db: Db,
  caller: Author,
  team: { teamId: string; organizationId: string },
  input: CreatePromptInput,
  now: Date,
  context: AuditContext,
) {
  if (input.visibility === "private" && caller.userId === null) fail("INVALID", RUNTIME_MSG.privateByKey, "PRIVATE_BY_KEY");
  const body = bodyOf(input);
  try {
    return await db.$transaction(async (tx) => {
      const prompt = await tx.prompt.create({
        data: {
          organizationId: team.organizationId,
          teamId: team.teamId,
          name: input.name,
          title: input.title,
          description: input.description ?? "",
          tags: input.tags ?? [],
          visibility: input.visibility,
          authorId: caller.userId,
          latestVersion: 1,
          createdAt: now,
          updatedAt: now,
        },
        select: { id: true, name: true },
      });
      await tx.promptVersion.create({ data: { promptId: prompt.id, version: 1, createdAt: now, ...versionData(body, input, caller.userId) } });
      await auditAs(tx, context, {
        organizationId: team.organizationId,
        teamId: team.teamId,
        action: "prompt.create",
        target: { type: "prompt", id: prompt.id, name: prompt.name },
        after: { name: prompt.name, title: input.title, visibility: input.visibility, version: 1 },
      });
      return { id: prompt.id, name: prompt.name, version: 1 };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return fail("ALREADY_EXISTS", PROMPT_MSG.nameTaken, "NAME_TAKEN");
    throw error;
  }
}

/**
 * The next version: the prompt's row is locked by incrementing its counter, so concurrent saves take
 * numbers one after another, without gaps or repeats. The type is the one given, or read from what is given.
 */
export async function createVersion(db: Db, caller: Author, prompt: LoadedPrompt, input: CreateVersionInput, now: Date, context: AuditContext) {
  refuseArchived(prompt);
  const body = bodyOf(input);
  return db.$transaction(async (tx) => {
    const { latestVersion: version } = await touchLivePrompt(tx, prompt.id, now, { nextVersion: true });
    await tx.promptVersion.create({ data: { promptId: prompt.id, version, createdAt: now, ...versionData(body, input, caller.userId) } });
    await auditPrompt(tx, context, prompt, "prompt.version", { after: { version, commitMessage: input.commitMessage ?? "" } });
    return { version };
  });
}

/**
 * Title, description, tags, visibility. Only the author (or a super user) makes a prompt private: it
 * becomes theirs alone. Sharing it again carries its `production` only as the prompt rules allow.
 */
export async function updatePrompt(
  db: Db,
  prompt: LoadedPrompt,
  input: { title?: string; description?: string; tags?: string[]; visibility?: PromptFacts["visibility"] },
  now: Date,
  context: AuditContext,
) {
  refuseArchived(prompt);
  if (input.visibility === "private" && prompt.facts.visibility !== "private" && !canOnPrompt(prompt.access, { ...prompt.facts, visibility: "private" }, "read")) {
    fail("FORBIDDEN", PROMPT_MSG.privateAuthorOnly);
  }
  const fields = { title: true, description: true, tags: true, visibility: true } as const;
  await db.$transaction(async (tx) => {
    await lockLivePrompt(tx, prompt.id);
    refuse(await shareRefusal(tx, prompt, input.visibility));
    const before = await tx.prompt.findUniqueOrThrow({ where: { id: prompt.id }, select: fields });
    const after = await tx.prompt.update({
      where: { id: prompt.id },
      data: { title: input.title, description: input.description, tags: input.tags, visibility: input.visibility, updatedAt: now },
      select: fields,
    });
    await auditPrompt(tx, context, prompt, "prompt.update", { before, after });
  });
}

/** A rename, like an update, reads the prompt live under its row's lock: an archive at the same moment comes first or waits. */
export async function renamePrompt(db: Db, prompt: LoadedPrompt, name: string, now: Date, context: AuditContext) {
  refuseArchived(prompt);
  try {
    await db.$transaction(async (tx) => {
      await lockLivePrompt(tx, prompt.id);
      const before = await tx.prompt.findUniqueOrThrow({ where: { id: prompt.id }, select: { name: true } });
      await tx.prompt.update({ where: { id: prompt.id }, data: { name, updatedAt: now } });
      await auditPrompt(tx, context, prompt, "prompt.rename", { name, before, after: { name } });
    });
  } catch (error) {
    if (isUniqueViolation(error)) return fail("ALREADY_EXISTS", PROMPT_MSG.nameTaken, "NAME_TAKEN");
    throw error;
  }
}

/** Archive and restore are idempotent: the answer is the state asked for, and a prompt already in it is left as it is. */
export async function setArchived(db: Db, prompt: LoadedPrompt, archived: boolean, now: Date, context: AuditContext) {
  return db.$transaction(async (tx) => {
    const row = await tx.prompt.update({
      where: { id: prompt.id },
      data: archived === prompt.archived ? {} : { archivedAt: archived ? now : null, updatedAt: now },
      select: { archivedAt: true },
    });
    // Asking for the state it is already in changes nothing: nothing to record.
    if (archived !== prompt.archived) await auditPrompt(tx, context, prompt, archived ? "prompt.archive" : "prompt.restore", {});
    return { archivedAt: row.archivedAt };
  });
}

/** For good, with its versions, labels, bookmarks and ratings; archived prompts only. */
export async function deletePrompt(db: Db, prompt: LoadedPrompt, context: AuditContext) {
  await db.$transaction(async (tx) => {
    await auditPrompt(tx, context, prompt, "prompt.delete", {});
    const { count } = await tx.prompt.deleteMany({ where: { id: prompt.id, archivedAt: { not: null } } });
    if (count === 0) fail("STATE_CONFLICT", PROMPT_MSG.notArchived, "NOT_ARCHIVED");
  });
}

/** One audit entry about a prompt, in its organization and team. */
function auditPrompt(
  tx: DbOrTx,
  context: AuditContext,
  prompt: Pick<LoadedPrompt, "id" | "teamId" | "organizationId">,
  action: Exclude<Extract<AuditAction, `prompt.${string}`>, "prompt.create">,
  entry: { name?: string; before?: unknown; after?: unknown },
) {
  return auditAs(tx, context, {
    organizationId: prompt.organizationId,
    teamId: prompt.teamId,
    action,
    target: { type: "prompt", id: prompt.id, name: entry.name ?? null },
    before: entry.before,
    after: entry.after,
  });
}

/**
 * Marks a change of a live prompt: updates its time (and, for a new version, takes the next number)
 * under the row's lock, so an archive at the same moment either comes first (CONFLICT) or waits.
 */
async function touchLivePrompt(tx: DbTransaction, promptId: string, now: Date, options: { nextVersion?: boolean } = {}) {
  const [row] = await tx.$queryRaw<{ latestVersion: number }[]>`
    UPDATE prompts SET updated_at = ${now}, latest_version = latest_version + ${options.nextVersion ? 1 : 0}
    WHERE id = ${promptId}::uuid AND archived_at IS NULL
    RETURNING latest_version AS "latestVersion"`;
  if (!row) refuse(archivedRefusal(true));
  return row!;
}

/** What stops the caller moving (or removing) `label` of this prompt directly, by the prompt rules. */
const refuseDirectLabelChange = async (db: DbOrTx, prompt: LoadedPrompt, label: string, change: "move" | "remove") =>
  refuse(directLabelRefusal(label, prompt, label === PROTECTED_LABEL ? await requiredApprovals(db, prompt.teamId) : 0, change));

/** Points `label` at `version` (rolling back is pointing it at an older one). `production` needs team admin level, and no review required. */
export async function setLabel(db: Db, caller: Author, prompt: LoadedPrompt, label: string, version: number, now: Date, context: AuditContext) {
  refuseArchived(prompt);
  await refuseDirectLabelChange(db, prompt, label, "move");
  return db.$transaction((tx) => moveLabel(tx, prompt, label, version, caller.userId, now, context));
}

/**
 * Moves a label inside the caller's transaction, under the prompt row's lock (an archived prompt is
 * refused). Every move of `production`, directly or through a change request, is notified here.
 */
export async function moveLabel(
  tx: DbTransaction,
  prompt: Pick<LoadedPrompt, "id" | "teamId" | "organizationId">,
  label: string,
  version: number,
  moverId: string | null,
  now: Date,
  context: AuditContext,
) {
  const promptId = prompt.id;
  await touchLivePrompt(tx, promptId, now);
  const exists = await tx.promptVersion.findUnique({ where: { promptId_version: { promptId, version } }, select: { id: true } });
  if (!exists) fail("NOT_FOUND", PROMPT_MSG.versionNotFound, "VERSION_NOT_FOUND");
  // The label history: where it pointed before this move (null: it did not exist).
  const previous = await tx.promptLabel.findUnique({ where: { promptId_name: { promptId, name: label } }, select: { version: true } });
  await auditPrompt(tx, context, prompt, "prompt.label.set", { before: { label, version: previous?.version ?? null }, after: { label, version } });
  await tx.$executeRaw`
    INSERT INTO prompt_labels (prompt_id, name, version, moved_by, moved_at)
    VALUES (${promptId}::uuid, ${label}, ${version}, ${moverId}::uuid, ${now})
    ON CONFLICT (prompt_id, name) DO UPDATE SET version = EXCLUDED.version, moved_by = EXCLUDED.moved_by, moved_at = EXCLUDED.moved_at`;
  if (label === PROTECTED_LABEL) await notify(tx, { kind: "production_moved", promptId, version, actorId: moverId }, now);
  return { label, version };
}

export async function removeLabel(db: Db, prompt: LoadedPrompt, label: string, now: Date, context: AuditContext) {
  refuseArchived(prompt);
  await refuseDirectLabelChange(db, prompt, label, "remove");
  await db.$transaction(async (tx) => {
    await touchLivePrompt(tx, prompt.id, now);
    const previous = await tx.promptLabel.findUnique({ where: { promptId_name: { promptId: prompt.id, name: label } }, select: { version: true } });
    const { count } = await tx.promptLabel.deleteMany({ where: { promptId: prompt.id, name: label } });
    if (count === 0 || !previous) return fail("NOT_FOUND", PROMPT_MSG.labelNotFound, "LABEL_NOT_FOUND");
    await auditPrompt(tx, context, prompt, "prompt.label.remove", { before: { label, version: previous.version }, after: { label, version: null } });
  });
}

/** Whether `name` is free in the team (the editor checks as the author types). */
export async function isNameAvailable(db: DbOrTx, teamId: string, name: string) {
  const row = await db.prompt.findUnique({ where: { teamId_name: { teamId, name } }, select: { id: true } });
  return { available: !row };
}

// ---- bookmarks and ratings ----

export async function addBookmark(db: DbOrTx, caller: Caller, promptId: string, now: Date) {
  await db.$executeRaw`
    INSERT INTO prompt_bookmarks (user_id, prompt_id, created_at) VALUES (${caller.userId}::uuid, ${promptId}::uuid, ${now})
    ON CONFLICT DO NOTHING`;
  return { bookmarked: true };
}

export async function removeBookmark(db: DbOrTx, caller: Caller, promptId: string) {
  await db.promptBookmark.deleteMany({ where: { userId: caller.userId, promptId } });
  return { bookmarked: false };
}

/** Sets the caller's stars; the answer is the prompt's new average. */
export async function setRating(db: DbOrTx, caller: Caller, promptId: string, stars: number | null, now: Date) {
  if (stars === null) await db.promptRating.deleteMany({ where: { userId: caller.userId, promptId } });
  else {
    await db.$executeRaw`
      INSERT INTO prompt_ratings (user_id, prompt_id, stars, created_at, updated_at)
      VALUES (${caller.userId}::uuid, ${promptId}::uuid, ${stars}, ${now}, ${now})
      ON CONFLICT (user_id, prompt_id) DO UPDATE SET stars = EXCLUDED.stars, updated_at = EXCLUDED.updated_at`;
  }
  const row = await db.prompt.findUniqueOrThrow({ where: { id: promptId }, select: { ratingAverage: true, ratingCount: true } });
  return { myRating: stars, ratingAverage: row.ratingAverage, ratingCount: row.ratingCount };
}

// ---- dashboard ----

export const dashboardStats = z.object({
  totalPrompts: z.number(),
  promptsThisMonth: z.number(),
  teamMembers: z.number().nullable(),
  teamMembersThisMonth: z.number().nullable(),
  bookmarks: z.number(),
  bookmarksThisMonth: z.number(),
  averageRating: z.number().nullable(),
  ratingCount: z.number(),
});

/** The dashboard's four figures for the organization (and its active team), counted within the visibility rule. */
export async function getDashboardStats(db: DbOrTx, caller: Caller, organizationId: string, teamId: string | undefined, now: Date) {
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const { joins, visible } = promptVisibility(caller);
  const [prompts] = await db.$queryRaw<{ total: number; recent: number; ratingSum: number; ratingCount: number; bookmarks: number; bookmarksRecent: number }[]>`
    SELECT count(*)::int AS total,
           count(*) FILTER (WHERE p.created_at >= ${monthStart})::int AS recent,
           COALESCE(sum(p.rating_sum), 0)::int AS "ratingSum", COALESCE(sum(p.rating_count), 0)::int AS "ratingCount",
           count(mb.prompt_id)::int AS bookmarks,
           count(mb.prompt_id) FILTER (WHERE mb.created_at >= ${monthStart})::int AS "bookmarksRecent"
    FROM prompts p ${joins}
    LEFT JOIN prompt_bookmarks mb ON mb.prompt_id = p.id AND mb.user_id = ${caller.userId}::uuid
    WHERE p.organization_id = ${organizationId}::uuid AND p.archived_at IS NULL AND ${visible}`;
  const members = teamId
    ? (
        await db.$queryRaw<{ total: number; recent: number }[]>`
          SELECT count(*)::int AS total, count(*) FILTER (WHERE joined_at >= ${monthStart})::int AS recent
          FROM team_members WHERE team_id = ${teamId}::uuid`
      )[0]
    : undefined;
  return dashboardStats.parse({
    totalPrompts: prompts?.total ?? 0,
    promptsThisMonth: prompts?.recent ?? 0,
    teamMembers: members?.total ?? null,
    teamMembersThisMonth: members?.recent ?? null,
    bookmarks: prompts?.bookmarks ?? 0,
    bookmarksThisMonth: prompts?.bookmarksRecent ?? 0,
    averageRating: prompts && prompts.ratingCount > 0 ? prompts.ratingSum / prompts.ratingCount : null,
    ratingCount: prompts?.ratingCount ?? 0,
  });
}
