// One evaluation item run: the case's variables compiled into the version (a case that breaks the
// contract is an item in error, with compile's message), sent to the provider (retried with growing
// waits after a 429 or a 5xx, each call counted), its output checked by the case's assertions, and
// recorded once: the write is `WHERE status = 'pending'`, so a retried job, a cancelled evaluation or
// another process that got there first changes nothing. The run gives back what to record; the queue's
// lane writes the items it ran in batches (recordItems), one statement for several items. Items are not prompt runs: they are kept in
// evaluation_items only (the Runs tab and the analytics count what people and tools ran, not bulk
// evaluations).
import type { Db } from "@promptly/db";
import {
  RUN_MSG, RUN_OUTPUT_MAX_CHARS, compile, unfilledPlaceholders, type Assertion, type PlaceholderValues, type PromptMessage, type PromptVersionBody, type RunParameters, type VariableContract,
} from "@promptly/shared";
import type { ApiConfig } from "../types.ts";
import { findRunConnection, openRunConnection } from "../models/connections.ts";
import { completeModelAnswer, describeProviderError, type OpenConnection } from "../models/provider-client.ts";
import { costAt, modelPriceFor } from "../models/prices.ts";
import { answerWithinLimit, modelInputOf, runParameters, versionSelect } from "../runs/runs.ts";
import { checkAssertions, type Judge } from "./assertions.ts";
import { storableJson } from "../platform/storable-text.ts";
import type { PromptTool, ResponseFormat, ToolCall } from "@promptly/shared";
import { createJudge } from "./judge.ts";

type Config = ApiConfig;

/** Provider calls one item may make: the first and up to four retries after a 429 or a 5xx. */
const ITEM_MAX_ATTEMPTS = 5;

interface PreparedVersion {
  body: PromptVersionBody;
  model: string;
  parameters: RunParameters;
  /** Sent with each call as the version has them (never compiled). */
  tools: PromptTool[];
  responseFormat: ResponseFormat | null;
  /** The organization's price of the model when the evaluation's items began (null: unknown), read once. */
  price: { inputPerMillion: number; outputPerMillion: number } | null;
}

/** What every item of one evaluation shares, read once per process. */
export interface EvaluationContext {
  id: string;
  organizationId: string;
  connection: OpenConnection & { id: string };
  versions: Map<number, PreparedVersion>;
  judge: Judge;
}

export class EvaluationCannotRun extends Error {}

/** The evaluation's connection (opened) and versions (compiled bodies, models, parameters); throws EvaluationCannotRun when the whole evaluation cannot run. */
export async function loadEvaluationContext(db: Db, config: Config, evaluationId: string): Promise<EvaluationContext | null> {
  const evaluation = await db.evaluation.findUnique({
    where: { id: evaluationId },
    select: { id: true, organizationId: true, promptId: true, versions: true, model: true, connectionId: true, connectionName: true, prompt: { select: { teamId: true } } },
  });
  if (!evaluation) return null;
  const connectionRow = evaluation.connectionId ? await findRunConnection(db, evaluation.connectionId) : null;
  if (!connectionRow) throw new EvaluationCannotRun(connectionDeleted(evaluation.connectionName));
  let connection: EvaluationContext["connection"];
  try {
    connection = openRunConnection(config, connectionRow);
  } catch (error) {
    // A key sealed under another app secret (APP_SECRET changed) opens for no item: the evaluation fails
    // now, saying why (openRunConnection's words), rather than each item's job failing its retries over days.
    throw new EvaluationCannotRun((error as Error).message);
  }
  const rows = await db.promptVersion.findMany({ where: { promptId: evaluation.promptId, version: { in: evaluation.versions } }, select: { version: true, ...versionSelect } });
  const versions = new Map<number, PreparedVersion>();
  for (const row of rows) {
    const variables = row.variables as unknown as VariableContract[];
    const body: PromptVersionBody =
      row.type === "text" ? { type: "text", template: row.template ?? "", variables } : { type: "chat", messages: (row.messages ?? []) as unknown as PromptMessage[], variables };
    const model = evaluation.model ?? row.model.trim();
    versions.set(row.version, {
      body, model, parameters: runParameters({}, row.config), price: await modelPriceFor(db, evaluation.organizationId, model),
      tools: row.tools as unknown as PromptTool[], responseFormat: row.responseFormat as unknown as ResponseFormat | null,
    });
  }
  return {
    id: evaluation.id,
    organizationId: evaluation.organizationId,
    connection,
    versions,
    judge: createJudge({ db, config, organizationId: evaluation.organizationId, teamId: evaluation.prompt.teamId }),
  };
}

