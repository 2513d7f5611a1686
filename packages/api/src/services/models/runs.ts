// Runs of prompt versions on real models: compiled by the shared compile (the same contract errors as
// everywhere), sent to the provider through its SDK and streamed back, limited (runs at once per
// organization, a timeout, a size cut) and always recorded, whatever their end: succeeded, failed
// (the provider's reason in plain words) or stopped (Stop, a closed page).
import { z } from "zod";
import { Prisma, type Db, type DbOrTx } from "@promptly/db";
import {
  DEFAULT_MAX_CONCURRENT_RUNS, PROVIDER_MSG, RUNTIME_MSG, RUN_MSG, RUN_OUTPUT_MAX_CHARS, RUN_STATUSES, compile, runParametersSchema,
  type ChatMessage, type PromptVersionBody, type RunParameters, type VariableContract, type VersionRunStats, type listRunsInput, type runPromptInput,
} from "@promptly/shared";
import type { ApiConfig } from "../types.ts";
import { fail } from "../../errors.ts";
import { createdAtSortValue, decodeKeysetCursor, encodeKeysetCursor } from "../platform/keyset-cursor.ts";
import { findRunConnection, openRunConnection, type RunConnectionRow } from "./connections.ts";
import { modelPriceFor } from "./prices.ts";
import { describeProviderError, streamModelAnswer, type ModelInput } from "./provider-client.ts";

type Config = Pick<ApiConfig, "secret" | "allowPrivateProviderUrls" | "providerTimeoutMs" | "providerMaxConcurrentRuns">;

export const promptRunItem = z.object({
  id: z.string(),
  promptId: z.string(),
  version: z.number(),
  userId: z.string().nullable(),
  apiKeyId: z.string().nullable(),
  connectionId: z.string().nullable(),
  connectionName: z.string(),
  model: z.string(),
  parameters: runParametersSchema,
  variables: z.record(z.string(), z.unknown()),
  input: z.union([
    z.object({ type: z.literal("text"), text: z.string() }),
    z.object({ type: z.literal("chat"), messages: z.array(z.object({ role: z.enum(["system", "user", "assistant"]), content: z.string() })) }),
  ]),
  output: z.string(),
  inputTokens: z.number().nullable(),
  outputTokens: z.number().nullable(),
  ttftMs: z.number().nullable(),
  totalMs: z.number(),
  /** US dollars; null: the model's price is unknown (or the provider reported no usage). */
  cost: z.number().nullable(),
  status: z.enum(RUN_STATUSES),
  error: z.string().nullable(),
  /** Said of a run that succeeded with something to know, e.g. that the answer was cut. */
  notice: z.string().nullable(),
  createdAt: z.date(),
});
export type PromptRunItem = z.infer<typeof promptRunItem>;

/** The list's rows: everything but the (possibly long) input and output. */
const promptRunSummary = promptRunItem.omit({ input: true, output: true, variables: true });
export const promptRunPage = z.object({ items: z.array(promptRunSummary), nextCursor: z.string().nullable() });

/** `providerStatus`: on a run the provider failed, the HTTP status it answered (null: none, e.g. unreachable). */
export type RunEvent = { type: "delta"; text: string } | { type: "done"; run: PromptRunItem; providerStatus?: number | null };

/** Who runs: a person or a team's API key. */
export type RunActor = { userId: string; apiKeyId?: null } | { userId?: null; apiKeyId: string };

/** The prompt a run is of, as the procedure builder loaded and allowed it. */
export interface RunPrompt {
  id: string;
  teamId: string;
  organizationId: string;
}

const runSelect = {
  id: true, promptId: true, version: true, userId: true, apiKeyId: true, connectionId: true, connectionName: true, model: true, parameters: true,
  variables: true, input: true, output: true, inputTokens: true, outputTokens: true, ttftMs: true, totalMs: true, cost: true, status: true,
  error: true, notice: true, createdAt: true,
} as const;

const toItem = (row: Prisma.PromptRunGetPayload<{ select: typeof runSelect }>): PromptRunItem => promptRunItem.parse(row);

/** Runs in progress per organization, in this process. */
const inProgress = new Map<string, number>();

function takeSlot(organizationId: string, limit: number): () => void {
  const running = inProgress.get(organizationId) ?? 0;
  if (running >= limit) fail("RATE_LIMITED", RUN_MSG.tooManyRuns(limit), "TOO_MANY_RUNS");
  inProgress.set(organizationId, running + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (inProgress.get(organizationId) ?? 1) - 1;
    if (left > 0) inProgress.set(organizationId, left);
    else inProgress.delete(organizationId);
  };
}

