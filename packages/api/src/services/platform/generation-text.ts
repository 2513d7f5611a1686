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

/**
 * Clears the input and output of up to `limit` generations whose text can no longer be read
 * (generationTextReadable): those of a team that stopped keeping text, from before it stopped. A team
 * with none left ends its clearing, unless it stopped within the last minute (a merge that read the
 * setting before may still be writing text). How many were cleared.
 */
export async function clearGenerationText(db: DbOrTx, limit: number): Promise<number> {
  // Only teams that stopped keeping text, each read through the index of generations holding text.
  const cleared = await db.$executeRaw`
    WITH doomed AS (
      SELECT d.id, d.started_at
        FROM teams t CROSS JOIN LATERAL (
          SELECT g.id, g.started_at FROM generations g
           WHERE g.team_id = t.id AND (g.input IS NOT NULL OR g.output IS NOT NULL) AND NOT ${generationTextReadable}
           LIMIT ${limit}) d
       WHERE t.generation_text_cleared_before IS NOT NULL
       LIMIT ${limit})
    UPDATE generations g SET input = NULL, output = NULL FROM doomed WHERE g.id = doomed.id AND g.started_at = doomed.started_at`;
  await db.$executeRaw`
    UPDATE teams t SET generation_text_cleared_before = NULL
     WHERE t.generation_text_cleared_before < now() - interval '1 minute'
       AND NOT EXISTS (SELECT 1 FROM generations g WHERE g.team_id = t.id AND (g.input IS NOT NULL OR g.output IS NOT NULL) AND NOT ${generationTextReadable})`;
  return cleared;
}
