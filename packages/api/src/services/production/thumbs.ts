// A person's thumbs up or down (a boolean score named "thumbs", source "annotation", its author the
// person) on a generation or a run of the prompt whose page they are on. Each person has at most one
// on each generation and run (a partial unique index says so): giving it again replaces it (its value
// and its comment, where it was counted), and its author alone can remove it. The hourly rollups move
// by the difference in the same transaction. An archived prompt refuses both, as every other change.
import { Prisma, rawTransaction, type Db, type DbOrTx, type RawTransaction } from "@promptly/db";
import { DEFAULT_ENVIRONMENT, INGEST_MSG, THUMBS_SCORE_NAME, scoreValueOf, type createScoreInput, type removeScoreInput } from "@promptly/shared";
import type { z } from "zod";
import { DomainError } from "../../errors.ts";
import { promptVisibility, type Caller } from "../access/visibility.ts";
import { storableText } from "../platform/storable-text.ts";
import { archivedRefusal, refuse } from "../prompts/prompt-rules.ts";
import { lockGeneration } from "./ingest.ts";
import { applyScoreRollups, scoreContribution, type LinkedScore } from "./score-rollups.ts";

/** What a thumbs judges: one generation or one run of the prompt. */
type Target = z.output<typeof removeScoreInput>;

interface TargetRow {
  organizationId: string;
  generationId: string | null;
  runId: string | null;
  traceId: string | null;
  observationId: string | null;
  version: number;
  environment: string;
}

type StoredThumbs = LinkedScore & { id: string; prompt_id: string | null; version: number | null };

/**
 * Inside `tx`: the prompt's row shared-locked (an archive waits for this change, or came first and
 * refuses it), the caller still reading it, and the generation or run of it that `target` names.
 */
async function lockedTarget(tx: RawTransaction, caller: Caller, prompt: { id: string; teamId: string }, target: Target): Promise<TargetRow> {
  const notFound = () => new DomainError("NOT_FOUND", target.runId ? INGEST_MSG.runNotFound : INGEST_MSG.generationNotFound);
  const { joins, visible } = promptVisibility(caller);
  const [live] = await tx.query<{ archived: boolean; organizationId: string }>(Prisma.sql`
    SELECT p.archived_at IS NOT NULL AS archived, p.organization_id::text AS "organizationId" FROM prompts p ${joins}
     WHERE p.id = ${prompt.id}::uuid AND p.team_id = ${prompt.teamId}::uuid AND ${visible} FOR SHARE OF p`);
  if (!live) throw notFound();
  refuse(archivedRefusal(live.archived));
  // The generation's merges and this take turns (its observation's lock): it is read as its last merge left it
  // (its version and environment), and a merge after this relinks the thumbs.
  if (target.generationId) await lockGeneration(tx, prompt.teamId, target.generationId);
  const [row] = target.runId
    ? await tx.query<Omit<TargetRow, "organizationId">>(Prisma.sql`
        SELECT NULL AS "generationId", r.id::text AS "runId", NULL AS "traceId", NULL AS "observationId", r.version, ${DEFAULT_ENVIRONMENT}::text AS environment
          FROM prompt_runs r WHERE r.id = ${target.runId}::uuid AND r.prompt_id = ${prompt.id}::uuid`)
    : await tx.query<Omit<TargetRow, "organizationId">>(Prisma.sql`
        SELECT g.id::text AS "generationId", NULL AS "runId", g.trace_id AS "traceId", g.observation_id AS "observationId", g.version, g.environment
          FROM generations g WHERE g.id = ${target.generationId!}::uuid AND g.team_id = ${prompt.teamId}::uuid AND g.prompt_id = ${prompt.id}::uuid
           AND g.version IS NOT NULL`);
  if (!row) throw notFound();
  return { ...row, organizationId: live.organizationId };
}

const STORED_COLUMNS = Prisma.sql`id::text, prompt_id::text, version, environment, created_at, name, data_type, value, string_value`;

/** The caller's own thumbs on a generation or a run: what its partial unique index keys. */
const ownThumbsWhere = (caller: Caller, target: { generationId?: string | null; runId?: string | null }) => Prisma.sql`
  author_user_id = ${caller.userId}::uuid AND name = ${THUMBS_SCORE_NAME}
  AND ${target.runId ? Prisma.sql`run_id = ${target.runId}::uuid` : Prisma.sql`generation_id = ${target.generationId}::uuid`}`;

