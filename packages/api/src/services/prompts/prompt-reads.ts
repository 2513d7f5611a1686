// Reading the library: a page of prompts (filters, search, sorts, keyset cursors), its facets, and one prompt with a version.
import { z } from "zod";
import { Prisma, type DbOrTx } from "@promptly/db";
import { LATEST_LABEL, PROMPT_MSG, bodyIncludes, effectiveContract, type PromptMessage, type VariableContract, PROTECTED_LABEL, promptAbilities, promptNameSchema, type ListPromptsInput, type OrganizationRole } from "@promptly/shared";
import { DomainError, fail } from "../../errors.ts";
import { includesAndUsedBy, resolveIncludes, type IncludeBody, type IncludeReader } from "./prompt-includes.ts";
import { decodeKeysetCursor, encodeKeysetCursor } from "../platform/keyset-cursor.ts";
import { organizationAccessOf, organizationAccessRow, type Caller, type OrganizationDecision } from "../access/access.ts";
import { promptVisibility } from "../access/visibility.ts";
import { accessColumn, loadedPromptOf, type AccessRow, type PromptDecision } from "./loaded-prompt.ts";
import { itemColumns, itemJoins, toItem, versionColumnsAs, type RawItem } from "./prompt-rows.ts";
import { promptDetail } from "./prompt-shapes.ts";
import { versionAnswer } from "./prompt-versions.ts";

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

/** The rows after a cursor's position in `sort`'s order. */
const afterCursor = (sort: { after: (value: unknown, id: string) => Prisma.Sql }, cursor: { sortValue: unknown; id: string }) => sort.after(cursor.sortValue, cursor.id);

/**
 * One page of the prompts the caller may read in an organization: the visibility rule is part of
 * the SQL, so a page never holds what `get` would refuse, and filters and search narrow within it.
 * Keyset pagination: the cursor carries the last row's sort value and id. The same statement loads the
 * caller's access in the organization, and `decide` is the procedure builder's decision on it.
 */
