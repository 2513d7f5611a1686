// One evaluation item run: the case's variables compiled into the version (a case that breaks the
// contract is an item in error, with compile's message), sent to the provider (retried with growing
// waits after a 429 or a 5xx, each call counted), its output checked by the case's assertions, and
// recorded once: the write is `WHERE status = 'pending'`, so a retried job, a cancelled evaluation or
// another process that got there first changes nothing. Items are not prompt runs: they are kept in
// evaluation_items only (the Runs tab and the analytics count what people and tools ran, not bulk
// evaluations).
import type { Db } from "@promptly/db";
import {
  RUN_OUTPUT_MAX_CHARS, compile, type Assertion, type ChatMessage, type PromptVersionBody, type RunParameters, type VariableContract,
} from "@promptly/shared";
import type { ApiConfig } from "../types.ts";
import { findRunConnection, openRunConnection } from "../models/connections.ts";
import { completeModelAnswer, describeProviderError, type OpenConnection } from "../models/provider-client.ts";
import { modelPriceFor } from "../models/prices.ts";
import { costAt, modelInputOf, runParameters, versionSelect } from "../models/runs.ts";
import { checkAssertions, type Judge } from "./assertions.ts";
import { createJudge } from "./judge.ts";

type Config = ApiConfig;

/** Provider calls one item may make: the first and up to four retries after a 429 or a 5xx. */
const ITEM_MAX_ATTEMPTS = 5;

interface PreparedVersion {
  body: PromptVersionBody;
  model: string;
  parameters: RunParameters;
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
  const rows = await db.promptVersion.findMany({ where: { promptId: evaluation.promptId, version: { in: evaluation.versions } }, select: { version: true, ...versionSelect } });
  const versions = new Map<number, PreparedVersion>();
  for (const row of rows) {
    const variables = row.variables as unknown as VariableContract[];
    const body: PromptVersionBody =
      row.type === "text" ? { type: "text", template: row.template ?? "", variables } : { type: "chat", messages: (row.messages ?? []) as unknown as ChatMessage[], variables };
    const model = evaluation.model ?? row.model.trim();
    versions.set(row.version, { body, model, parameters: runParameters({}, row.config), price: await modelPriceFor(db, evaluation.organizationId, model) });
  }
  return {
    id: evaluation.id,
    organizationId: evaluation.organizationId,
    connection: openRunConnection(config, connectionRow),
    versions,
    judge: createJudge({ db, config, organizationId: evaluation.organizationId, teamId: evaluation.prompt.teamId }),
  };
}

export interface PendingItem {
  id: string;
  evaluationId: string;
  version: number;
  variables: Record<string, unknown>;
  expected: string | null;
  assertions: Assertion[];
}

