// Analytics: figures from the rows that exist — the runtime usage counters (prompt_usage,
// per version, key, label and UTC day), versions, ratings, bookmarks and labels — never sample numbers.
// The overview reads usage from prompt_usage_daily, the same counts summed per prompt, day and label by
// a trigger (migration usage_rollup): a few rows per prompt and day, whatever the number of keys and
// versions. One prompt's page reads prompt_usage itself (its key and version detail).
// The overview counts only prompts the caller may read (promptVisibility) in one organization
// (optionally one team); a prompt's usage is read through promptProcedure("read").
import { Prisma, type DbOrTx } from "@promptly/db";
import { BY_VERSION_LABEL, PROTECTED_LABEL, analyticsDays, can, type Access } from "@promptly/shared";
import type { Caller } from "../access/visibility.ts";
import { promptVisibility } from "../access/visibility.ts";
import { promptRunStats, runStatsWhere } from "./run-stats.ts";

/** The first and last UTC day of a range ending today, as dates for SQL. */
function rangeOf(days: number, now: Date) {
  const list = analyticsDays(days, now);
  return { list, from: list[0]!, to: list.at(-1)! };
}

const dayText = (day: Date) => day.toISOString().slice(0, 10);
const labelName = (label: string) => (label === "" ? BY_VERSION_LABEL : label);

interface OverviewPromptRow {
  id: string;
  name: string;
  title: string;
  teamName: string;
  /** Fetches in the range. */
  fetches: number;
  /** The last UTC day it was fetched (any time), or null. */
  lastFetched: string | null;
  productionVersion: number | null;
  ratingAverage: number;
  ratingCount: number;
  bookmarks: number;
  /** Fetches per day of the range, oldest first (the sparkline). */
  daily: number[];
}

export async function analyticsOverview(
  db: DbOrTx,
  caller: Caller,
  input: { organizationId: string; teamId?: string; days: number },
  now: Date,
) {
  const { list, from, to } = rangeOf(input.days, now);
  const { joins, visible } = promptVisibility(caller);
  const scope = Prisma.sql`SELECT p.id FROM prompts p ${joins}
    WHERE p.organization_id = ${input.organizationId}::uuid AND p.archived_at IS NULL
      ${input.teamId ? Prisma.sql`AND p.team_id = ${input.teamId}::uuid` : Prisma.empty} AND ${visible}`;

  const [prompts, usageByPrompt, usageByLabel, versions, ratings, bookmarks, runs] = await Promise.all([
    db.$queryRaw<{ id: string; name: string; title: string; teamName: string; productionVersion: number | null; ratingAverage: number; ratingCount: number; bookmarks: number; lastFetched: Date | null }[]>`
      SELECT p.id::text AS id, p.name, p.title, t.name AS "teamName", l.version AS "productionVersion",
             p.rating_average AS "ratingAverage", p.rating_count AS "ratingCount", p.bookmark_count AS bookmarks,
             (SELECT max(u.day) FROM prompt_usage_daily u WHERE u.prompt_id = p.id) AS "lastFetched"
      FROM prompts p JOIN teams t ON t.id = p.team_id
      LEFT JOIN prompt_labels l ON l.prompt_id = p.id AND l.name = ${PROTECTED_LABEL}
      WHERE p.id IN (${scope})
      ORDER BY p.name`,
    // Per prompt: its fetches per day of the range as one comma-separated list (zeros included), summed
    // in SQL, so the answer's rows are the prompts, not prompts × days × labels.
    db.$queryRaw<{ promptId: string; daily: string }[]>`
      SELECT u.prompt_id::text AS "promptId", string_agg(u.n::text || '@' || u.day::text, ',') AS daily
      FROM (SELECT prompt_id, day, sum(count) AS n FROM prompt_usage_daily
            WHERE prompt_id IN (${scope}) AND day BETWEEN ${from}::date AND ${to}::date
            GROUP BY prompt_id, day HAVING sum(count) <> 0) u
      GROUP BY u.prompt_id`,
    db.$queryRaw<{ day: Date; label: string; count: bigint }[]>`
      SELECT day, label, sum(count)::bigint AS count FROM prompt_usage_daily
      WHERE prompt_id IN (${scope}) AND day BETWEEN ${from}::date AND ${to}::date
      GROUP BY day, label HAVING sum(count) <> 0`,
    db.$queryRaw<{ week: Date; count: bigint }[]>`
      SELECT date_trunc('week', v.created_at AT TIME ZONE 'UTC')::date AS week, count(*)::bigint AS count
      FROM prompt_versions v
      WHERE v.prompt_id IN (${scope}) AND v.created_at >= ${from}::timestamp AT TIME ZONE 'UTC'
      GROUP BY 1 ORDER BY 1`,
    db.$queryRaw<{ stars: number; count: bigint }[]>`
      SELECT r.stars::int AS stars, count(*)::bigint AS count FROM prompt_ratings r
      WHERE r.prompt_id IN (${scope}) GROUP BY r.stars`,
    db.$queryRaw<{ day: Date | null; count: bigint }[]>`
      SELECT CASE WHEN b.created_at >= ${from}::timestamp AT TIME ZONE 'UTC' THEN (b.created_at AT TIME ZONE 'UTC')::date END AS day,
             count(*)::bigint AS count
      FROM prompt_bookmarks b
      WHERE b.prompt_id IN (${scope})
      GROUP BY 1`,
    runStatsWhere(db, Prisma.sql`prompt_id IN (${scope})`, from),
  ]);

  const index = new Map(list.map((day, i) => [day, i]));
  const byPrompt = new Map<string, number[]>();
  const byLabel = new Map<string, number[]>();
  const add = (into: Map<string, number[]>, key: string, day: string, count: number) => {
    let row = into.get(key);
    if (!row) into.set(key, (row = list.map(() => 0)));
    row[index.get(day)!]! += count;
  };
  for (const row of usageByPrompt) {
    for (const entry of row.daily.split(",")) {
      const at = entry.indexOf("@");
      add(byPrompt, row.promptId, entry.slice(at + 1), Number(entry.slice(0, at)));
    }
  }
  for (const row of usageByLabel) add(byLabel, labelName(row.label), dayText(row.day), Number(row.count));

  const rows: OverviewPromptRow[] = prompts.map((prompt) => {
    const daily = byPrompt.get(prompt.id) ?? list.map(() => 0);
    return {
      ...prompt,
      lastFetched: prompt.lastFetched ? dayText(prompt.lastFetched) : null,
      fetches: daily.reduce((sum, n) => sum + n, 0),
      daily,
    };
  });

  const bookmarksBefore = Number(bookmarks.find((row) => row.day === null)?.count ?? 0);
  const added = new Map(bookmarks.filter((row) => row.day).map((row) => [dayText(row.day!), Number(row.count)]));
  let total = bookmarksBefore;
  const bookmarksByDay = list.map((day) => {
    const n = added.get(day) ?? 0;
    total += n;
    return { day, added: n, total };
  });

  return {
    days: list,
    prompts: rows,
    /** Per label (BY_VERSION_LABEL for explicit versions): fetches per day of the range. */
    labels: [...byLabel].map(([label, daily]) => ({ label, daily })).sort((a, b) => a.label.localeCompare(b.label)),
    versionsPerWeek: versions.map((row) => ({ week: dayText(row.week), count: Number(row.count) })),
    ratings: [1, 2, 3, 4, 5].map((stars) => ({ stars, count: Number(ratings.find((row) => row.stars === stars)?.count ?? 0) })),
    bookmarks: bookmarksByDay,
    /** Per prompt and version: runs on models in the range. */
    runs,
  };
}

