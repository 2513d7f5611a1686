// The dashboard: its figures and its popular prompts, counted within the visibility rule.
import { z } from "zod";
import { Prisma, type DbOrTx } from "@promptly/db";
import type { Caller } from "../access/access.ts";
import { promptVisibility } from "../access/visibility.ts";
import { itemColumns, itemJoins, toItem, type RawItem } from "./prompt-rows.ts";

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
