// Evaluations: every test case of a prompt run against one or more of its versions, in
// bulk, on the job queue (queue.ts). Started in one transaction (the items, a snapshot of the cases,
// and their jobs), then read as a summary (per version: cases passed, failed and that could not run,
// the pass rate over those judged, p50 latency, tokens, cost), a matrix of cases x versions, and the
// cases that flipped between two versions. Its cases that could not run can be run again in it.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { Prisma, type Db, type DbOrTx } from "@promptly/db";
import {
  EVALUATION_ITEM_STATUSES, EVALUATION_MSG, RUNTIME_MSG, RUN_MSG, caseErrorInWords, evaluationSummary,
  type EvaluationItemsAnswer, type EvaluationSummary, type compareEvaluationInput, type listEvaluationsInput, type startEvaluationInput,
} from "@promptly/shared";
import { fail } from "../../errors.ts";
import { instantSortValue, decodeKeysetCursor, encodeKeysetCursor } from "../platform/keyset-cursor.ts";
import { allowModel, allowTeamConnection, chooseTeamRunConnection, findRunConnection, listRunConnections, type RunConnectionRow } from "../models/connections.ts";
import type { RunActor, RunPrompt } from "../runs/runs.ts";
import type { EvaluationJobs } from "../types.ts";
import { EVALUATION_CHANNEL } from "./queue.ts";
import { variableOrder, variablesPreview } from "./test-cases.ts";

type StartDeps = { db: Db; evaluations: EvaluationJobs };

/**
 * The connection an evaluation runs on: `connectionId` when given (refused as a run refuses it: another
 * organization's does not exist, one not open to the team is forbidden), else the one a run naming none
 * uses (chooseRunConnection) when it offers every model the evaluation needs, else the first by name that does.
 */
async function evaluationConnection(db: DbOrTx, prompt: RunPrompt, connectionId: string | undefined, models: string[]): Promise<RunConnectionRow> {
  if (connectionId) {
    const row = await findRunConnection(db, connectionId);
    allowTeamConnection(row, prompt);
    return row;
  }
  const [open, chosen] = await Promise.all([listRunConnections(db, prompt.organizationId, prompt.teamId), chooseTeamRunConnection(db, prompt.organizationId, prompt.teamId)]);
  if (!open.length) return fail("INVALID", RUNTIME_MSG.noConnection, "NO_CONNECTION");
  const offers = (connection: (typeof open)[number]) => !connection.models.length || models.every((model) => connection.models.includes(model));
  // The connection a run naming none uses (a default, or the only one that passed its test) when it offers the models; else one that does.
  const preferred = open.find((connection) => connection.id === chosen.connectionId && offers(connection));
  const offering = preferred ?? open.find(offers) ?? open[0]!;
  return (await findRunConnection(db, offering.id))!;
}

/**
 * Starts an evaluation of `versions` (each on its own model, or all on `model`): refused with no
 * record when a version is not there, a model is missing or not offered, the connection may not be
 * used, or the prompt has no test cases. The items (each case x each version, a copy of the case) and
 * their jobs are written in one transaction; the evaluation is `queued` until its first item starts.
 */
