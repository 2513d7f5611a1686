// A yes/no or categorical score's values and their counts, capped: a key can send any number of distinct
// values. One rule for both caps, the rollup rows' (ROLLUP_CATEGORIES_MAX values a row) and the figures'
// (SCORE_CATEGORIES_MAX values a figure): the most counted values keep their own counts, and every other
// count is summed into one fold. A rollup row keeps its values' counts in `categories` under their keys,
// and the fold under FOLD_KEY, which no value's key can be: a value of the form "(other)", "\(other)",
// "\\(other)", ... is kept with one more "\" in front. So a value sent as "(other)" is counted as itself,
// never with the fold. FOLD_KEY is the text rows written before this rule folded under.
import { Prisma } from "@promptly/db";
import { SCORE_OTHER_CATEGORY } from "@promptly/shared";

/** The fold's key: the text a figure shows for it, so the two cannot differ. */
const FOLD_KEY = SCORE_OTHER_CATEGORY;
const ESCAPE = "\\";

/** Whether a value's text is FOLD_KEY behind any number of ESCAPEs (none included): such values get one ESCAPE more. */
const escaped = (text: string) => text.replace(/^\\*/, "") === FOLD_KEY;

/** The key a rollup row counts `value` under. */
export const categoryKey = (value: string) => (escaped(value) ? `${ESCAPE}${value}` : value);

/** The value a rollup row's key counts, or null for the fold. */
export const categoryOfKey = (key: string): string | null => (key === FOLD_KEY ? null : escaped(key) ? key.slice(ESCAPE.length) : key);

/**
 * The fold, in SQL. `entries` gives rows of the series' columns (`series`, in that order) then a key and its
 * count (as any type that casts to numeric). Its counts are summed per series and key; of each series, the
 * `max` keys most counted above 0 keep their counts (the most counted first, then by key), and every other
 * count is added to FOLD_KEY (with what was folded before), so the counts still add up. A count below 0 is of
 * a value taken out after it was folded: it comes off the fold, unless `negatives` is "kept" (a change not
 * yet merged with its row, which may keep that value). Rows: the series' columns, `k` and `n` (numeric, never 0).
 */
export function foldedCategories(entries: Prisma.Sql, { max, series = [], negatives = "folded" }: {
  max: number;
  series?: readonly string[];
  negatives?: "kept" | "folded";
}): Prisma.Sql {
  const columns = series.map((column) => Prisma.raw(`"${column}"`));
  const by = columns.length ? Prisma.sql`${Prisma.join(columns)}, ` : Prisma.empty;
  const partition = columns.length ? Prisma.sql`PARTITION BY ${Prisma.join(columns)}` : Prisma.empty;
  const fold = Prisma.sql`${FOLD_KEY}::text`;
  const keptNegative = negatives === "kept" ? Prisma.sql`n < 0 OR` : Prisma.empty;
  return Prisma.sql`
    SELECT ${by}k, sum(n) AS n
      FROM (SELECT ${by}CASE WHEN ${keptNegative} (k <> ${fold} AND n > 0 AND rank <= ${max}) THEN k ELSE ${fold} END AS k, n
              FROM (SELECT ${by}k, n, row_number() OVER (${partition} ORDER BY k = ${fold}, n DESC, k) AS rank
                      FROM (SELECT ${by}k, sum(n::numeric) AS n FROM (${entries}) AS e(${by}k, n) GROUP BY ${by}k HAVING sum(n::numeric) <> 0) summed) ranked) folded
     GROUP BY ${by}k
    HAVING sum(n) <> 0`;
}
