// A prompt's generations as they were recorded, newest first, a page at a time, with their scores;
// one generation with its input and output when its team keeps them. Every figure of the Production
// tab comes from the rollups (metrics.ts): these are the rows behind them, to look at one by one.
import { Prisma, sqlInstant, type DbOrTx } from "@promptly/db";
import { GENERATION_MORE_SCORES_COUNTED, GENERATION_SCORES_MAX, PRODUCTION_MSG, type Access, type GenerationDetail, type GenerationItem, type GenerationPage, type ProductionFilters } from "@promptly/shared";
import { fail } from "../../errors.ts";
import { authorize } from "../access/authorize.ts";
import type { Caller } from "../access/visibility.ts";
import { decodeKeysetCursor, encodeKeysetCursor, instantSortValue } from "../platform/keyset-cursor.ts";
import { generationTextReadable } from "../platform/generation-text.ts";
import { spanOf, type ProductionSpan } from "./metrics.ts";
import { isoTimeSql } from "../json-list.ts";

const GENERATIONS_PAGE = 50;

// Instants go to (sqlInstant) and come from (isoTimeSql) the database as ISO text with its Z, so a page reads the same rows in any
// session time zone: a Date parameter is sent without its offset (read in the session's zone), and a
// timestamptz read back as a Date loses the session's offset (the driver adapter takes it for UTC); the
// next page's cursor is built from what was read, so both matter. The columns are timestamptz(3): no
// fraction is lost.

export interface GenerationsQuery extends ProductionFilters {
  version?: number;
  status?: "ok" | "error";
  cursor?: string;
  limit?: number;
}

interface GenerationRow {
  id: string;
  version: number | null;
  model: string | null;
  /** ISO text with its Z (isoTime). */
  startedAt: string;
  latencyMs: number | null;
  ttftMs: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
  cost: number | null;
  status: string;
  error: string | null;
  traceId: string | null;
  observationId: string;
  userRef: string | null;
  sessionRef: string | null;
  environment: string;
}

const generationColumns = Prisma.sql`
  g.id::text AS id, g.version, g.model, ${isoTimeSql(Prisma.sql`g.started_at`)} AS "startedAt", g.latency_ms AS "latencyMs", g.ttft_ms AS "ttftMs",
  g.input_tokens AS "inputTokens", g.output_tokens AS "outputTokens", g.cost, g.status, g.error_message AS error,
  g.trace_id AS "traceId", g.observation_id AS "observationId", g.user_ref AS "userRef", g.session_ref AS "sessionRef", g.environment`;

interface ListedScores {
  scores: GenerationItem["scores"];
  moreScores: number;
  moreScoresCapped: boolean;
}

/**
 * Whether the caller reads the text of the prompt's generations (and the judge's reasons, which may quote it),
 * person or key, in the app and on REST alike: a refusal withholds the text, the generations are still listed.
 */
export const readsGenerationText = (caller: Caller, access: Access) => authorize(caller, "production.text.read", { place: access }).ok;

const noScores = (): ListedScores => ({ scores: [], moreScores: 0, moreScoresCapped: false });

/**
 * The most bytes of score text (names, string values and the comments shown) one page of generations
 * holds: past it the page ends early and its cursor goes on from its last generation. A key may fill
 * every generation with GENERATION_SCORES_MAX scores of the longest comment, tens of megabytes a page
 * (of a server with a 128 MB heap, which the driver's buffers, the rows and the JSON answer each hold
 * again). 2 MB keeps a page of 200 generations with 20 judge's reasons of 400 characters each whole,
 * and still lists two of the most flooded generations (50 comments of 5,000 three-byte characters).
 * Bytes of UTF-8, not characters: they bound what the driver reads and what the strings take alike,
 * and PostgreSQL knows a stored text's length without reading it.
 */
export const GENERATIONS_PAGE_SCORE_BYTES_MAX = 2_000_000;

/**
 * Each generation's newest scores (at most GENERATION_SCORES_MAX), oldest first (the order clients have
 * always had), and how many more it has, counted up to GENERATION_MORE_SCORES_COUNTED (`moreScoresCapped`
 * past it): an ingest key may send any number on one generation, and every list and export of the prompt
 * would read them all. Online evaluation's judge wrote its reasons (the
 * `eval` scores' comments) from the generation's text and may quote it: they are shown as the text is, to
 * a caller who may read it (`textReadable`: production.text.read in the prompt's team) while its team
 * keeps it (generationTextReadable); to anyone else the verdict comes without its reason.
 *
 * Only the first of `ids` whose scores' text fits GENERATIONS_PAGE_SCORE_BYTES_MAX together (the first
 * always) are read, and only they are in the answer: their lengths are summed in the statement that
 * reads the text (one snapshot, so a score written in between cannot swell what was measured).
 */
