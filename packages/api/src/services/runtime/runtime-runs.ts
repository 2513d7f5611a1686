// Running a prompt with an API key (issue 28, POST /api/v1/prompts/{name}/run): the version a fetch
// would select, checked against its contract as compile checks it, run on a connection of the
// organization open to the key's team through the playground's own streamRun, and recorded as the key.
import type { z } from "zod";
import { RUNTIME_MSG, type RuntimePrompt, type VariableProblem, type runtimeRunInput } from "@promptly/shared";
import type { ApiServices } from "../types.ts";
import { fail } from "../../errors.ts";
import type { AuthenticatedApiKey } from "../identity/api-keys.ts";
import { allowOrFail, authorize } from "../access/authorize.ts";
import { keyCaller } from "../access/visibility.ts";
import { streamRun, type RunEvent } from "../models/runs.ts";
import { compileRuntimePrompt, resolveRuntimePrompt, runtimeSelector } from "./runtime-prompts.ts";

type RunDeps = Pick<ApiServices, "db" | "runtime" | "config" | "now">;

/** The connection a run without `connectionId` uses: the organization's only one open to the team, else a 400 that says what to do. */
async function onlyConnectionFor(deps: RunDeps, organizationId: string, teamId: string): Promise<string> {
  const open = await deps.db.providerConnection.findMany({
    where: { organizationId, OR: [{ teams: { none: {} } }, { teams: { some: { teamId } } }] },
    select: { id: true },
    take: 10,
  });
  if (open.length === 1) return open[0]!.id;
  return fail("INVALID", open.length ? RUNTIME_MSG.chooseConnection(open.length) : RUNTIME_MSG.noConnection, open.length ? "CONNECTION_REQUIRED" : "NO_CONNECTION");
}

export type RuntimeRunStart =
  | { ok: true; prompt: RuntimePrompt; events: AsyncGenerator<RunEvent> }
  | { ok: false; message: string; problems: VariableProblem[] };

/**
 * Starts a key's run of a prompt of its team. Refusals come before any provider call: the key's scope
 * and labels (the one decision), a prompt or version it may not see (404), variables that break the
 * contract (answered as compile answers them, every problem), no connection to choose, and streamRun's
 * own (a connection not open to the team, a model not offered, the runs-at-once limit). `signal` (the
 * caller gone) aborts the provider call; the run is recorded as stopped.
 */
export async function startRuntimeRun(
  deps: RunDeps,
  key: AuthenticatedApiKey,
  name: string,
  input: z.output<typeof runtimeRunInput>,
  signal?: AbortSignal,
): Promise<RuntimeRunStart> {
  const selector = runtimeSelector(input);
  allowOrFail(authorize(keyCaller(key), "prompt.run", { fetch: selector }));
  const resolved = await resolveRuntimePrompt(deps, key, name, selector);
  const compiled = compileRuntimePrompt(resolved.prompt, input.variables);
  if (!compiled.ok) return compiled;
  const team = await deps.db.team.findUniqueOrThrow({ where: { id: key.teamId }, select: { organizationId: true } });
  const connectionId = input.connectionId ?? (await onlyConnectionFor(deps, team.organizationId, key.teamId));
  const events = await streamRun(
    deps,
    { apiKeyId: key.id },
    { id: resolved.promptId, teamId: key.teamId, organizationId: team.organizationId },
    { promptId: resolved.promptId, version: resolved.prompt.version, connectionId, model: input.model, variables: input.variables, parameters: {} },
    signal,
  );
  return { ok: true, prompt: resolved.prompt, events };
}