/** A number from a version's free-form config, under any of its usual spellings. */
function configNumber(config: Record<string, unknown>, ...keys: string[]): number | undefined {
  for (const key of keys) {
    const value = config[key];
    if (typeof value === "number" && Number.isFinite(value)) return value;
  }
  return undefined;
}

/** The run's parameters: what it sets, else the version's config where it is valid, else nothing (the provider's default). */
function runParameters(given: RunParameters, versionConfig: unknown): RunParameters {
  const config = versionConfig && typeof versionConfig === "object" && !Array.isArray(versionConfig) ? (versionConfig as Record<string, unknown>) : {};
  const stopConfig = typeof config.stop === "string" ? [config.stop] : config.stop;
  const fromConfig = runParametersSchema.safeParse({
    temperature: configNumber(config, "temperature"),
    maxTokens: configNumber(config, "maxTokens", "max_tokens", "max_completion_tokens"),
    topP: configNumber(config, "topP", "top_p"),
    stop: Array.isArray(stopConfig) && stopConfig.every((item) => typeof item === "string") ? stopConfig : undefined,
  });
  const merged = { ...(fromConfig.success ? fromConfig.data : {}), ...Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)) };
  return Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== undefined)) as RunParameters;
}

const versionSelect = { type: true, template: true, messages: true, variables: true, model: true, config: true } as const;
/** What a run reads of its version. */
export type RunVersion = Prisma.PromptVersionGetPayload<{ select: typeof versionSelect }>;

/**
 * What a caller already read (the REST run: its version from the runtime cache, its connection with
 * the team's organization), so a run does not read it again; `connection` null: there is none.
 */
export interface RunPreloaded {
  version?: RunVersion;
  connection?: RunConnectionRow | null;
}

/** What a run needs before the provider is called; every refusal here happens with no call and no record. */
async function prepareRun(db: DbOrTx, config: Config, prompt: RunPrompt, input: z.output<typeof runPromptInput>, preloaded: RunPreloaded = {}) {
  // Independent reads, at once.
  const [version, connectionRow] = await Promise.all([
    preloaded.version ?? db.promptVersion.findUnique({ where: { promptId_version: { promptId: prompt.id, version: input.version } }, select: versionSelect }),
    preloaded.connection !== undefined ? preloaded.connection : findRunConnection(db, input.connectionId),
  ]);
  if (!version) return fail("NOT_FOUND", RUN_MSG.versionNotFound);
  // A connection of another organization does not exist for this prompt.
  if (!connectionRow || connectionRow.organizationId !== prompt.organizationId) return fail("NOT_FOUND", PROVIDER_MSG.notFound);
  if (connectionRow.teams.length && !connectionRow.teams.some((team) => team.teamId === prompt.teamId)) fail("FORBIDDEN", RUN_MSG.connectionNotForTeam, "CONNECTION_NOT_FOR_TEAM");
  const model = input.model ?? version.model.trim();
  if (!model) return fail("INVALID", RUN_MSG.modelRequired, "MODEL_REQUIRED");
  if (connectionRow.models.length && !connectionRow.models.includes(model)) fail("INVALID", RUN_MSG.modelNotOffered(model), "MODEL_NOT_OFFERED");

  const body: PromptVersionBody =
    version.type === "text"
      ? { type: "text", template: version.template ?? "", variables: version.variables as unknown as VariableContract[] }
      : { type: "chat", messages: (version.messages ?? []) as unknown as ChatMessage[], variables: version.variables as unknown as VariableContract[] };
  const compiled = compile(body, input.variables);
  if (!compiled.ok) return fail("INVALID", RUNTIME_MSG.compileFailed + compiled.message, "CONTRACT");
  const modelInput: ModelInput = "text" in compiled ? { type: "text", text: compiled.text } : { type: "chat", messages: compiled.messages };
  const connection = openRunConnection(config, connectionRow);
  return { model, modelInput, connection, connectionName: connectionRow.name, parameters: runParameters(input.parameters, version.config) };
}

type RunDeps = { db: Db; config: Config; now: () => Date };

