// The hourly score rollups kept beside the scores: each change of a linked score (one written, one
// whose value changed, one removed) adds its difference to its prompt version, environment, hour,
// score name and data type, in the transaction that changes the score. A name sent with two types is
// two rows, each summing values of its own type. A rollup row left with no score is deleted,
// so a name nobody scores any more is no figure of 0.
import { Prisma, type RawTransaction } from "@promptly/db";
import { categoryKey, foldedCategories } from "./score-categories.ts";

/**
 * The most distinct values a rollup row keeps of a categorical (or boolean) score; the rest are summed into
 * the row's fold (see score-categories.ts). A key sending ever new values would otherwise grow the row without
 * bound: each upsert re-reads every key, and past jsonb's size limit every merge touching the row fails.
 */
export const ROLLUP_CATEGORIES_MAX = 100;

/**
 * The categories of `entries` (key, count as text) as one capped jsonb: the ROLLUP_CATEGORIES_MAX most
 * counted values kept, every other count added to the fold, so the counts still add up to the row's count.
 * A value once folded may come back as its own key with the counts it gets since.
 */
function cappedCategories(entries: Prisma.Sql, negatives: "kept" | "folded"): Prisma.Sql {
  return Prisma.sql`(SELECT coalesce(jsonb_object_agg(k, n::int), '{}'::jsonb) FROM (${foldedCategories(entries, { max: ROLLUP_CATEGORIES_MAX, negatives })}) capped)`;
}

/** A linked score as stored: what decides its rollup row, and its value. */
export interface LinkedScore {
  prompt_id: string;
  version: number;
  environment: string;
  created_at: Date;
  name: string;
  data_type: string;
  value: number | null;
  string_value: string | null;
}

/** The hour a rollup row keeps an instant in (UTC, ISO text). */
const hourOf = (date: Date) => new Date(Math.floor(date.getTime() / 3_600_000) * 3_600_000).toISOString();

/** A score's part of its rollup row, times `sign` (-1 takes it out). */
export function scoreContribution(score: LinkedScore, sign: 1 | -1) {
  return {
    prompt_id: score.prompt_id,
    version: score.version,
    environment: score.environment,
    hour: hourOf(new Date(score.created_at)),
    name: score.name,
    data_type: score.data_type,
    count: sign as number,
    sum: sign * (score.value ?? 0),
    sum_squares: sign * (score.value ?? 0) ** 2,
    categories: score.string_value === null ? {} : ({ [categoryKey(score.string_value)]: sign } as Record<string, number>),
  };
}
type ScoreDelta = ReturnType<typeof scoreContribution>;

/** Adds the deltas to their rollup rows (summed per row, in one order: two writers of the same rows cannot deadlock). */
export async function applyScoreRollups(tx: RawTransaction, deltas: ScoreDelta[]) {
  const byKey = new Map<string, ScoreDelta>();
  for (const delta of deltas) {
    const key = [delta.prompt_id, delta.version, delta.environment, delta.hour, delta.name, delta.data_type].join("\u0000");
    const sum = byKey.get(key);
    if (!sum) {
      byKey.set(key, { ...delta, categories: { ...delta.categories } });
      continue;
    }
    sum.count += delta.count;
    sum.sum += delta.sum;
    sum.sum_squares += delta.sum_squares;
    for (const [value, count] of Object.entries(delta.categories)) sum.categories[value] = (sum.categories[value] ?? 0) + count;
  }
  // A change that leaves every figure as it was (a thumbs given again the same way) touches no row.
  const rows = [...byKey.entries()]
    .filter(([, delta]) => delta.count !== 0 || delta.sum !== 0 || delta.sum_squares !== 0 || Object.values(delta.categories).some((count) => count !== 0))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, delta]) => delta);
  if (!rows.length) return;
  const keys = JSON.stringify(rows);
  await tx.query(Prisma.sql`
    INSERT INTO score_rollups AS r (prompt_id, version, environment, hour, name, data_type, count, sum, sum_squares, categories)
    SELECT prompt_id, version, environment, hour, name, data_type, count, sum, sum_squares,
           ${cappedCategories(Prisma.sql`SELECT * FROM jsonb_each_text(x.categories)`, "kept")}
      FROM jsonb_to_recordset(${keys}::jsonb) AS x(prompt_id uuid, version int, environment text, hour timestamptz, name text,
        data_type text, count int, sum float8, sum_squares float8, categories jsonb)
    ON CONFLICT (prompt_id, version, environment, hour, name, data_type) DO UPDATE SET
      count = r.count + EXCLUDED.count, sum = r.sum + EXCLUDED.sum, sum_squares = r.sum_squares + EXCLUDED.sum_squares,
      categories = ${cappedCategories(Prisma.sql`SELECT * FROM jsonb_each_text(r.categories) UNION ALL SELECT * FROM jsonb_each_text(EXCLUDED.categories)`, "folded")}`);
  if (rows.some((delta) => delta.count < 0)) {
    await tx.query(Prisma.sql`
      DELETE FROM score_rollups r USING jsonb_to_recordset(${keys}::jsonb) AS x(prompt_id uuid, version int, environment text, hour timestamptz, name text, data_type text)
       WHERE r.prompt_id = x.prompt_id AND r.version = x.version AND r.environment = x.environment AND r.hour = x.hour AND r.name = x.name
         AND r.data_type = x.data_type AND r.count = 0`);
  }
}