export interface ItemDeps {
  /** Runs one statement (the item's write: the one statement every item runs). */
  sql: (text: string, values: unknown[]) => Promise<unknown>;
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
 * Runs one pending item and records it; false when `signal` aborted it (a cancel, a shutdown): nothing
 * is recorded then, and the item stays as the cancel left it (or pending, for another process).
 */
export async function runEvaluationItem(deps: ItemDeps, context: EvaluationContext, item: PendingItem, signal: AbortSignal): Promise<boolean> {
  const version = context.versions.get(item.version);
  const record = (data: Recorded) => recordItem(deps, item, data);
  if (!version) {
    await record({ status: "error", error: `Version ${item.version} was deleted` });
    return true;
  }
  const compiled = compile(version.body, item.variables);
  if (!compiled.ok) {
    await record({ status: "error", error: compiled.message });
    return true;
  }
  const timeoutMs = deps.config.providerTimeoutMs ?? 60_000;
  let attempts = 0;
  let rateLimited = 0;
  let output = "";
  let inputTokens: number | null = null;
  let outputTokens: number | null = null;
  let error: string | null = null;
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
          { model: version.model, input: modelInputOf(compiled), parameters: version.parameters },
        );
        output = answer.text.slice(0, RUN_OUTPUT_MAX_CHARS);
        inputTokens = answer.inputTokens;
        outputTokens = answer.outputTokens;
        if (signal.aborted) throw new Aborted();
        latencyMs = Math.round(performance.now() - callStartedAt);
        error = null;
        break;
      } catch (caught) {
        if (signal.aborted || caught instanceof Aborted) throw new Aborted();
        const failure = describeProviderError(caught, context.connection.apiKey);
        if (failure.status === 429) rateLimited++;
        const retryable = failure.status === 429 || (failure.status !== null && failure.status >= 500);
        error = failure.message;
        // Growing waits with some jitter, so items rate limited together do not all come back at once.
        const delay = deps.retryBaseMs * 2 ** (attempts - 1) * (0.75 + Math.random() / 2);
        if (!retryable || attempts >= ITEM_MAX_ATTEMPTS || performance.now() - startedAt + delay > deps.retryBudgetMs) break;
        await wait(delay, signal);
      }
    }
  } catch (caught) {
    if (caught instanceof Aborted) return false;
    throw caught;
  }
  if (error !== null) {
    await record({ status: "error", error, attempts, rateLimited, latencyMs: Math.round(performance.now() - startedAt) });
    return true;
  }
  const cost = costAt(version.price, inputTokens, outputTokens);
  let outcomes;
  try {
    outcomes = await checkAssertions(item.assertions, { output, latencyMs, cost, expected: item.expected }, context.judge);
  } catch (caught) {
    await record({ status: "error", error: caught instanceof Error ? caught.message : String(caught), output, attempts, rateLimited, latencyMs, inputTokens, outputTokens, cost });
    return true;
  }
  await record({
    status: outcomes.every((outcome) => outcome.pass) ? "passed" : "failed",
    output,
    results: outcomes,
    attempts,
    rateLimited,
    latencyMs,
    inputTokens,
    outputTokens,
    cost,
  });
  return true;
}

interface Recorded {
  status: "passed" | "failed" | "error";
  output?: string;
  results?: unknown;
  error?: string;
  latencyMs?: number;
  inputTokens?: number | null;
  outputTokens?: number | null;
  cost?: number | null;
  attempts?: number;
  rateLimited?: number;
}

/**
 * Records an item, once (`WHERE status = 'pending'`), and in the same statement finishes its evaluation
 * when no other item is pending. Two last items recorded at once in two processes may each see the
 * other still pending: the queue's sweep (finishIfComplete) finishes such an evaluation.
 */
async function recordItem(deps: ItemDeps, item: PendingItem, data: Recorded): Promise<void> {
  await deps.sql(
    `WITH recorded AS (
       UPDATE evaluation_items SET status = $3::evaluation_item_status, output = $4, results = $5::jsonb, error = $6, latency_ms = $7::int,
         input_tokens = $8::int, output_tokens = $9::int, cost = $10::float8, attempts = $11::int, rate_limited = $12::int, finished_at = now()
       WHERE id = $1::uuid AND status = 'pending'
       RETURNING evaluation_id)
     UPDATE evaluations SET status = 'done', finished_at = now()
     WHERE id = (SELECT evaluation_id FROM recorded) AND status IN ('queued', 'running')
       AND NOT EXISTS (SELECT 1 FROM evaluation_items WHERE evaluation_id = $2::uuid AND status = 'pending' AND id <> $1::uuid)`,
    [
      item.id, item.evaluationId, data.status, data.output ?? null, data.results === undefined ? null : JSON.stringify(data.results), data.error ?? null,
      data.latencyMs ?? null, data.inputTokens ?? null, data.outputTokens ?? null, data.cost ?? null, data.attempts ?? 0, data.rateLimited ?? 0,
    ],
  );
}

/** Done once no item is pending: after a lane ran out of work (two last items recorded at once may each have seen the other pending). */
export async function finishIfComplete(sql: ItemDeps["sql"], evaluationIds: string[]): Promise<void> {
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
