// A prompt's generations as they were recorded, newest first, a page at a time, with their scores;
// one generation with its input and output when its team keeps them. Every figure of the Production
// tab comes from the rollups (metrics.ts): these are the rows behind them, to look at one by one.
import { Prisma, sqlInstant, type DbOrTx } from "@promptly/db";
import { GENERATION_MORE_SCORES_COUNTED, GENERATION_SCORES_MAX, PRODUCTION_MSG, type GenerationDetail, type GenerationItem, type GenerationPage, type ProductionFilters } from "@promptly/shared";
import { fail } from "../../errors.ts";
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

const noScores = (): ListedScores => ({ scores: [], moreScores: 0, moreScoresCapped: false });

/**
 * Each generation's newest scores (at most GENERATION_SCORES_MAX), oldest first (the order clients have
 * always had), and how many more it has, counted up to GENERATION_MORE_SCORES_COUNTED (`moreScoresCapped`
 * past it): an ingest key may send any number on one generation, and every list and export of the prompt
 * would read them all. Online evaluation's judge wrote its reasons (the
 * `eval` scores' comments) from the generation's text and may quote it: they are shown as the text is, to
 * a caller who may read it (`textReadable`: production.text.read in the prompt's team) while its team
 * keeps it (generationTextReadable); to anyone else the verdict comes without its reason.
 */
async function scoresOf(db: DbOrTx, ids: string[], textReadable: boolean) {
  const byGeneration = new Map<string, ListedScores>();
  if (ids.length === 0) return byGeneration;
  const wanted = Prisma.join(ids.map((id) => Prisma.sql`${id}::uuid`));
  const reasonReadable = textReadable ? generationTextReadable : Prisma.sql`false`;
  const rows = await db.$queryRaw<(GenerationItem["scores"][number] & { generationId: string; at: string })[]>`
    SELECT s.id::text AS id, g.id::text AS "generationId", s.name, s.data_type AS "dataType", s.value, s.string_value AS "stringValue",
           CASE WHEN s.source <> 'eval' OR ${reasonReadable} THEN s.comment END AS comment, s.source, ${isoTimeSql(Prisma.sql`s.created_at`)} AS at
    FROM generations g JOIN teams t ON t.id = g.team_id
    CROSS JOIN LATERAL (
      -- The newest are the ones kept; the list below puts them back oldest first.
      SELECT s.id, s.name, s.data_type, s.value, s.string_value, s.comment, s.source, s.created_at
      FROM scores s WHERE s.generation_id = g.id
      ORDER BY s.created_at DESC, s.id DESC LIMIT ${GENERATION_SCORES_MAX}
    ) s
    WHERE g.id IN (${wanted})
    ORDER BY g.id, s.created_at, s.id`;
  for (const { generationId, at, ...score } of rows) {
    const listed = byGeneration.get(generationId) ?? noScores();
    listed.scores.push({ ...score, createdAt: at });
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
 * The prompt's generations of the span, newest first (by start, then id), `limit` (default 50) a page;
 * `textReadable` as for scoresOf.
 */
export async function listGenerations(db: DbOrTx, promptId: string, query: GenerationsQuery, now: Date, textReadable: boolean): Promise<GenerationPage> {
  const limit = query.limit ?? GENERATIONS_PAGE;
  const rows = await generationsPage((strings, ...values) => db.$queryRaw<GenerationRow[]>(strings, ...values), promptId, query, spanOf(query, now), limit);
  const page = rows.slice(0, limit);
  const scores = await scoresOf(db, page.map((row) => row.id), textReadable);
  const last = page.at(-1);
  return {
    items: page.map((row) => itemOf(row, scores.get(row.id) ?? noScores())),
    nextCursor: rows.length > limit && last ? encodeKeysetCursor(last.startedAt, last.id) : null,
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