export async function scoresOf(db: DbOrTx, ids: string[], textReadable: boolean) {
  const byGeneration = new Map<string, ListedScores>();
  if (ids.length === 0) return byGeneration;
  const wanted = Prisma.join(ids.map((id) => Prisma.sql`${id}::uuid`));
  const reasonReadable = textReadable ? generationTextReadable : Prisma.sql`false`;
  // The newest are the ones kept; the list puts them back oldest first.
  const newest = (generation: Prisma.Sql) => Prisma.sql`
      SELECT s.id, s.name, s.data_type, s.value, s.string_value, s.comment, s.source, s.created_at
      FROM scores s WHERE s.generation_id = ${generation}
      ORDER BY s.created_at DESC, s.id DESC LIMIT ${GENERATION_SCORES_MAX}`;
  // A generation without scores comes once, its score's columns null.
  const rows = await db.$queryRaw<(Omit<GenerationItem["scores"][number], "id" | "createdAt"> & { id: string | null; generationId: string; at: string })[]>`
    WITH sized AS (
      -- A generation gone since the page was read is kept in its place, with no scores.
      SELECT p.id, g.id AS gid, p.ord, coalesce(${reasonReadable}, false) AS readable,
             (SELECT coalesce(sum(octet_length(s.name) + coalesce(octet_length(s.string_value), 0)
                                  + CASE WHEN s.source <> 'eval' OR ${reasonReadable} THEN coalesce(octet_length(s.comment), 0) ELSE 0 END), 0)
                FROM (${newest(Prisma.sql`g.id`)}) s) AS bytes
      FROM unnest(ARRAY[${wanted}]) WITH ORDINALITY AS p(id, ord)
      LEFT JOIN (generations g JOIN teams t ON t.id = g.team_id) ON g.id = p.id
    ), kept AS (
      SELECT id, gid, ord, readable FROM (SELECT id, gid, ord, readable, sum(bytes) OVER (ORDER BY ord) AS running FROM sized) r
      WHERE ord = 1 OR running <= ${GENERATIONS_PAGE_SCORE_BYTES_MAX}
    )
    SELECT k.id::text AS "generationId", s.id::text AS id, s.name, s.data_type AS "dataType", s.value, s.string_value AS "stringValue",
           CASE WHEN s.source <> 'eval' OR k.readable THEN s.comment END AS comment, s.source, ${isoTimeSql(Prisma.sql`s.created_at`)} AS at
    -- Read through the generation found (gid): one gone has no scores read, though its scores are kept.
    FROM kept k LEFT JOIN LATERAL (${newest(Prisma.sql`k.gid`)}) s ON true
    ORDER BY k.ord, s.created_at, s.id`;
  for (const { generationId, at, ...score } of rows) {
    const listed = byGeneration.get(generationId) ?? noScores();
    if (score.id !== null) listed.scores.push({ ...score, id: score.id, createdAt: at });
    byGeneration.set(generationId, listed);
  }
  // Only a generation listed with the most may have more: only those are counted (after the list, so a
  // score removed in between could make the count fall short), each up to one past the most counted, so a
  // flooded generation's count reads a bounded run of its index, not every score.
  const full = [...byGeneration].filter(([, listed]) => listed.scores.length === GENERATION_SCORES_MAX).map(([id]) => id);
  if (full.length > 0) {
    const totals = await db.$queryRaw<{ generationId: string; total: number }[]>`
      SELECT g.id::text AS "generationId",
             (SELECT count(*)::int FROM (
                SELECT 1 FROM scores s WHERE s.generation_id = g.id LIMIT ${GENERATION_SCORES_MAX + GENERATION_MORE_SCORES_COUNTED + 1}
              ) counted) AS total
      FROM unnest(ARRAY[${Prisma.join(full.map((id) => Prisma.sql`${id}::uuid`))}]) AS g(id)`;
    for (const { generationId, total } of totals) {
      const more = Math.max(0, total - GENERATION_SCORES_MAX);
      Object.assign(byGeneration.get(generationId)!, { moreScores: Math.min(more, GENERATION_MORE_SCORES_COUNTED), moreScoresCapped: more > GENERATION_MORE_SCORES_COUNTED });
    }
  }
  return byGeneration;
}

function itemOf(row: GenerationRow, { scores, moreScores, moreScoresCapped }: ListedScores): GenerationItem {
  return {
    id: row.id,
    version: row.version,
    model: row.model,
    startedAt: row.startedAt,
    latencyMs: row.latencyMs,
    ttftMs: row.ttftMs,
    tokens: { input: row.inputTokens, output: row.outputTokens },
    cost: row.cost,
    status: row.status === "error" ? "error" : "ok",
    error: row.error,
    traceId: row.traceId,
    observationId: row.observationId,
    userRef: row.userRef,
    sessionRef: row.sessionRef,
    environment: row.environment,
    scores,
    moreScores,
    moreScoresCapped,
  };
}


/** A template tag: `db.$queryRaw` to read, `Prisma.sql` for the query itself (its plan, in a test). */
type SqlTag<R> = (strings: TemplateStringsArray, ...values: unknown[]) => R;

