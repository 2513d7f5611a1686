// Running a prompt with an API key (POST /api/v1/prompts/{name}/run): the version a fetch
// would select, checked against its contract as compile checks it, run on a connection of the
// organization open to the key's team through the playground's own streamRun, and recorded as the key.
import type { z } from "zod";
import { RUNTIME_MSG, RUN_MSG, unfilledPlaceholders, type RuntimePrompt, type VariableProblem, type runtimeRunInput } from "@promptly/shared";
import type { ApiServices } from "../types.ts";
import { fail } from "../../errors.ts";
import type { KeyCaller } from "../access/visibility.ts";
import { chooseRunConnection, findTeamRunConnections, type RunConnectionRow } from "../models/connections.ts";
import { streamRun, type RunEvent, type RunVersion } from "../runs/runs.ts";
import { compileRuntimePrompt, keyPromptFor, runtimeSelector } from "./runtime-prompts.ts";

type RunDeps = Pick<ApiServices, "db" | "runtime" | "config" | "now">;

/**
 * The team's organization and the connection a run uses, in one read: `connectionId` when given (null
 * when the organization has none such; streamRun refuses it, or one not open to the team), else the
 * one chooseRunConnection picks (the team's default, the organization's, the only one that passed its
 * test), else a 400 that says what to do.
 */
async function runConnectionFor(deps: RunDeps, teamId: string, connectionId: string | undefined): Promise<{ organizationId: string; connection: RunConnectionRow | null }> {
  const { organizationId, defaults, connections } =
    deps.runtime.teamRunConnections<RunConnections>(teamId, connectionId) ?? (await readRunConnections(deps, teamId, connectionId));
  if (connectionId !== undefined) return { organizationId, connection: connections[0] ?? null };
  const chosen = chooseRunConnection(connections, defaults);
  if (chosen) return { organizationId, connection: chosen.connection };
  return fail(
    "INVALID",
    connections.length ? RUNTIME_MSG.chooseConnection(connections.length) : RUNTIME_MSG.noConnection,
    connections.length ? "CONNECTION_REQUIRED" : "NO_CONNECTION",
  );
}

type RunConnections = Awaited<ReturnType<typeof findTeamRunConnections>>;

/**
 * findTeamRunConnections, kept by the runtime cache while it serves: no run waits for this read (nor
 * for a pooled connection to make it, behind other runs' records) once one run of the team made it.
 */
async function readRunConnections(deps: RunDeps, teamId: string, connectionId: string | undefined): Promise<RunConnections> {
  const mark = deps.runtime.mark();
  const read = await findTeamRunConnections(deps.db, teamId, connectionId);
  deps.runtime.keepTeamRunConnections(teamId, connectionId, read, mark);
  return read;
}

export type RuntimeRunStart =
  | { ok: true; prompt: RuntimePrompt; events: AsyncGenerator<RunEvent> }
  | { ok: false; message: string; problems: VariableProblem[] };

/**
 * Starts a key's run of a prompt of its team. Refusals come before any provider call: the key's scope
 * and labels (the one decision), a prompt or version it may not see (404), variables that break the
 * contract (answered as compile answers them, every problem), no connection to choose, and streamRun's
 * own (a connection not open to the team, a model not offered, the runs-at-once limit). `signal` (the
 * caller gone) aborts the provider call; the run is recorded as stopped. Without `stream`, the
 * provider is asked for its answer whole (streamRun's "whole").
 */
export async function startRuntimeRun(
  deps: RunDeps,
  caller: KeyCaller,
  name: string,
  input: z.output<typeof runtimeRunInput>,
  signal?: AbortSignal,
): Promise<RuntimeRunStart> {
  const selector = runtimeSelector(input);
  const resolved = await keyPromptFor(deps, caller, "prompt.run", name, selector);
  const compiled = compileRuntimePrompt(resolved.prompt, input.variables, input.placeholders);
  if (!compiled.ok) return compiled;
  // A placeholder left unfilled is refused before any provider call, each named (the messages' own contract).
  const unfilled = compiled.messages ? unfilledPlaceholders(compiled.messages) : [];
  if (unfilled.length) {
    return { ok: false, message: RUN_MSG.placeholdersUnfilled(unfilled), problems: unfilled.map((name) => ({ variable: name, message: RUN_MSG.placeholderUnfilled })) };
  }
  const { organizationId, connection } = await runConnectionFor(deps, caller.apiKey.teamId, input.connectionId);
  // The version as the runtime cache holds it (versions never change): streamRun does not read it again.
  const { prompt } = resolved;
  const version: RunVersion = {
    type: prompt.type,
    template: prompt.template ?? null,
    messages: (prompt.messages ?? null) as RunVersion["messages"],
    variables: prompt.variables as unknown as RunVersion["variables"],
    model: prompt.model,
    config: prompt.config as RunVersion["config"],
    tools: (prompt.tools ?? []) as unknown as RunVersion["tools"],
    responseFormat: (prompt.responseFormat ?? null) as RunVersion["responseFormat"],
  };
  const events = await streamRun(
    deps,
    { apiKeyId: caller.apiKey.id },
    { id: resolved.promptId, teamId: caller.apiKey.teamId, organizationId },
    { promptId: resolved.promptId, version: prompt.version, connectionId: connection?.id ?? input.connectionId!, model: input.model, variables: input.variables, placeholders: input.placeholders, parameters: {} },
    signal,
    { version, connection },
    // Answered whole, the run asks the provider for its answer whole too.
    input.stream ? "streamed" : "whole",
  );
  return { ok: true, prompt: resolved.prompt, events };
}