export interface PendingItem {
  id: string;
  evaluationId: string;
  version: number;
  variables: Record<string, unknown>;
  /** Each placeholder's messages, as the case fills them. */
  placeholders: PlaceholderValues;
  expected: string | null;
  assertions: Assertion[];
}

/** Runs one statement. */
type Sql = (text: string, values: unknown[]) => Promise<unknown>;

export interface ItemDeps {
  config: Config;
  /** The first wait after a 429 or a 5xx; doubled at each retry. */
  retryBaseMs: number;
  /** No retry starts once this long (ms) was spent on the item: its job would expire and be given to another process. */
  retryBudgetMs: number;
}

class Aborted extends Error {}

const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(new Aborted());
    const done = () => {
      clearTimeout(timer);
      reject(new Aborted());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", done);
      resolve();
    }, ms);
    signal.addEventListener("abort", done, { once: true });
  });

/**
 * Runs one pending item: what to record of it (recordItems writes it), or null when `signal` aborted it
 * (a cancel, a shutdown): nothing is recorded then, and the item stays as the cancel left it (or
 * pending, for another process).
 */
export async function runEvaluationItem(deps: ItemDeps, context: EvaluationContext, item: PendingItem, signal: AbortSignal): Promise<Recorded | null> {
  const version = context.versions.get(item.version);
  if (!version) return { status: "error", error: `Version ${item.version} was deleted` };
  const compiled = compile(version.body, item.variables, item.placeholders);
  if (!compiled.ok) return { status: "error", error: compiled.message };
  const unfilled = "messages" in compiled ? unfilledPlaceholders(compiled.messages) : [];
  if (unfilled.length) return { status: "error", error: RUN_MSG.placeholdersUnfilled(unfilled) };
  const timeoutMs = deps.config.providerTimeoutMs ?? 60_000;
  let attempts = 0;
  let rateLimited = 0;
  let output = "";
  let toolCalls: ToolCall[] = [];
  let inputTokens: number | null = null;
  let outputTokens: number | null = null;
  let error: string | null = null;
  let errorDetail: string | null = null;
  const startedAt = performance.now();
  let latencyMs = 0;
  try {
    for (;;) {
      attempts++;
      const callStartedAt = performance.now();
      try {
        const answer = await completeModelAnswer(
          context.connection,
          { allowPrivate: deps.config.allowPrivateProviderUrls ?? false, timeoutMs, signal },
          { model: version.model, input: modelInputOf(compiled), parameters: version.parameters, tools: version.tools, responseFormat: version.responseFormat },
        );
        // Checked and recorded as a run records it: its text and tool calls together cut at the run's limit.
        const kept = answerWithinLimit(answer);
        toolCalls = kept.toolCalls;
        // An answer that is only tool calls reads as them: `get_weather({"city":"Oslo"})`.
        output = (kept.text || toolCalls.map((call) => `${call.name}(${call.arguments})`).join("\n")).slice(0, RUN_OUTPUT_MAX_CHARS);
        inputTokens = answer.inputTokens;
        outputTokens = answer.outputTokens;
        if (signal.aborted) throw new Aborted();
        latencyMs = Math.round(performance.now() - callStartedAt);
        error = null;
        break;
      } catch (caught) {
        if (signal.aborted || caught instanceof Aborted) throw new Aborted();
        const failure = describeProviderError(caught, context.connection, { timeoutMs, model: version.model });
        if (failure.status === 429) rateLimited++;
        const retryable = failure.status === 429 || (failure.status !== null && failure.status >= 500);
        error = failure.message;
        errorDetail = failure.detail;
        // Growing waits with some jitter, so items rate limited together do not all come back at once.
        // A provider that says when it takes calls again (Retry-After) is waited for at least that long.
        const delay = Math.max(deps.retryBaseMs * 2 ** (attempts - 1) * (0.75 + Math.random() / 2), failure.retryAfterMs ?? 0);
        if (!retryable || attempts >= ITEM_MAX_ATTEMPTS || performance.now() - startedAt + delay > deps.retryBudgetMs) break;
        await wait(delay, signal);
      }
    }
  } catch (caught) {
    if (caught instanceof Aborted) return null;
    throw caught;
  }
  if (error !== null) return { status: "error", error, errorDetail, attempts, rateLimited, latencyMs: Math.round(performance.now() - startedAt) };
  const cost = costAt(version.price, inputTokens, outputTokens);
  let outcomes;
  try {
    outcomes = await checkAssertions(item.assertions, { output, latencyMs, cost, expected: item.expected, toolCalls, responseFormat: version.responseFormat }, context.judge);
  } catch (caught) {
    return { status: "error", error: caught instanceof Error ? caught.message : String(caught), output, attempts, rateLimited, latencyMs, inputTokens, outputTokens, cost };
  }
  return {
    status: outcomes.every((outcome) => outcome.pass) ? "passed" : "failed",
    output,
    results: outcomes,
    attempts,
    rateLimited,
    latencyMs,
    inputTokens,
    outputTokens,
    cost,
  };
}