/**
 * The query of a page of listGenerations, given to `tag`: the prompt's generations of the span, newest
 * first (by start, then id), `limit + 1` of them. Read per version: the one index that fits is
 * (prompt_id, version, started_at), so a read of the prompt alone took every generation of the span and
 * sorted them, per page. Each version's newest rows come from that index, and the page is the newest of
 * those (no index added: each one slows the ingestion of spans).
 */
export function generationsPage<R>(tag: SqlTag<R>, promptId: string, query: GenerationsQuery, span: ProductionSpan, limit: number): R {
  const parts = [
    Prisma.sql`g.prompt_id = ${promptId}::uuid`,
    Prisma.sql`g.version = v.version`,
    // The span bounds the partitions read.
    Prisma.sql`g.started_at >= ${sqlInstant(span.from)}`,
    Prisma.sql`g.started_at < ${sqlInstant(span.to)}`,
  ];
  if (query.environment !== undefined) parts.push(Prisma.sql`g.environment = ${query.environment}`);
  if (query.model !== undefined) parts.push(Prisma.sql`g.model = ${query.model}`);
  if (query.status !== undefined) parts.push(Prisma.sql`g.status = ${query.status}`);
  if (query.cursor) {
    const after = decodeKeysetCursor(query.cursor, instantSortValue);
    // The first bound is the index's range; the second the exact keyset.
    parts.push(Prisma.sql`g.started_at <= ${sqlInstant(after.sortValue)}`);
    parts.push(Prisma.sql`(g.started_at, g.id) < (${sqlInstant(after.sortValue)}, ${after.id}::uuid)`);
  }
  // Every version the prompt has numbered, deleted ones too (their generations stay linked): a generation
  // is linked only to a version the prompt has, and a version goes only by being recorded as deleted.
  const versions = query.version !== undefined ? Prisma.sql`SELECT ${query.version}::int AS version` : Prisma.sql`
    SELECT pv.version FROM prompt_versions pv WHERE pv.prompt_id = ${promptId}::uuid
    UNION ALL
    SELECT d.version FROM deleted_prompt_versions d WHERE d.prompt_id = ${promptId}::uuid`;
  return tag`
    SELECT ${generationColumns}
    FROM (${versions}) v
    CROSS JOIN LATERAL (
      SELECT g.id, g.version, g.model, g.started_at, g.latency_ms, g.ttft_ms, g.input_tokens, g.output_tokens, g.cost, g.status, g.error_message,
             g.trace_id, g.observation_id, g.user_ref, g.session_ref, g.environment
      FROM generations g
      WHERE ${Prisma.join(parts, " AND ")}
      ORDER BY g.started_at DESC, g.id DESC
      LIMIT ${limit + 1}
    ) g
    ORDER BY g.started_at DESC, g.id DESC
    LIMIT ${limit + 1}`;
}

/**
 * The prompt's generations of the span, newest first (by start, then id), `limit` (default 50) a page,
 * fewer when their scores' text would pass GENERATIONS_PAGE_SCORE_BYTES_MAX (nextCursor goes on after
 * the last listed); `textReadable` as for scoresOf.
 */
export async function listGenerations(db: DbOrTx, promptId: string, query: GenerationsQuery, now: Date, textReadable: boolean): Promise<GenerationPage> {
  const limit = query.limit ?? GENERATIONS_PAGE;
  const rows = await generationsPage((strings, ...values) => db.$queryRaw<GenerationRow[]>(strings, ...values), promptId, query, spanOf(query, now), limit);
  // The page ends at the last generation whose scores' text fits (scoresOf answers for those only).
  const scores = await scoresOf(db, rows.slice(0, limit).map((row) => row.id), textReadable);
  const page = rows.slice(0, scores.size);
  const last = page.at(-1);
  return {
    items: page.map((row) => itemOf(row, scores.get(row.id)!)),
    nextCursor: rows.length > page.length && last ? encodeKeysetCursor(last.startedAt, last.id) : null,
  };
}

/**
 * One generation of the prompt with its scores, and its input and output while its team keeps them, to a
 * caller who may read them (`textReadable`: production.text.read in the prompt's team).
 */
export async function getGeneration(db: DbOrTx, promptId: string, id: string, textReadable: boolean): Promise<GenerationDetail> {
  const readable = textReadable ? generationTextReadable : Prisma.sql`false`;
  const [row] = await db.$queryRaw<(GenerationRow & { input: string | null; output: string | null; textKept: boolean })[]>`
    SELECT ${generationColumns}, CASE WHEN ${readable} THEN g.input END AS input, CASE WHEN ${readable} THEN g.output END AS output,
           t.keep_generation_text AS "textKept"
    FROM generations g JOIN teams t ON t.id = g.team_id
    WHERE g.id = ${id}::uuid AND g.prompt_id = ${promptId}::uuid`;
  if (!row) return fail("NOT_FOUND", PRODUCTION_MSG.generationNotFound);
  const scores = await scoresOf(db, [row.id], textReadable);
  return { ...itemOf(row, scores.get(row.id) ?? noScores()), input: row.input, output: row.output, textKept: row.textKept, textReadable };
}
