import { runPromptInput } from "@promptly/shared";
import { byPromptId, promptProcedure } from "../../procedures.ts";
import { runActorOf, streamRun } from "../../services/runs/runs.ts";

/**
 * Runs a version on a model of the organization's connections, as a subscription (server-sent events):
 * `{ type: "delta", text }` as the answer comes, then `{ type: "done", run }` with the recorded run (a
 * provider's failure is a failed run, not an error). Refusals (contract problems, a connection not open
 * to the team, the runs-at-once limit) are errors before any call. Closing the subscription (Stop, a
 * closed page) aborts the provider call; the run is recorded as stopped.
 */
export const run = promptProcedure("run", byPromptId)
  .input(runPromptInput)
  .subscription(({ ctx, input, signal }) => streamRun(ctx, runActorOf(ctx.caller), { ...ctx.prompt, reader: { caller: ctx.caller, access: ctx.prompt.access } }, input, signal));
