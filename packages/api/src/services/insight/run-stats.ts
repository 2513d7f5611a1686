// Run statistics per prompt version (runs, error rate, latency, tokens, cost), read by the prompt's page
// and the organization's analytics from the same query, so both count the same runs.
import { Prisma, type DbOrTx } from "@promptly/db";
import type { VersionRunStats } from "@promptly/shared";

/**
 * Per prompt and version (newest version first) of the runs `where` picks: runs, error rate, p50/p95
 * total time, mean tokens and mean cost; since `from` (a UTC day) when given. One query for one prompt
 * and for an organization's analytics, so both count the same runs. Draft runs are left out: an edited
 * draft is not the version.
 */
export async function runStatsWhere(db: DbOrTx, where: Prisma.Sql, from?: string): Promise<(VersionRunStats & { promptId: string })[]> {
  const rows = await db.$queryRaw<
    { promptId: string; version: number; runs: bigint; failed: bigint; p50: number | null; p95: number | null; inTokens: number | null; outTokens: number | null; cost: number | null }[]
  >`
    SELECT prompt_id::text AS "promptId", version, count(*) AS runs, count(*) FILTER (WHERE status = 'failed') AS failed,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY total_ms) AS p50,
           percentile_cont(0.95) WITHIN GROUP (ORDER BY total_ms) AS p95,
           avg(input_tokens)::float8 AS "inTokens", avg(output_tokens)::float8 AS "outTokens", avg(cost)::float8 AS cost
    FROM prompt_runs WHERE (${where}) AND NOT draft ${from ? Prisma.sql`AND created_at >= ${from}::date` : Prisma.empty}
    GROUP BY prompt_id, version ORDER BY prompt_id, version DESC`;
  return rows.map((row) => ({
    promptId: row.promptId,
    version: row.version,
    runs: Number(row.runs),
    errorRate: Number(row.runs) ? Number(row.failed) / Number(row.runs) : 0,
    p50TotalMs: row.p50,
    p95TotalMs: row.p95,
    meanInputTokens: row.inTokens,
    meanOutputTokens: row.outTokens,
    meanCost: row.cost,
  }));
}

/** Per version of a prompt (newest first): runs, error rate, p50/p95 total time, mean tokens and mean cost; since `from` (a UTC day) when given. */
export async function promptRunStats(db: DbOrTx, promptId: string, from?: string): Promise<VersionRunStats[]> {
  const rows = await runStatsWhere(db, Prisma.sql`prompt_id = ${promptId}::uuid`, from);
  return rows.map(({ promptId: _promptId, ...row }) => row);
}