/**
 * Starts a run of a version: the refusals come first, thrown before any provider call and recorded
 * nowhere (a version or connection that is not there, a connection not open to the prompt's team, a
 * model the connection does not offer, variables that break the contract, the organization's
 * runs-at-once limit). Then the answer streams: `delta` events as text comes, and `done` with the
 * recorded run (a failure of the provider is a recorded run, not an error). `signal` (a Stop, a
 * closed page) aborts the provider call and records the run as stopped, as does leaving the loop early.
 */
export async function streamRun(
  deps: RunDeps,
  actor: RunActor,
  prompt: RunPrompt,
  input: z.output<typeof runPromptInput>,
  signal?: AbortSignal,
  preloaded?: RunPreloaded,
): Promise<AsyncGenerator<RunEvent>> {
  const prepared = await prepareRun(deps.db, deps.config, prompt, input, preloaded);
  const release = takeSlot(prompt.organizationId, deps.config.providerMaxConcurrentRuns ?? DEFAULT_MAX_CONCURRENT_RUNS);
  // A caller gone before the answer was ever read (even while the run was being prepared) still frees
  // its place; the answer's end frees it otherwise.
  if (signal?.aborted) release();
  else signal?.addEventListener("abort", release, { once: true });
  return answerRun(deps, actor, prompt, input, prepared, release, signal);
}