/** The caller's own thumbs on the target, row-locked. */
async function ownThumbs(tx: RawTransaction, caller: Caller, target: TargetRow): Promise<StoredThumbs | undefined> {
  const [row] = await tx.query<StoredThumbs>(Prisma.sql`SELECT ${STORED_COLUMNS} FROM scores WHERE ${ownThumbsWhere(caller, target)} FOR UPDATE`);
  return row;
}

/** The rollup part of a stored score, when it is linked to a prompt version. */
const contribution = (score: StoredThumbs, sign: 1 | -1) =>
  score.prompt_id !== null && score.version !== null ? [scoreContribution({ ...score, prompt_id: score.prompt_id, version: score.version }, sign)] : [];

/** A person's thumbs up or down, with an optional comment: their first on the target, or replacing the one they gave. */
export function giveThumbs(db: Db, caller: Caller, prompt: { id: string; teamId: string }, input: z.output<typeof createScoreInput>): Promise<{ id: string }> {
  const { value, stringValue } = scoreValueOf(input.up, "boolean") as { value: number; stringValue: string };
  const comment = input.comment ? storableText(input.comment) : null;
  return rawTransaction(db, async (tx) => {
    const target = await lockedTarget(tx, caller, prompt, input);
    // Two first thumbs at once: the unique index lets one insert; the other finds it and replaces it (a second try, the last).
    for (let tries = 0; tries < 2; tries++) {
      const stored = await ownThumbs(tx, caller, target);
      if (stored) {
        const [changed] = await tx.query<StoredThumbs>(Prisma.sql`
          UPDATE scores SET value = ${value}, string_value = ${stringValue}, comment = ${comment} WHERE id = ${stored.id}::uuid RETURNING ${STORED_COLUMNS}`);
        await applyScoreRollups(tx, [...contribution(stored, -1), ...contribution(changed!, 1)]);
        return { id: stored.id };
      }
      const [inserted] = await tx.query<StoredThumbs>(Prisma.sql`
        INSERT INTO scores (organization_id, team_id, generation_id, run_id, trace_id, observation_id, prompt_id, version, environment, name, data_type,
          value, string_value, comment, source, author_user_id)
        VALUES (${target.organizationId}::uuid, ${prompt.teamId}::uuid, ${target.generationId}::uuid, ${target.runId}::uuid, ${target.traceId},
          ${target.observationId}, ${prompt.id}::uuid, ${target.version}, ${target.environment}, ${THUMBS_SCORE_NAME}, 'boolean', ${value}, ${stringValue},
          ${comment}, 'annotation', ${caller.userId}::uuid)
        ON CONFLICT (author_user_id, ${target.runId ? Prisma.sql`run_id` : Prisma.sql`generation_id`}, name)
          WHERE author_user_id IS NOT NULL AND ${target.runId ? Prisma.sql`run_id` : Prisma.sql`generation_id`} IS NOT NULL DO NOTHING
        RETURNING ${STORED_COLUMNS}`);
      if (inserted) {
        await applyScoreRollups(tx, contribution(inserted, 1));
        return { id: inserted.id };
      }
    }
    throw new Error("A thumbs neither inserted nor found after a conflict on its unique index");
  });
}

/** Removes the caller's own thumbs on the target (another person's is never theirs to remove); false when they had none. */
export function removeThumbs(db: Db, caller: Caller, prompt: { id: string; teamId: string }, input: Target): Promise<{ removed: boolean }> {
  return rawTransaction(db, async (tx) => {
    const target = await lockedTarget(tx, caller, prompt, input);
    const stored = await ownThumbs(tx, caller, target);
    if (!stored) return { removed: false };
    await tx.query(Prisma.sql`DELETE FROM scores WHERE id = ${stored.id}::uuid`);
    await applyScoreRollups(tx, contribution(stored, -1));
    return { removed: true };
  });
}

/** The caller's own thumbs on a generation or a run (null: none), for the app to show it pressed. */
export async function ownThumbsOn(db: DbOrTx, caller: Caller, target: { generationId?: string; runId?: string }) {
  const [row] = await db.$queryRaw<{ value: number | null; comment: string | null }[]>`SELECT value, comment FROM scores WHERE ${ownThumbsWhere(caller, target)}`;
  return row ? { up: row.value === 1, comment: row.comment } : null;
}
