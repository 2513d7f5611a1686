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
 *
 * The reasons go in a statement after the text's (its own snapshot, READ COMMITTED): a run writing
 * reasons on one of these generations holds its row (lockJudgedText) until it commits, so the text's
 * update waits for it and the reasons' statement then sees what it wrote; a run that comes after finds
 * the text gone and writes none (writing them in the text's statement would miss those of a run that
 * committed while it waited: its snapshot is older).
 */
export async function clearGenerationText(db: DbOrTx, limit: number): Promise<number> {
  // Only teams that stopped keeping text, each read through the index of generations holding text.
  const cleared = await db.$queryRaw<{ id: string }[]>`
    WITH doomed AS (
      SELECT d.id, d.started_at
        FROM teams t CROSS JOIN LATERAL (
          SELECT g.id, g.started_at FROM generations g
           WHERE g.team_id = t.id AND (g.input IS NOT NULL OR g.output IS NOT NULL) AND NOT ${generationTextReadable}
           LIMIT ${limit}) d
       WHERE t.generation_text_cleared_before IS NOT NULL
       LIMIT ${limit})
    UPDATE generations g SET input = NULL, output = NULL FROM doomed WHERE g.id = doomed.id AND g.started_at = doomed.started_at RETURNING g.id::text AS id`;
  // Online evaluation's judge wrote its reasons from that text, and may quote it: they go with it (its verdicts stay).
  if (cleared.length) await clearReasons(db, cleared.map((row) => row.id));
  await db.$executeRaw`
    UPDATE teams t SET generation_text_cleared_before = NULL
     WHERE t.generation_text_cleared_before < now() - interval '1 minute'
       AND NOT EXISTS (SELECT 1 FROM generations g WHERE g.team_id = t.id AND (g.input IS NOT NULL OR g.output IS NOT NULL) AND NOT ${generationTextReadable})`;
  return cleared.length;
}

/** Online evaluation's reasons on the generations `generationIds`: their `eval` scores' comments, their claims' verdicts' reasons. */
async function clearReasons(db: DbOrTx, generationIds: string[]): Promise<void> {
  await db.$executeRaw`
    WITH reasons AS (
      UPDATE scores s SET comment = NULL WHERE s.generation_id = ANY(${generationIds}::uuid[]) AND s.source = 'eval' AND s.comment IS NOT NULL)
    UPDATE online_evaluation_runs r SET verdicts = ${verdictsWithoutReasons} WHERE r.generation_id = ANY(${generationIds}::uuid[]) AND r.verdicts IS NOT NULL`;
}

/**
 * Whether the generation `generationId` still stores the output `judged` (the text its judge read, which
 * its reasons may quote), or any text when `judged` is not said; its row held for the transaction `tx`
 * as clearGenerationText's update holds it. So what `tx` writes next on the strength of the answer
 * commits before any clearing of that text can begin, which then clears it too (see there); or the text
 * was cleared first, and the answer says so. Whatever the team's setting says now: a team that stopped
 * keeping text and whose clearing is over (keeping text again) reads this text as its others, but none
 * is left. A generation gone (retention), or being merged again meanwhile (deleted and written anew,
 * so looked for once more), stores none.
 */
async function lockJudgedText(tx: DbOrTx, generationId: string, judged?: string): Promise<boolean> {
  const matches = judged === undefined ? Prisma.sql`g.output IS NOT NULL` : Prisma.sql`g.output IS NOT DISTINCT FROM ${judged}`;
  for (let look = 0; look < 2; look += 1) {
    const [row] = await tx.$queryRaw<{ stored: boolean }[]>`SELECT ${matches} AS stored FROM generations g WHERE g.id = ${generationId}::uuid FOR NO KEY UPDATE`;
    if (row) return row.stored;
  }
  return false;
}

/**
 * Holds the generation `generationId`'s row for the transaction `tx` (lockJudgedText), to be taken before its online
 * evaluation claim's: clearGenerationText takes the generation, then its claims (their verdicts' reasons), so a
 * transaction holding a claim that then waits for the generation may wait for a clearing waiting for it (a deadlock).
 */
export async function holdGeneration(tx: DbOrTx, generationId: string): Promise<void> {
  await lockJudgedText(tx, generationId);
}

/**
 * In the transaction `tx`: `write` (what was made from the generation's text: a judge's reasons) if the generation
 * `generationId` still stores `judged`, any text when undefined, none to keep when null (lockJudgedText, its row held
 * till `tx` ends); else its reasons go (clearReasons).
 */
export async function withJudgedText(tx: DbOrTx, generationId: string, judged: string | null | undefined, write: () => Promise<unknown>): Promise<void> {
  if (judged !== null && (await lockJudgedText(tx, generationId, judged))) await write();
  else await clearReasons(tx, [generationId]);
}

/** In `tx`: the generation's reasons go unless it still stores `judged` (any text when undefined): withJudgedText with nothing to write. */
export const clearReasonsUnlessStored = (tx: DbOrTx, generationId: string, judged: string | null | undefined) =>
  withJudgedText(tx, generationId, judged, async () => undefined);