export async function startEvaluation(deps: StartDeps, actor: RunActor, prompt: RunPrompt, input: z.output<typeof startEvaluationInput>): Promise<EvaluationSummary> {
  const versionNumbers = [...new Set(input.versions)].sort((a, b) => a - b);
  const versions = await deps.db.promptVersion.findMany({ where: { promptId: prompt.id, version: { in: versionNumbers } }, select: { version: true, model: true } });
  if (versions.length !== versionNumbers.length) return fail("NOT_FOUND", RUN_MSG.versionNotFound);
  const models = versions.map((version) => input.model ?? version.model.trim());
  if (models.some((model) => !model)) fail("INVALID", RUN_MSG.modelRequired, "MODEL_REQUIRED");
  const connection = await evaluationConnection(deps.db, prompt, input.connectionId, models);
  for (const model of models) allowModel(connection, model);

  const id = await deps.db.$transaction(
    async (tx) => {
      const evaluation = await tx.evaluation.create({
        data: {
          organizationId: prompt.organizationId,
          promptId: prompt.id,
          versions: versionNumbers,
          model: input.model ?? null,
          connectionId: connection.id,
          connectionName: connection.name,
          userId: actor.userId ?? null,
          apiKeyId: actor.apiKeyId ?? null,
        },
        select: { id: true },
      });
      // Each case x each version, copied in the database: thousands of cases need not pass through the
      // server twice (a read and a write of every case took ~0.3 s of its CPU at 1,000 cases x 2 versions).
      const items = await tx.$queryRaw<{ id: string }[]>`
        INSERT INTO evaluation_items (evaluation_id, test_case_id, version, variables, placeholders, expected, assertions, position)
        SELECT ${evaluation.id}::uuid, c.id, v.version, c.variables, c.placeholders, c.expected, c.assertions, c.position
        FROM (SELECT id, variables, placeholders, expected, assertions, (row_number() OVER (ORDER BY created_at, id) - 1)::int AS position
              FROM test_cases WHERE prompt_id = ${prompt.id}::uuid) c
        CROSS JOIN unnest(${versionNumbers}::int[]) AS v(version)
        ORDER BY v.version, c.position
        RETURNING id::text`;
      // No case: refused, and the evaluation written above goes with the transaction.
      if (!items.length) fail("PRECONDITION", EVALUATION_MSG.noTestCases, "NO_TEST_CASES");
      await deps.evaluations.enqueue(tx, connection.id, evaluation.id, items.map((item) => item.id));
      return evaluation.id;
    },
    { timeout: 30_000 },
  );
  return getEvaluation(deps.db, id);
}

/** Cancels a queued or running evaluation: its pending items are cancelled, and every process aborts its calls for it at once. */
export async function cancelEvaluation(db: Db, id: string): Promise<EvaluationSummary> {
  await db.$transaction(async (tx) => {
    const cancelled = await tx.evaluation.updateMany({ where: { id, status: { in: ["queued", "running"] } }, data: { status: "cancelled", finishedAt: new Date() } });
    if (!cancelled.count) fail("STATE_CONFLICT", EVALUATION_MSG.notCancellable, "EVALUATION_ENDED");
    await tx.evaluationItem.updateMany({ where: { evaluationId: id, status: "pending" }, data: { status: "cancelled", finishedAt: new Date() } });
    await tx.$executeRaw`SELECT pg_notify(${EVALUATION_CHANNEL}, ${`cancel:${id}`})`;
  });
  return getEvaluation(db, id);
}

/**
 * Runs an evaluation's cases in error again, in the same evaluation: refused while it is queued or
 * running, once cancelled, when its connection was deleted, or with no case in error. In one
 * transaction those items go back to pending (output, verdicts and figures cleared) and onto the
 * queue, and the evaluation is running again until they are recorded; the cases that passed or failed
 * keep their results.
 */
export async function retryEvaluationErrors(deps: StartDeps, id: string): Promise<EvaluationSummary> {
  await deps.db.$transaction(
    async (tx) => {
      const [head] = await tx.$queryRaw<{ status: string; connectionId: string | null; connectionName: string }[]>`
        SELECT status::text, connection_id::text AS "connectionId", connection_name AS "connectionName" FROM evaluations WHERE id = ${id}::uuid FOR UPDATE`;
      if (!head) return fail("NOT_FOUND", EVALUATION_MSG.evaluationNotFound);
      if (head.status === "queued" || head.status === "running") return fail("STATE_CONFLICT", EVALUATION_MSG.retryStillRunning, "EVALUATION_RUNNING");
      if (head.status === "cancelled") return fail("STATE_CONFLICT", EVALUATION_MSG.retryCancelled, "EVALUATION_CANCELLED");
      if (!head.connectionId) return fail("PRECONDITION", EVALUATION_MSG.retryConnectionDeleted(head.connectionName), "CONNECTION_DELETED");
      const items = await tx.$queryRaw<{ id: string }[]>`
        UPDATE evaluation_items SET status = 'pending', output = NULL, results = NULL, error = NULL, latency_ms = NULL, input_tokens = NULL, output_tokens = NULL,
          cost = NULL, attempts = 0, rate_limited = 0, finished_at = NULL
        WHERE evaluation_id = ${id}::uuid AND status = 'error'
        RETURNING id::text`;
      if (!items.length) return fail("STATE_CONFLICT", EVALUATION_MSG.retryNothing, "NO_ERRORS");
      await tx.evaluation.update({ where: { id }, data: { status: "running", error: null, finishedAt: null }, select: { id: true } });
      // A round of its own: the workers read the connection afresh (it may have been mended since).
      await deps.evaluations.enqueue(tx, head.connectionId, id, items.map((item) => item.id), randomUUID());
    },
    { timeout: 30_000 },
  );
  return getEvaluation(deps.db, id);
}

