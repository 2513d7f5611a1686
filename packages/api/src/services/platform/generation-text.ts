// Production generations' input and output text, kept only while their team says so: who may read it,
// and the clearing of what a team kept before it stopped (a housekeeping run's share of the work).
import { Prisma, type DbOrTx } from "@promptly/db";

/**
 * Whether a generation `g`'s stored text may be read, its team `t`: only while the team keeps text, and
 * never text from before the team last stopped keeping it (deleted then, though housekeeping may not have
 * cleared it yet). The earlier of its start and receipt counts: a generation merged again keeps its
 * start (not its receipt), one sent by a clock running ahead keeps its receipt.
 */
export const generationTextReadable = Prisma.sql`(t.keep_generation_text
  AND (t.generation_text_cleared_before IS NULL OR least(g.started_at, g.received_at) > t.generation_text_cleared_before))`;

/** A claim `r`'s verdicts without their judge's reasons: each verdict's name and pass stay, in their order. */
const verdictsWithoutReasons = Prisma.sql`CASE WHEN jsonb_typeof(r.verdicts) = 'array' THEN COALESCE((
  SELECT jsonb_agg(CASE WHEN jsonb_typeof(v) = 'object' THEN v - 'reason' ELSE v END ORDER BY i)
    FROM jsonb_array_elements(r.verdicts) WITH ORDINALITY AS e(v, i)), '[]'::jsonb) ELSE r.verdicts END`;

/**
 * Clears the input and output of up to `limit` generations whose text can no longer be read
 * (generationTextReadable): those of a team that stopped keeping text, from before it stopped. A team
 * with none left ends its clearing, unless it stopped within the last minute (a merge that read the
 * setting before may still be writing text). Online evaluation's reasons for those generations go too
 * (a judge's reason may quote the text): the scores' comments and the claims' verdicts' reasons. How
 * many were cleared.
 */
export async function clearGenerationText(db: DbOrTx, limit: number): Promise<number> {
  // Only teams that stopped keeping text, each read through the index of generations holding text.
  const [{ n: cleared }] = await db.$queryRaw<[{ n: number }]>`
    WITH doomed AS (
      SELECT d.id, d.started_at
        FROM teams t CROSS JOIN LATERAL (
          SELECT g.id, g.started_at FROM generations g
           WHERE g.team_id = t.id AND (g.input IS NOT NULL OR g.output IS NOT NULL) AND NOT ${generationTextReadable}
           LIMIT ${limit}) d
       WHERE t.generation_text_cleared_before IS NOT NULL
       LIMIT ${limit})
    , cleared AS (
      UPDATE generations g SET input = NULL, output = NULL FROM doomed WHERE g.id = doomed.id AND g.started_at = doomed.started_at RETURNING g.id)
    -- Online evaluation's judge wrote its reasons from that text, and may quote it: they go with it (its verdicts stay).
    , reasons AS (
      UPDATE scores s SET comment = NULL FROM cleared WHERE s.generation_id = cleared.id AND s.source = 'eval' AND s.comment IS NOT NULL)
    , claims AS (
      UPDATE online_evaluation_runs r
         SET verdicts = ${verdictsWithoutReasons}
        FROM cleared WHERE r.generation_id = cleared.id AND r.verdicts IS NOT NULL)
    SELECT count(*)::int AS n FROM cleared`;
  await db.$executeRaw`
    UPDATE teams t SET generation_text_cleared_before = NULL
     WHERE t.generation_text_cleared_before < now() - interval '1 minute'
       AND NOT EXISTS (SELECT 1 FROM generations g WHERE g.team_id = t.id AND (g.input IS NOT NULL OR g.output IS NOT NULL) AND NOT ${generationTextReadable})`;
  return cleared;
}

/**
 * Clears online evaluation's reasons on the generation `generationId` (its `eval` scores' comments, its
 * claim's verdicts' reasons) if its text can no longer be read (generationTextReadable). A run that read
 * the text before its team stopped keeping it writes them after, maybe once housekeeping has cleared the
 * text and with it what was written by then: clearGenerationText would never see them (its generation has
 * no text left). Called once they are committed: a clearing that began before could not see them, one that
 * begins after does; the team stopped keeping text before either, and this sees that.
 */
export async function clearUnreadableReasons(db: DbOrTx, generationId: string): Promise<void> {
  await db.$executeRaw`
    WITH gone AS (
      SELECT g.id FROM generations g JOIN teams t ON t.id = g.team_id WHERE g.id = ${generationId}::uuid AND NOT ${generationTextReadable})
    , reasons AS (
      UPDATE scores s SET comment = NULL FROM gone WHERE s.generation_id = gone.id AND s.source = 'eval' AND s.comment IS NOT NULL)
    UPDATE online_evaluation_runs r SET verdicts = ${verdictsWithoutReasons} FROM gone WHERE r.generation_id = gone.id AND r.verdicts IS NOT NULL`;
}