/**
 * One prompt's fetches per day of the range, by version, by label and by API key. Key names are
 * shown to those who manage the team's keys (they see them on the Teams page); other readers see
 * "API key 1", "API key 2"… in the order the keys were created.
 */
export async function analyticsPrompt(db: DbOrTx, prompt: { id: string; access: Access }, days: number, now: Date) {
  const { list, from, to } = rangeOf(days, now);
  const usage = await db.$queryRaw<{ day: Date; version: number; label: string; apiKeyId: string; keyName: string; keyCreatedAt: Date; count: bigint }[]>`
    SELECT u.day, u.version, u.label, u.api_key_id::text AS "apiKeyId", k.name AS "keyName", k.created_at AS "keyCreatedAt",
           sum(u.count)::bigint AS count
    FROM prompt_usage u JOIN api_keys k ON k.id = u.api_key_id
    WHERE u.prompt_id = ${prompt.id}::uuid AND u.day BETWEEN ${from}::date AND ${to}::date
    GROUP BY u.day, u.version, u.label, u.api_key_id, k.name, k.created_at`;
  const index = new Map(list.map((day, i) => [day, i]));
  const group = <K extends string | number>() => new Map<K, number[]>();
  const add = <K extends string | number>(into: Map<K, number[]>, key: K, day: string, count: number) => {
    let row = into.get(key);
    if (!row) into.set(key, (row = list.map(() => 0)));
    row[index.get(day)!]! += count;
  };
  const byVersion = group<number>();
  const byLabel = group<string>();
  const byKey = group<string>();
  const keys = new Map<string, { name: string; createdAt: Date }>();
  for (const row of usage) {
    const day = dayText(row.day);
    const count = Number(row.count);
    add(byVersion, row.version, day, count);
    add(byLabel, labelName(row.label), day, count);
    add(byKey, row.apiKeyId, day, count);
    keys.set(row.apiKeyId, { name: row.keyName, createdAt: row.keyCreatedAt });
  }
  const runs = await promptRunStats(db, prompt.id, from);
  const showNames = can(prompt.access, "apiKey.manage");
  const keyOrder = [...keys].sort(([, a], [, b]) => a.createdAt.getTime() - b.createdAt.getTime());
  const total = (daily: number[]) => daily.reduce((sum, n) => sum + n, 0);
  return {
    days: list,
    total: list.map((_, i) => [...byVersion.values()].reduce((sum, daily) => sum + daily[i]!, 0)),
    versions: [...byVersion].sort(([a], [b]) => b - a).map(([version, daily]) => ({ version, daily, total: total(daily) })),
    labels: [...byLabel].sort(([a], [b]) => a.localeCompare(b)).map(([label, daily]) => ({ label, daily, total: total(daily) })),
    keysNamed: showNames,
    keys: keyOrder.map(([id, key], i) => {
      const daily = byKey.get(id)!;
      return { name: showNames ? key.name : `API key ${i + 1}`, daily, total: total(daily) };
    }),
    runs,
  };
}