/** The prompt an evaluation is of (the procedures' locator); null when there is none. */
export async function findEvaluationPromptId(db: DbOrTx, id: string): Promise<string | null> {
  return (await db.evaluation.findUnique({ where: { id }, select: { promptId: true } }))?.promptId ?? null;
}

const headSelect = { id: true, promptId: true, status: true, versions: true, model: true, connectionName: true, createdAt: true, finishedAt: true } as const;
type Head = Prisma.EvaluationGetPayload<{ select: typeof headSelect }>;

interface VersionRow {
  evaluationId: string;
  version: number;
  total: bigint;
  passed: bigint;
  failed: bigint;
  errors: bigint;
  /** The reason of its first case in error (by position). */
  firstError: string | null;
  p50: number | null;
  tokens: bigint | null;
  cost: number | null;
}

/** Per evaluation and version: items, passed, failed, in error (and the first one's reason), p50 latency, tokens and cost. */
async function versionRows(db: DbOrTx, ids: string[]): Promise<VersionRow[]> {
  if (!ids.length) return [];
  return db.$queryRaw<VersionRow[]>`
    SELECT evaluation_id::text AS "evaluationId", version, count(*) AS total,
           count(*) FILTER (WHERE status = 'passed') AS passed,
           count(*) FILTER (WHERE status = 'failed') AS failed,
           count(*) FILTER (WHERE status = 'error') AS errors,
           (array_agg(error ORDER BY position) FILTER (WHERE status = 'error'))[1] AS "firstError",
           percentile_cont(0.5) WITHIN GROUP (ORDER BY latency_ms) FILTER (WHERE status IN ('passed', 'failed')) AS p50,
           sum(COALESCE(input_tokens, 0) + COALESCE(output_tokens, 0)) AS tokens,
           sum(cost) AS cost
    FROM evaluation_items WHERE evaluation_id = ANY(${ids}::uuid[])
    GROUP BY evaluation_id, version ORDER BY version`;
}

/** A pass rate as a percentage with one decimal: the cases that passed over those judged (a case that could not run is neither); null when none was judged. */
const passRateOf = (passed: number, failed: number) => (passed + failed ? Math.round((passed / (passed + failed)) * 1000) / 10 : null);

/** The first case's reason, said for people (the matrix keeps each case's reason as the provider gave it). */
const firstErrorInWords = (error: string | null) => (error === null ? null : caseErrorInWords(error));

function summaryOf(head: Head, rows: VersionRow[]): EvaluationSummary {
  const mine = rows.filter((row) => row.evaluationId === head.id);
  const sum = (field: "total" | "passed" | "failed" | "errors") => mine.reduce((total, row) => total + Number(row[field]), 0);
  return evaluationSummary.parse({
    ...head,
    total: sum("total"),
    done: sum("passed") + sum("failed"),
    failed: sum("failed"),
    errors: sum("errors"),
    firstError: firstErrorInWords(mine.find((row) => row.firstError !== null)?.firstError ?? null),
    versions: head.versions.map((version) => {
      const row = mine.find((candidate) => candidate.version === version);
      const passed = Number(row?.passed ?? 0);
      const failed = Number(row?.failed ?? 0);
      return {
        version,
        passed,
        failed,
        errors: Number(row?.errors ?? 0),
        passRate: passRateOf(passed, failed),
        p50Ms: row?.p50 === null || row?.p50 === undefined ? null : Math.round(row.p50),
        tokens: row?.tokens ? Number(row.tokens) : 0,
        cost: row?.cost ?? null,
      };
    }),
  });
}