export interface Recorded {
  status: "passed" | "failed" | "error";
  output?: string;
  results?: unknown;
  error?: string;
  errorDetail?: string | null;
  latencyMs?: number;
  inputTokens?: number | null;
  outputTokens?: number | null;
  cost?: number | null;
  attempts?: number;
  rateLimited?: number;
}

/**
 * Records items, each once (`WHERE status = 'pending'`), in one statement, which also finishes their
 * evaluations when no other item is pending (the statement's own snapshot sees the items it records as
 * still pending, hence the exclusion). Two last batches recorded at once in two processes may each see
 * the other's items still pending: the queue's sweep (finishIfComplete) finishes such an evaluation.
 */
export async function recordItems(sql: Sql, records: readonly { item: PendingItem; data: Recorded }[]): Promise<void> {
  if (!records.length) return;
  const rows = records.map(({ item, data }) => ({
    id: item.id, status: data.status, output: data.output ?? null, results: data.results ?? null, error: data.error ?? null, error_detail: data.errorDetail ?? null, latency_ms: data.latencyMs ?? null,
    input_tokens: data.inputTokens ?? null, output_tokens: data.outputTokens ?? null, cost: data.cost ?? null, attempts: data.attempts ?? 0, rate_limited: data.rateLimited ?? 0,
  }));
  await sql(
    `WITH input AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS t(id uuid, status evaluation_item_status, output text, results jsonb, error text, error_detail text, latency_ms int,
         input_tokens int, output_tokens int, cost float8, attempts int, rate_limited int)),
     recorded AS (
       UPDATE evaluation_items i SET status = input.status, output = input.output, results = CASE WHEN jsonb_typeof(input.results) = 'null' THEN NULL ELSE input.results END,
         error = input.error, error_detail = input.error_detail, latency_ms = input.latency_ms, input_tokens = input.input_tokens, output_tokens = input.output_tokens, cost = input.cost,
         attempts = input.attempts, rate_limited = input.rate_limited, finished_at = now()
       FROM input WHERE i.id = input.id AND i.status = 'pending'
       RETURNING i.id, i.evaluation_id)
     UPDATE evaluations e SET status = 'done', finished_at = now()
     WHERE e.id IN (SELECT evaluation_id FROM recorded) AND e.status IN ('queued', 'running')
       AND NOT EXISTS (SELECT 1 FROM evaluation_items p WHERE p.evaluation_id = e.id AND p.status = 'pending' AND NOT EXISTS (SELECT 1 FROM recorded r WHERE r.id = p.id))`,
    [storableJson(rows)],
  );
}

/** Done once no item is pending: after a lane ran out of work (two last items recorded at once may each have seen the other pending). */
export async function finishIfComplete(sql: Sql, evaluationIds: string[]): Promise<void> {
  if (!evaluationIds.length) return;
  await sql(
    `UPDATE evaluations e SET status = 'done', finished_at = now()
     WHERE e.id = ANY($1::uuid[]) AND e.status IN ('queued', 'running')
       AND NOT EXISTS (SELECT 1 FROM evaluation_items i WHERE i.evaluation_id = e.id AND i.status = 'pending')`,
    [evaluationIds],
  );
}

/**
 * The sweep behind recordItem: evaluations still queued or running with no pending item are done, and
 * those whose connection was deleted (nothing can run them) failed.
 */
export async function sweepEvaluations(db: Db): Promise<void> {
  await db.$executeRaw`
    UPDATE evaluations e SET status = 'done', finished_at = now()
    WHERE e.status IN ('queued', 'running') AND NOT EXISTS (SELECT 1 FROM evaluation_items i WHERE i.evaluation_id = e.id AND i.status = 'pending')`;
  const orphans = await db.evaluation.findMany({ where: { status: { in: ["queued", "running"] }, connectionId: null }, select: { id: true, connectionName: true } });
  for (const orphan of orphans) await failEvaluation(db, orphan.id, connectionDeleted(orphan.connectionName));
}

const connectionDeleted = (name: string) => `The connection '${name}' was deleted`;

/** The whole evaluation could not run (its connection is gone): failed, its pending items in error with the reason. */
export async function failEvaluation(db: Db, evaluationId: string, reason: string): Promise<void> {
  await db.$transaction([
    db.evaluationItem.updateMany({ where: { evaluationId, status: "pending" }, data: { status: "error", error: reason, finishedAt: new Date() } }),
    db.evaluation.updateMany({ where: { id: evaluationId, status: { in: ["queued", "running"] } }, data: { status: "failed", error: reason, finishedAt: new Date() } }),
  ]);
}
