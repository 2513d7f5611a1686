// What the Langfuse-compatible API (/api/public) reads beyond the runtime API's services:
// numbered pages of the key's prompts with the versions a filter matches, and the key's team as a
// Langfuse project. Which prompts a key sees is the one visibility rule's (promptVisibility), as in
// listRuntimePrompts: its team's, not private, not archived. `latest` is on each prompt's newest
// version, never stored.
import { Prisma, type DbOrTx } from "@promptly/db";
import { LATEST_LABEL, MSG, langfuseConfigOf, type PromptTool, type ResponseFormat } from "@promptly/shared";
import { fail } from "../../errors.ts";
import { keyVersionsVisible, labelServesVersion, promptVisibility, type KeyCaller } from "../access/visibility.ts";

interface PageQuery {
  name?: string;
  label?: string;
  tag?: string;
  version?: number;
  page: number;
  limit: number;
  /** Versions saved at or after (a Promptly version never changes once saved, so its save is its last update). */
  fromUpdatedAt?: Date;
  /** Versions saved before. */
  toUpdatedAt?: Date;
}

export interface PromptVersionsMeta {
  name: string;
  /** The type of its newest matching version. */
  type: "text" | "chat";
  versions: number[];
  /** The labels on the matching versions (a split label on both of its), `latest` included where the newest version matches. */
  labels: string[];
  tags: string[];
  lastUpdatedAt: string;
  /** The config of its newest matching version. */
  lastConfig: unknown;
}

/**
 * One page (by name) of the key's prompts that have a version matching every filter, each with those
 * versions, and how many prompts match in all. A label-bound key's versions are those its labels point to.
 */
export async function pageRuntimePromptVersions(db: DbOrTx, caller: KeyCaller, query: PageQuery): Promise<{ data: PromptVersionsMeta[]; totalItems: number }> {
  const { joins, visible } = promptVisibility(caller);
  const where: Prisma.Sql[] = [visible];
  if (query.name !== undefined) where.push(Prisma.sql`p.name = ${query.name}`);
  if (query.tag !== undefined) where.push(Prisma.sql`p.tags @> ARRAY[${query.tag}]::text[]`);
  if (query.version !== undefined) where.push(Prisma.sql`v.version = ${query.version}`);
  if (query.label === LATEST_LABEL) where.push(Prisma.sql`v.version = p.latest_version`);
  else if (query.label !== undefined) {
    // A split label is on both its versions: its fetches serve either (labelOn).
    where.push(Prisma.sql`EXISTS (SELECT 1 FROM prompt_labels fl WHERE fl.prompt_id = p.id AND ${labelServesVersion("fl", "v")} AND fl.name = ${query.label})`);
  }
  // A key bound to labels sees only the versions its labels point to (keyVersionsVisible): its versions, labels and last
  // config come from those alone, and a version or label filter outside them matches nothing.
  where.push(keyVersionsVisible(caller, "p", "v"));
  if (query.fromUpdatedAt) where.push(Prisma.sql`v.created_at >= ${query.fromUpdatedAt}`);
  if (query.toUpdatedAt) where.push(Prisma.sql`v.created_at < ${query.toUpdatedAt}`);
  const matched = Prisma.sql`
    SELECT p.id, p.name, p.tags, p.latest_version, v.version, v.type::text AS type, v.config, v.tools, v.response_format, v.created_at
    FROM prompts p ${joins} JOIN prompt_versions v ON v.prompt_id = p.id
    WHERE ${Prisma.join(where, " AND ")}`;
  const [rows, [count]] = await Promise.all([
    db.$queryRaw<(Omit<PromptVersionsMeta, "lastUpdatedAt"> & { lastUpdatedAt: Date })[]>`
      WITH matched AS (${matched}),
      page AS (
        SELECT id, name, tags FROM matched GROUP BY id, name, tags
        ORDER BY name COLLATE "C", id LIMIT ${query.limit} OFFSET ${(query.page - 1) * query.limit}
      )
      SELECT pg.name, pg.tags,
             (SELECT m.type FROM matched m WHERE m.id = pg.id ORDER BY m.version DESC LIMIT 1) AS type,
             (SELECT json_build_object('config', m.config, 'tools', m.tools, 'responseFormat', m.response_format)
                FROM matched m WHERE m.id = pg.id ORDER BY m.version DESC LIMIT 1) AS "lastConfig",
             (SELECT array_agg(m.version ORDER BY m.version) FROM matched m WHERE m.id = pg.id) AS versions,
             (SELECT max(m.created_at) FROM matched m WHERE m.id = pg.id) AS "lastUpdatedAt",
             ARRAY(SELECT s.name FROM (
                     SELECT l.name FROM matched m JOIN prompt_labels l ON l.prompt_id = m.id AND ${labelServesVersion("l", "m")} WHERE m.id = pg.id
                     UNION SELECT ${LATEST_LABEL}::text FROM matched m WHERE m.id = pg.id AND m.version = m.latest_version
                   ) s ORDER BY s.name COLLATE "C") AS labels
      FROM page pg
      ORDER BY pg.name COLLATE "C", pg.id`,
    db.$queryRaw<{ total: number }[]>`WITH matched AS (${matched}) SELECT COUNT(DISTINCT id)::int AS total FROM matched`,
  ]);
  // The config as the Langfuse API answers it: tools and response format in it, in OpenAI's names.
  const configOf = (last: unknown) => {
    const { config, tools, responseFormat } = last as { config: Record<string, unknown>; tools: PromptTool[]; responseFormat: ResponseFormat | null };
    return langfuseConfigOf(config, tools, responseFormat);
  };
  return { data: rows.map((row) => ({ ...row, lastConfig: configOf(row.lastConfig), lastUpdatedAt: row.lastUpdatedAt.toISOString() })), totalItems: count?.total ?? 0 };
}

/** The key's team as a Langfuse project, in its organization. */
export async function keyProject(db: DbOrTx, caller: KeyCaller) {
  const team = await db.team.findUnique({ where: { id: caller.apiKey.teamId }, select: { id: true, name: true, organization: { select: { id: true, name: true } } } });
  return team ?? fail("NOT_FOUND", MSG.notFound);
}