export async function getEvaluation(db: DbOrTx, id: string): Promise<EvaluationSummary> {
  const head = await db.evaluation.findUnique({ where: { id }, select: headSelect });
  if (!head) return fail("NOT_FOUND", EVALUATION_MSG.evaluationNotFound);
  return summaryOf(head, await versionRows(db, [id]));
}

export const evaluationPage = z.object({ items: z.array(evaluationSummary), nextCursor: z.string().nullable() });

/** A prompt's evaluations, newest first (keyset cursor: the last one's creation time and id). */
export async function listEvaluations(db: DbOrTx, input: z.output<typeof listEvaluationsInput>): Promise<z.infer<typeof evaluationPage>> {
  const after = input.cursor ? decodeKeysetCursor(input.cursor, instantSortValue) : null;
  const heads = await db.evaluation.findMany({
    where: {
      promptId: input.promptId,
      ...(after ? { OR: [{ createdAt: { lt: after.sortValue } }, { createdAt: after.sortValue, id: { lt: after.id } }] } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: input.limit + 1,
    select: headSelect,
  });
  const page = heads.slice(0, input.limit);
  const rows = await versionRows(db, page.map((head) => head.id));
  const last = page.at(-1);
  return { items: page.map((head) => summaryOf(head, rows)), nextCursor: heads.length > input.limit && last ? encodeKeysetCursor(last.createdAt.toISOString(), last.id) : null };
}

const assertionOutcome = z.object({ type: z.string(), value: z.string().optional(), pass: z.boolean(), reason: z.string().optional() });

/** One case's run on one version, whole (evaluations.item; the REST API's report). */
const evaluationCell = z.object({
  version: z.number(),
  status: z.enum(EVALUATION_ITEM_STATUSES),
  output: z.string().nullable(),
  /** Each assertion's verdict, with the judge's reason; null until the item ran (or when it could not). */
  results: z.array(assertionOutcome).nullable(),
  error: z.string().nullable(),
  /** The provider's or the network's own words behind `error` (the page's Details). */
  errorDetail: z.string().nullable(),
  latencyMs: z.number().nullable(),
  tokens: z.number().nullable(),
  cost: z.number().nullable(),
  attempts: z.number(),
  rateLimited: z.number(),
});

// The matrix and the comparison show each item as a preview, a page of cases at a time: read whole, an
// evaluation's 10,000 items of up to 200,000 characters of output (and their cases' 100,000 of values
// and of expected output) would pass the server's heap. The cut is made in the query, so the whole texts
// never reach the server; one item is read whole by evaluationItemOf.
/** How much of an output, an expected output or a variable's value a preview shows. */
const PREVIEW_TEXT = 300;
/** How much of an assertion's value a preview shows: the page clips it shorter. */
const PREVIEW_LABEL = 100;
/** How much of a judge's reason a preview shows (a judge's answer may hold 64 KiB of it). */
const PREVIEW_REASON = 500;
/**
 * How much of a case's error a preview shows: ours are short (a provider's message in one cut to 300
 * characters), but a prompt's own refusal of a case's values names every variable and every allowed option
 * (megabytes at the limits). Its detail is shown whole: cut to 1,000 when written (describeProviderError).
 */
const PREVIEW_ERROR = 2_000;
// Whether a text is cut is asked of its first N + 1 characters: the length of the whole would read (and
// decompress) the whole value.

/** A verdict previewed: the judge's reason's first PREVIEW_REASON characters, `reasonCut` when it has more. */
const outcomePreview = assertionOutcome.extend({ reasonCut: z.boolean().optional() });

const cellPreview = evaluationCell.extend({
  /** The output's first PREVIEW_TEXT characters; `outputCut` says there is more (evaluations.item reads it whole). */
  outputCut: z.boolean(),
  /** The error's first PREVIEW_ERROR characters; `errorCut` says there is more (evaluations.item reads it whole). */
  errorCut: z.boolean(),
  results: z.array(outcomePreview).nullable(),
});

/** A case of the evaluation (as it was when the evaluation started), previewed, and its run on each version. */
const evaluationCase = z.object({
  position: z.number(),
  testCaseId: z.string().nullable(),
  /** Its variables as the prompt's cases list shows them (variablesPreview), values to PREVIEW_TEXT characters; variableCount says how many it has. */
  variables: z.array(z.object({ name: z.string(), nameCut: z.boolean(), value: z.string(), cut: z.boolean() })),
  variableCount: z.number(),
  expected: z.object({ text: z.string(), cut: z.boolean() }).nullable(),
  versions: z.array(cellPreview),
});

/**
 * A page of the matrix: `nextCursor` is the position to read on from, null after the last case. The summary (an
 * aggregate over every item) is evaluations.get's alone: the page polls a running evaluation's pages.
 */
export const evaluationResults = z.object({ cases: z.array(evaluationCase), nextCursor: z.number().nullable() });

/** One item whole: its case's variables (in its preview's order) and expected output as they were when the evaluation started, and its run. */
export const evaluationItemWhole = evaluationCell.extend({
  position: z.number(),
  testCaseId: z.string().nullable(),
  variables: z.record(z.string(), z.unknown()),
  expected: z.string().nullable(),
});

const itemSelect = {
  position: true, testCaseId: true, variables: true, expected: true, version: true, status: true, output: true, results: true, error: true, errorDetail: true, latencyMs: true,
  inputTokens: true, outputTokens: true, cost: true, attempts: true, rateLimited: true,
} as const;
type ItemRow = Prisma.EvaluationItemGetPayload<{ select: typeof itemSelect }>;

const cellOf = (row: ItemRow): z.infer<typeof evaluationCell> => ({
  version: row.version,
  status: row.status,
  output: row.output,
  results: row.results as z.infer<typeof evaluationCell>["results"],
  error: row.error,
  errorDetail: row.errorDetail,
  latencyMs: row.latencyMs,
  tokens: row.inputTokens === null && row.outputTokens === null ? null : (row.inputTokens ?? 0) + (row.outputTokens ?? 0),
  cost: row.cost,
  attempts: row.attempts,
  rateLimited: row.rateLimited,
});

/** An item as the preview query reads it: its texts cut, its case's preview with it. */
const previewRow = cellPreview.omit({ tokens: true }).extend({
  position: z.number(),
  testCaseId: z.string().nullable(),
  variables: evaluationCase.shape.variables,
  variableCount: z.number(),
  expected: evaluationCase.shape.expected,
  inputTokens: z.number().nullable(),
  outputTokens: z.number().nullable(),
});

/** The items of the evaluation at `positions` (on `versions`), by position then version, their texts cut in the query. */
async function previewItems(db: DbOrTx, id: string, positions: number[], versions: number[]): Promise<z.infer<typeof evaluationCase>[]> {
  if (!positions.length) return [];
  const evaluation = await db.evaluation.findUnique({ where: { id }, select: { promptId: true } });
  const order = evaluation ? await variableOrder(db, evaluation.promptId) : [];
  const rows = await db.$queryRaw<unknown[]>`
    SELECT i.position, i.version, i.test_case_id::text AS "testCaseId", i.status::text AS status,
      left(i.output, ${PREVIEW_TEXT}) AS output, COALESCE(length(left(i.output, ${PREVIEW_TEXT + 1})) > ${PREVIEW_TEXT}, false) AS "outputCut",
      CASE WHEN i.results IS NULL THEN NULL ELSE COALESCE((
        SELECT jsonb_agg(jsonb_strip_nulls(jsonb_build_object('type', r.value->>'type', 'value', left(r.value->>'value', ${PREVIEW_LABEL}), 'pass', r.value->'pass', 'reason', left(r.value->>'reason', ${PREVIEW_REASON}),
          'reasonCut', CASE WHEN length(left(r.value->>'reason', ${PREVIEW_REASON + 1})) > ${PREVIEW_REASON} THEN true END)) ORDER BY r.n)
        FROM jsonb_array_elements(i.results) WITH ORDINALITY AS r(value, n)
      ), '[]'::jsonb) END AS results,
      left(i.error, ${PREVIEW_ERROR}) AS error, COALESCE(length(left(i.error, ${PREVIEW_ERROR + 1})) > ${PREVIEW_ERROR}, false) AS "errorCut", i.error_detail AS "errorDetail",
      i.latency_ms AS "latencyMs", i.input_tokens AS "inputTokens", i.output_tokens AS "outputTokens", i.cost, i.attempts, i.rate_limited AS "rateLimited",
      (SELECT count(*)::int FROM jsonb_object_keys(i.variables)) AS "variableCount",
      ${variablesPreview(Prisma.sql`i.variables`, order, PREVIEW_TEXT)} AS variables,
      CASE WHEN i.expected IS NULL THEN NULL
           ELSE jsonb_build_object('text', left(i.expected, ${PREVIEW_TEXT}), 'cut', length(left(i.expected, ${PREVIEW_TEXT + 1})) > ${PREVIEW_TEXT}) END AS expected
    FROM evaluation_items i
    WHERE i.evaluation_id = ${id}::uuid AND i.position = ANY(${positions}::int[]) AND i.version = ANY(${versions}::int[])
    ORDER BY i.position, i.version`;
  const byPosition = new Map<number, z.infer<typeof evaluationCase>>();
  for (const raw of rows) {
    const { position, testCaseId, variables, variableCount, expected, inputTokens, outputTokens, ...cell } = previewRow.parse(raw);
    let entry = byPosition.get(position);
    if (!entry) {
      entry = { position, testCaseId, variables, variableCount, expected, versions: [] };
      byPosition.set(position, entry);
    }
    entry.versions.push({ ...cell, tokens: inputTokens === null && outputTokens === null ? null : (inputTokens ?? 0) + (outputTokens ?? 0) });
  }
  return [...byPosition.values()];
}

type CasePage = { cursor?: number; limit: number };

/** The page's positions (limit of them after the cursor) and the cursor to read on from. */
function pageOf(positions: number[], page: CasePage) {
  const mine = positions.slice(0, page.limit);
  return { positions: mine, nextCursor: positions.length > page.limit ? mine.at(-1)! : null };
}

/** A page of the matrix: per case (in the order of the prompt's cases), per version: output, status, each assertion's verdict, latency, tokens, cost, texts cut short. */
export async function evaluationResultsOf(db: DbOrTx, input: { id: string } & CasePage): Promise<z.infer<typeof evaluationResults>> {
  const versions = (await db.evaluation.findUnique({ where: { id: input.id }, select: { versions: true } }))?.versions;
  if (!versions) return fail("NOT_FOUND", EVALUATION_MSG.evaluationNotFound);
  // Every case has an item on each version: its first version's items are the cases.
  const rows = await db.evaluationItem.findMany({
    where: { evaluationId: input.id, version: versions[0]!, ...(input.cursor !== undefined && { position: { gt: input.cursor } }) },
    orderBy: { position: "asc" },
    take: input.limit + 1,
    select: { position: true },
  });
  const { positions, nextCursor } = pageOf(rows.map((row) => row.position), input);
  return { cases: await previewItems(db, input.id, positions, versions), nextCursor };
}

/**
 * A case's variables in `order` (variableOrder), as its preview lists them: the template's own first, then the
 * others by name's code point (UTF-8's byte order is the code points', as COLLATE "C" sorts them).
 */
function inVariableOrder(variables: Record<string, unknown>, order: string[]): Record<string, unknown> {
  const rank = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length);
  return Object.fromEntries(Object.entries(variables).sort(([a], [b]) => rank(a) - rank(b) || Buffer.compare(Buffer.from(a), Buffer.from(b))));
}

/** One item of the evaluation (of the prompt `promptId`) whole, by its case's position and its version: its variables in the preview's order. */
export async function evaluationItemOf(db: DbOrTx, promptId: string, input: { id: string; position: number; version: number }): Promise<z.infer<typeof evaluationItemWhole>> {
  const row = await db.evaluationItem.findUnique({ where: { evaluationId_version_position: { evaluationId: input.id, version: input.version, position: input.position } }, select: itemSelect });
  if (!row) return fail("NOT_FOUND", EVALUATION_MSG.evaluationItemNotFound);
  const variables = inVariableOrder(row.variables as Record<string, unknown>, await variableOrder(db, promptId));
  return { position: row.position, testCaseId: row.testCaseId, variables, expected: row.expected, ...cellOf(row) };
}

/** Items read per statement: each holds up to 200,000 characters of output and its case's variables, and an evaluation up to 10,000 of them. */
export const EVALUATION_ITEMS_PAGE = 50;

type EvaluationItem = EvaluationItemsAnswer["items"][number];

const itemOf = (row: ItemRow): EvaluationItem => {
  const { version, status, output, results, error, errorDetail, latencyMs } = cellOf(row);
  return { position: row.position, version, status, variables: row.variables as Record<string, unknown>, output, results, error, errorDetail, latencyMs };
};

/**
 * Every item of the evaluation, by version then position (the REST API's report, for CI: the command
 * line's JUnit XML), a page at a time (keyset on the (evaluation, version, position) key), so what is
 * held at once is one page. Each item is in one page (its key never changes), as it is when its page is
 * read: an evaluation still running (or whose cases in error are being retried) may show an item finished
 * between two pages as finished and an earlier one as pending.
 */
export async function* evaluationItemPages(db: DbOrTx, id: string, pageSize = EVALUATION_ITEMS_PAGE): AsyncGenerator<EvaluationItem[]> {
  let after: { version: number; position: number } | null = null;
  for (;;) {
    const rows: ItemRow[] = await db.evaluationItem.findMany({
      where: { evaluationId: id, ...(after && { OR: [{ version: { gt: after.version } }, { version: after.version, position: { gt: after.position } }] }) },
      orderBy: [{ version: "asc" }, { position: "asc" }],
      take: pageSize,
      select: itemSelect,
    });
    if (rows.length) yield rows.map(itemOf);
    if (rows.length < pageSize) return;
    const last = rows.at(-1)!;
    after = { version: last.version, position: last.position };
  }
}

const flippedCase = evaluationCase.omit({ versions: true }).extend({ base: cellPreview, candidate: cellPreview });
/** A page of the flipped cases (`flippedCount` counts them all; `nextCursor` as the matrix's). */
export const evaluationComparison = z.object({ base: z.number(), candidate: z.number(), flipped: z.array(flippedCase), flippedCount: z.number(), nextCursor: z.number().nullable() });

/** The cases that passed on one version and failed on the other, with both runs (the page diffs their outputs), a page at a time, texts cut short. */
export async function compareEvaluation(db: DbOrTx, input: z.output<typeof compareEvaluationInput>): Promise<z.infer<typeof evaluationComparison>> {
  const head = await db.evaluation.findUnique({ where: { id: input.id }, select: { versions: true } });
  if (!head) return fail("NOT_FOUND", EVALUATION_MSG.evaluationNotFound);
  if (!head.versions.includes(input.base) || !head.versions.includes(input.candidate)) return fail("NOT_FOUND", RUN_MSG.versionNotFound);
  const after = input.cursor ?? -1;
  // The flipped cases' positions only (at most 2,000 numbers); their items are read a page at a time.
  const flips = await db.$queryRaw<{ position: number }[]>`
    SELECT b.position
    FROM evaluation_items b
    JOIN evaluation_items c ON c.evaluation_id = b.evaluation_id AND c.position = b.position AND c.version = ${input.candidate}
    WHERE b.evaluation_id = ${input.id}::uuid AND b.version = ${input.base}
      AND b.status IN ('passed', 'failed') AND c.status IN ('passed', 'failed') AND b.status <> c.status
    ORDER BY b.position`;
  const later = flips.filter((flip) => flip.position > after).map((flip) => flip.position);
  const { positions, nextCursor } = pageOf(later.slice(0, input.limit + 1), input);
  const flipped = (await previewItems(db, input.id, positions, [input.base, input.candidate])).map(({ versions, ...testCase }) => ({
    ...testCase,
    base: versions.find((cell) => cell.version === input.base)!,
    candidate: versions.find((cell) => cell.version === input.candidate)!,
  }));
  return { base: input.base, candidate: input.candidate, flipped, flippedCount: flips.length, nextCursor };
}

/** The latest finished (done) evaluation of the prompt that ran every one of `versions`: the same cases for each; null when there is none. */
export async function latestEvaluation(db: DbOrTx, promptId: string, versions: number[]): Promise<EvaluationSummary | null> {
  const head = await db.evaluation.findFirst({
    where: { promptId, status: "done", versions: { hasEvery: versions } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: headSelect,
  });
  return head ? summaryOf(head, await versionRows(db, [head.id])) : null;
}