export async function listPrompts(db: DbOrTx, caller: Caller, input: ListPromptsInput & { organizationId: string }, decide: OrganizationDecision) {
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
  const after = input.cursor ? afterCursor(sort, decodeKeysetCursor(input.cursor, sort.parse)) : Prisma.sql`TRUE`;
  // The page is chosen from prompts and the visibility joins alone, in the order of the organization's
  // sort index (s.id is the uuid), so LIMIT stops the index scan; only its rows get their team, latest
  // version, author, labels and bookmark state. The page hangs off the caller's access row: no access
  // row, no rows at all; access and no prompts, one row of NULLs.
  const rows = await db.$queryRaw<(RawItem & { rank: number; organizationRole: OrganizationRole | null })[]>`
    SELECT a."organizationRole", ${itemColumns(caller)}, s.rank
    FROM (${organizationAccessRow(caller, input.organizationId)}) a
    LEFT JOIN (
      (
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
    ) ON TRUE
    ORDER BY ${sort.order}`;
  decide(organizationAccessOf(caller, input.organizationId, rows[0]));
  const found = rows.filter((row) => row.id !== null);
  const page = found.slice(0, limit);
  const last = page.at(-1);
  const lastValue = last && (last[sort.key] instanceof Date ? (last[sort.key] as Date).toISOString() : last[sort.key]);
  return {
    items: page.map(({ rank: _rank, organizationRole: _role, ...row }) => toItem(row as RawItem)),
    nextCursor: found.length > limit && last ? encodeKeysetCursor(lastValue as string | number, last.id as string) : null,
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

/** The version `getPrompt` shows, as SQL on `p`: `version`, else `label`, else `production` when set, else the latest. */
function chosenVersion(choose: { version?: number; label?: string }) {
  const labelled = (label: string) => Prisma.sql`(SELECT l.version FROM prompt_labels l WHERE l.prompt_id = p.id AND l.name = ${label})`;
  if (choose.label === LATEST_LABEL) return Prisma.sql`p.latest_version`;
  if (choose.label) return labelled(choose.label);
  if (choose.version !== undefined) return Prisma.sql`${choose.version}::bigint`;
  return Prisma.sql`COALESCE(${labelled(PROTECTED_LABEL)}, p.latest_version)`;
}

/**
 * The page's version with its includes resolved with the reader's access (null when it includes
 * nothing): a refusal is said on the page (which still opens, to fix it), not thrown.
 */
async function resolvedForPage(
  db: DbOrTx,
  reader: IncludeReader,
  teamId: string,
  version: { name: string; id: string; version: number; type: "text" | "chat"; template: string | null; messages: PromptMessage[] | null; variables: VariableContract[] },
) {
  const written: IncludeBody = version.type === "text" ? { type: "text", template: version.template ?? "" } : { type: "chat", messages: version.messages ?? [] };
  if (!bodyIncludes(written).length) return null;
  try {
    const { body, graph } = await resolveIncludes(db, reader, teamId, { name: version.name, version: version.version, id: version.id, body: written }, "STATE_CONFLICT");
    return {
      ok: true as const,
      template: body.type === "text" ? body.template : null,
      messages: body.type === "chat" ? body.messages : null,
      variables: effectiveContract({ ...body, variables: version.variables }),
      graph,
    };
  } catch (error) {
    if (error instanceof DomainError) return { ok: false as const, message: error.message };
    throw error;
  }
}

/**
 * The prompt with one version (chosenVersion), in one statement that also loads the caller's access:
 * `decide` is the procedure builder's decision on it, taken before anything of the prompt is answered.
 */
export async function getPrompt(db: DbOrTx, caller: Caller, promptId: string, decide: PromptDecision, choose: { version?: number; label?: string }) {
  const { joins } = promptVisibility(caller);
  const [row] = await db.$queryRaw<(RawItem & { access: AccessRow; chosen: boolean; "v.version": number | null; versionId: string | null })[]>`
    SELECT ${itemColumns(caller)}, p.organization_id::text AS "organizationId",
           (SELECT r.stars FROM prompt_ratings r WHERE r.prompt_id = p.id AND r.user_id = ${caller.userId}::uuid)::int AS "myRating",
           t.required_approvals AS "requiredApprovals", ${accessColumn}, c.chosen IS NOT NULL AS chosen, ${versionColumnsAs("v.")}, v.id::text AS "versionId"
    FROM prompts p ${joins} ${itemJoins}
    CROSS JOIN LATERAL (SELECT (${chosenVersion(choose)})::bigint AS chosen) c
    LEFT JOIN prompt_versions v ON v.prompt_id = p.id AND v.version = c.chosen
    LEFT JOIN profiles vp ON vp.user_id = v.author_id
    WHERE p.id = ${promptId}::uuid`;
  const prompt = decide(loadedPromptOf(caller, promptId, row?.access));
  // decide answered a missing row (NOT_FOUND): from here on there is one.
  const { access: _access, chosen, versionId, ...rest } = row!;
  const version = Object.fromEntries(Object.entries(rest).filter(([key]) => key.startsWith("v.")).map(([key, value]) => [key.slice(2), value]));
  const item = Object.fromEntries(Object.entries(rest).filter(([key]) => !key.startsWith("v."))) as RawItem;
  if (!chosen && choose.label) fail("NOT_FOUND", PROMPT_MSG.labelNotFound, "LABEL_NOT_FOUND");
  if (rest["v.version"] === null) fail("NOT_FOUND", PROMPT_MSG.versionNotFound, "VERSION_NOT_FOUND");
  const stored = version as { version: number; type: "text" | "chat"; template: string | null; messages: PromptMessage[] | null; variables: VariableContract[] };
  const [resolved, { includes, usedBy }] = await Promise.all([
    resolvedForPage(db, { caller, access: prompt.access }, prompt.teamId, { name: item.name as string, id: versionId!, ...stored }),
    includesAndUsedBy(db, promptVisibility(caller), { id: promptId, teamId: prompt.teamId, versionId: versionId! }),
  ]);
  return promptDetail.parse({
    ...toItem(item),
    organizationId: rest.organizationId,
    myRating: rest.myRating ?? null,
    requiredApprovals: rest.requiredApprovals,
    version: versionAnswer(version as Parameters<typeof versionAnswer>[0]),
    resolved,
    includes,
    usedBy,
    can: promptAbilities(prompt.access, prompt.facts),
  });
}
