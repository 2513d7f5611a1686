// One evaluation item run: the case's variables compiled into the version (a case that breaks the
// contract is an item in error, with compile's message), sent to the provider (retried with growing
// waits after a 429 or a 5xx, each call counted), its output checked by the case's assertions, and
// recorded once: the write is `WHERE status = 'pending'`, so a retried job, a cancelled evaluation or
// another process that got there first changes nothing. Items are not prompt runs: they are kept in
// evaluation_items only (the Runs tab and the analytics count what people and tools ran, not bulk
// evaluations).
import { Prisma, type Db } from "@promptly/db";
import {
  RUN_OUTPUT_MAX_CHARS, compile, type Assertion, type ChatMessage, type PromptVersionBody, type RunParameters, type VariableContract,
} from "@promptly/shared";
import type { ApiConfig } from "../types.ts";
import { findRunConnection, openRunConnection } from "../models/connections.ts";
import { describeProviderError, streamModelAnswer, type OpenConnection } from "../models/provider-client.ts";
import { modelInputOf, runCost, runParameters, versionSelect } from "../models/runs.ts";
import { checkAssertions, type Judge } from "./assertions.ts";
import { createJudge } from "./judge.ts";

type Config = ApiConfig;

/** Provider calls one item may make: the first and up to four retries after a 429 or a 5xx. */
export const ITEM_MAX_ATTEMPTS = 5;

interface PreparedVersion {
  body: PromptVersionBody;
  model: string;
  parameters: RunParameters;
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
  if (!connectionRow) throw new EvaluationCannotRun(`The connection '${evaluation.connectionName}' was deleted`);
  const rows = await db.promptVersion.findMany({ where: { promptId: evaluation.promptId, version: { in: evaluation.versions } }, select: { version: true, ...versionSelect } });
  const versions = new Map<number, PreparedVersion>();
  for (const row of rows) {
    const variables = row.variables as unknown as VariableContract[];
    const body: PromptVersionBody =
      row.type === "text" ? { type: "text", template: row.template ?? "", variables } : { type: "chat", messages: (row.messages ?? []) as unknown as ChatMessage[], variables };
    versions.set(row.version, { body, model: evaluation.model ?? row.model.trim(), parameters: runParameters({}, row.config) });
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
  db: Db;
  config: Config;
  /** The first wait after a 429 or a 5xx; doubled at each retry. */
  retryBaseMs: number;
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
  const record = (data: Prisma.EvaluationItemUpdateManyMutationInput) =>
    deps.db.evaluationItem.updateMany({ where: { id: item.id, status: "pending" }, data: { ...data, finishedAt: new Date() } });
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
      output = "";
      inputTokens = outputTokens = null;
      const callStartedAt = performance.now();
      try {
        const answer = streamModelAnswer(
          context.connection,
          { allowPrivate: deps.config.allowPrivateProviderUrls ?? false, timeoutMs, signal },
          { model: version.model, input: modelInputOf(compiled), parameters: version.parameters },
        );
        for await (const piece of answer) {
          if (piece.type === "usage") {
            if (piece.inputTokens !== undefined) inputTokens = piece.inputTokens;
            if (piece.outputTokens !== undefined) outputTokens = piece.outputTokens;
            continue;
          }
          output += piece.text;
          if (output.length >= RUN_OUTPUT_MAX_CHARS) {
            output = output.slice(0, RUN_OUTPUT_MAX_CHARS);
            break;
          }
        }
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
        if (!retryable || attempts >= ITEM_MAX_ATTEMPTS) break;
        // Growing waits with some jitter, so items rate limited together do not all come back at once.
        await wait(deps.retryBaseMs * 2 ** (attempts - 1) * (0.75 + Math.random() / 2), signal);
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
  const cost = await runCost(deps.db, context.organizationId, version.model, inputTokens, outputTokens);
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
    results: outcomes as unknown as Prisma.InputJsonArray,
    attempts,
    rateLimited,
    latencyMs,
    inputTokens,
    outputTokens,
    cost,
  });
  return true;
}

/** Done once no item is pending (any process may be the one that records the last). */
export async function finishIfComplete(db: Db, evaluationId: string): Promise<void> {
  await db.$executeRaw`
    UPDATE evaluations SET status = 'done', finished_at = now()
    WHERE id = ${evaluationId}::uuid AND status IN ('queued', 'running')
      AND NOT EXISTS (SELECT 1 FROM evaluation_items WHERE evaluation_id = ${evaluationId}::uuid AND status = 'pending')`;
}

/** The whole evaluation could not run (its connection is gone): failed, its pending items in error with the reason. */
export async function failEvaluation(db: Db, evaluationId: string, reason: string): Promise<void> {
  await db.$transaction([
    db.evaluationItem.updateMany({ where: { evaluationId, status: "pending" }, data: { status: "error", error: reason, finishedAt: new Date() } }),
    db.evaluation.updateMany({ where: { id: evaluationId, status: { in: ["queued", "running"] } }, data: { status: "failed", error: reason, finishedAt: new Date() } }),
  ]);
}