async function* answerRun(
  deps: RunDeps,
  actor: RunActor,
  prompt: RunPrompt,
  input: z.output<typeof runPromptInput>,
  prepared: Awaited<ReturnType<typeof prepareRun>>,
  release: () => void,
  signal?: AbortSignal,
): AsyncGenerator<RunEvent> {
  const timeoutMs = deps.config.providerTimeoutMs ?? 60_000;
  const controller = new AbortController();
  const stopByCaller = () => controller.abort();
  if (signal?.aborted) controller.abort();
  else signal?.addEventListener("abort", stopByCaller, { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);

  const startedAt = performance.now();
  const createdAt = deps.now();
  let output = "";
  let ttftMs: number | null = null;
  let inputTokens: number | null = null;
  let outputTokens: number | null = null;
  let notice: string | null = null;
  // Until the answer ends one way or the other, an exit (the caller left the loop) is a stop.
  let ending: { status: "succeeded" | "failed" | "stopped"; error: string | null } = { status: "stopped", error: RUN_MSG.stopped };
  let recorded: PromptRunItem | null = null;
  let providerStatus: number | null | undefined;
  let recording = false;

  const record = async () => {
    recording = true;
    const price = inputTokens !== null && outputTokens !== null ? await modelPriceFor(deps.db, prompt.organizationId, prepared.model) : null;
    const cost = price && inputTokens !== null && outputTokens !== null ? (inputTokens * price.inputPerMillion + outputTokens * price.outputPerMillion) / 1_000_000 : null;
    const row = await deps.db.promptRun.create({
      data: {
        organizationId: prompt.organizationId,
        promptId: prompt.id,
        version: input.version,
        userId: actor.userId ?? null,
        apiKeyId: actor.apiKeyId ?? null,
        connectionId: prepared.connection.id,
        connectionName: prepared.connectionName,
        model: prepared.model,
        parameters: prepared.parameters as Prisma.InputJsonObject,
        variables: input.variables as Prisma.InputJsonObject,
        input: prepared.modelInput as unknown as Prisma.InputJsonObject,
        output,
        inputTokens,
        outputTokens,
        ttftMs,
        totalMs: Math.round(performance.now() - startedAt),
        cost,
        status: ending.status,
        error: ending.error,
        notice,
        createdAt,
      },
      select: runSelect,
    });
    return toItem(row);
  };

  try {
    const answer = streamModelAnswer(
      prepared.connection,
      { allowPrivate: deps.config.allowPrivateProviderUrls ?? false, timeoutMs, signal: controller.signal },
      { model: prepared.model, input: prepared.modelInput, parameters: prepared.parameters },
    );
    try {
      for await (const piece of answer) {
        if (piece.type === "usage") {
          if (piece.inputTokens !== undefined) inputTokens = piece.inputTokens;
          if (piece.outputTokens !== undefined) outputTokens = piece.outputTokens;
          continue;
        }
        ttftMs ??= Math.round(performance.now() - startedAt);
        const room = RUN_OUTPUT_MAX_CHARS - output.length;
        const text = piece.text.length > room ? piece.text.slice(0, room) : piece.text;
        output += text;
        if (text) yield { type: "delta", text };
        if (piece.text.length > room) {
          // Leaving the loop closes the provider's stream: nothing more is read or paid for.
          notice = RUN_MSG.outputCut;
          break;
        }
      }
      // An SDK stream may end quietly when aborted: the abort, not the quiet end, says how it ended.
      ending = timedOut ? { status: "failed", error: RUN_MSG.timedOut(timeoutMs) } : controller.signal.aborted ? { status: "stopped", error: RUN_MSG.stopped } : { status: "succeeded", error: null };
    } catch (error) {
      if (timedOut) ending = { status: "failed", error: RUN_MSG.timedOut(timeoutMs) };
      else if (controller.signal.aborted) ending = { status: "stopped", error: RUN_MSG.stopped };
      else {
        const failure = describeProviderError(error, prepared.connection.apiKey);
        providerStatus = failure.status;
        ending = { status: "failed", error: failure.message };
      }
    }
    recorded = await record();
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", stopByCaller);
    controller.abort();
    release();
    // The caller left while the answer was still coming: the run is recorded as stopped all the same.
    if (!recording) recorded = await record();
  }
  if (recorded) yield providerStatus === undefined ? { type: "done", run: recorded } : { type: "done", run: recorded, providerStatus };
}

/** One run of a prompt. */
export async function getPromptRun(db: DbOrTx, promptId: string, id: string): Promise<PromptRunItem> {
  const row = await db.promptRun.findFirst({ where: { id, promptId }, select: runSelect });
  if (!row) return fail("NOT_FOUND", RUN_MSG.runNotFound);
  return toItem(row);
}

/** The prompt a run is of (the procedures' locator); null when there is none. */
export async function findPromptRunPromptId(db: DbOrTx, id: string): Promise<string | null> {
  return (await db.promptRun.findUnique({ where: { id }, select: { promptId: true } }))?.promptId ?? null;
}

/** A prompt's runs, newest first, 50 a page (keyset cursor: the last row's creation time and id). */
export async function listPromptRuns(db: DbOrTx, input: z.output<typeof listRunsInput>): Promise<z.infer<typeof promptRunPage>> {
  const after = input.cursor ? decodeKeysetCursor(input.cursor, createdAtSortValue) : null;
  const rows = await db.promptRun.findMany({
    where: {
      promptId: input.promptId,
      ...(input.version !== undefined ? { version: input.version } : {}),
      ...(input.model !== undefined ? { model: input.model } : {}),
      ...(input.status !== undefined ? { status: input.status } : {}),
      ...(after ? { OR: [{ createdAt: { lt: after.sortValue } }, { createdAt: after.sortValue, id: { lt: after.id } }] } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: input.limit + 1,
    select: { ...runSelect, input: false, output: false, variables: false },
  });
  const items = rows.slice(0, input.limit).map((row) => promptRunSummary.parse(row));
  const last = items.at(-1);
  return { items, nextCursor: rows.length > input.limit && last ? encodeKeysetCursor(last.createdAt.toISOString(), last.id) : null };
}

/** Per version of a prompt (newest first): runs, error rate, p50/p95 total time, mean tokens and mean cost; since `from` (a UTC day) when given. */
export async function promptRunStats(db: DbOrTx, promptId: string, from?: string): Promise<VersionRunStats[]> {
  const rows = await db.$queryRaw<
    { version: number; runs: bigint; failed: bigint; p50: number | null; p95: number | null; inTokens: number | null; outTokens: number | null; cost: number | null }[]
  >`
    SELECT version, count(*) AS runs, count(*) FILTER (WHERE status = 'failed') AS failed,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY total_ms) AS p50,
           percentile_cont(0.95) WITHIN GROUP (ORDER BY total_ms) AS p95,
           avg(input_tokens)::float8 AS "inTokens", avg(output_tokens)::float8 AS "outTokens", avg(cost)::float8 AS cost
    FROM prompt_runs WHERE prompt_id = ${promptId}::uuid ${from ? Prisma.sql`AND created_at >= ${from}::date` : Prisma.empty}
    GROUP BY version ORDER BY version DESC`;
  return rows.map((row) => ({
    version: row.version,
    runs: Number(row.runs),
    errorRate: Number(row.runs) ? Number(row.failed) / Number(row.runs) : 0,
    p50TotalMs: row.p50,
    p95TotalMs: row.p95,
    meanInputTokens: row.inTokens,
    meanOutputTokens: row.outTokens,
    meanCost: row.cost,
  }));
}
