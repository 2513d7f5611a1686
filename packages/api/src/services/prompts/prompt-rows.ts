// The SQL columns of a prompt list item and of a version, and how their rows become the shapes' answers.
import { Prisma } from "@promptly/db";
import type { Caller } from "../access/access.ts";
import { avatarUrl } from "../identity/account.ts";
import { promptListItem } from "./prompt-shapes.ts";

/** The columns of a list item, for `FROM prompts p ${promptVisibility.joins}`. */
export const itemColumns = (caller: Caller) => Prisma.sql`
  p.id::text AS id, p.team_id::text AS "teamId", t.name AS "teamName", p.name, p.title, p.description, p.tags,
  p.visibility::text AS visibility, lv.type::text AS type, p.latest_version AS "latestVersion",
  COALESCE((SELECT json_agg(json_build_object('name', l.name, 'version', l.version, 'split',
                   CASE WHEN l.candidate_version IS NULL THEN NULL ELSE json_build_object('version', l.candidate_version, 'weight', l.candidate_weight) END) ORDER BY l.name)
            FROM prompt_labels l WHERE l.prompt_id = p.id), '[]'::json) AS labels,
  CASE WHEN p.author_id IS NULL THEN NULL
       ELSE json_build_object('id', p.author_id, 'fullName', ap.full_name, 'email', (SELECT au.email FROM users au WHERE au.id = p.author_id), 'avatarKey', ap.avatar_key) END AS author,
  p.rating_average AS "ratingAverage", p.rating_count AS "ratingCount", p.bookmark_count AS "bookmarkCount",
  EXISTS (SELECT 1 FROM prompt_bookmarks b WHERE b.prompt_id = p.id AND b.user_id = ${caller.userId}::uuid) AS bookmarked,
  (SELECT count(*)::int FROM prompt_comments c WHERE c.prompt_id = p.id AND c.deleted_at IS NULL) AS "commentCount", p.archived_at AS "archivedAt", p.created_at AS "createdAt", p.updated_at AS "updatedAt"`;

export const itemJoins = Prisma.sql`
  JOIN teams t ON t.id = p.team_id
  JOIN prompt_versions lv ON lv.prompt_id = p.id AND lv.version = p.latest_version
  LEFT JOIN profiles ap ON ap.user_id = p.author_id`;

export type RawItem = Record<string, unknown> & { author: { id: string; fullName: string | null; email: string | null; avatarKey: string | null } | null };
export type RawAuthor = RawItem["author"];
/** The author as the answers name them (the web shows displayName: the name, else the address's local part). */
export const authorAnswer = (author: RawAuthor) => author && { id: author.id, fullName: author.fullName, email: author.email, avatarUrl: avatarUrl(author.avatarKey) };

export const toItem = ({ author, ...row }: RawItem) =>
  promptListItem.parse({ ...row, author: authorAnswer(author) });

/** The columns of a version `v` (its author's profile `vp`), each named with `prefix` first. */
export const versionColumnsAs = (prefix: string) =>
  Prisma.raw(`
  v.version AS "${prefix}version", v.type::text AS "${prefix}type", v.template AS "${prefix}template", v.messages AS "${prefix}messages",
  v.variables AS "${prefix}variables", v.model AS "${prefix}model", v.config AS "${prefix}config",
  v.tools AS "${prefix}tools", v.response_format AS "${prefix}responseFormat",
  v.commit_message AS "${prefix}commitMessage", v.created_at AS "${prefix}createdAt",
  CASE WHEN v.author_id IS NULL THEN NULL
       ELSE json_build_object('id', v.author_id, 'fullName', vp.full_name, 'email', (SELECT au.email FROM users au WHERE au.id = v.author_id), 'avatarKey', vp.avatar_key) END AS "${prefix}author"`);

/** The columns of a version `v` (its author's profile `vp`). */
export const versionColumns = versionColumnsAs("");

export const withAvatar = <T extends { author: RawItem["author"] }>({ author, ...row }: T) => ({
  ...row,
  author: authorAnswer(author),
});
