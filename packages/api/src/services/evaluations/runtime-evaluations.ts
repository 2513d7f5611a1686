// Evaluations for tools with an API key (CI): POST /api/v1/prompts/{name}/evaluations starts one of the
// version a label (production by default; a split label its own version) or a number selects, on that
// version's model; GET /api/v1/evaluations/{id} reports it, and GET /api/v1/evaluations/{id}/items lists
// its items (a report's cases). The same decisions as the procedures: the run scope to start, and an
// evaluation of a prompt the key may not read does not exist for it.
import type { z } from "zod";
import { EVALUATION_MSG, RUNTIME_MSG, type EvaluationItemsAnswer, type EvaluationSummary, type runtimeEvaluationInput } from "@promptly/shared";
import type { ApiServices } from "../types.ts";
import { fail } from "../../errors.ts";
import { authorize } from "../access/authorize.ts";
import type { KeyCaller } from "../access/visibility.ts";
import { loadPrompt } from "../prompts/loaded-prompt.ts";
import { keyPromptFor, runtimeSelector } from "../runtime/runtime-prompts.ts";
import { evaluationItemPages, findEvaluationPromptId, getEvaluation, startEvaluation } from "./evaluations.ts";

type Deps = Pick<ApiServices, "db" | "runtime" | "evaluations">;

export async function startRuntimeEvaluation(deps: Deps, caller: KeyCaller, name: string, input: z.output<typeof runtimeEvaluationInput>): Promise<EvaluationSummary> {
  const selector = runtimeSelector(input);
  // The key's team's prompt it may see, then the whole decision on running it (as a run is decided).
  // A split label's own version, never a pick by weight: a CI gate must judge the same version every
  // time (the candidate is evaluated by its number).
  const resolved = await keyPromptFor(deps, caller, "prompt.run", name, selector, "base");
  const prompt = await loadPrompt(deps.db, caller, resolved.promptId);
  if (!prompt) return fail("NOT_FOUND", RUNTIME_MSG.promptNotFound(name));
  return startEvaluation(deps, { apiKeyId: caller.apiKey.id }, prompt, {
    promptId: resolved.promptId, versions: [resolved.prompt.version], model: input.model, connectionId: input.connectionId,
  });
}

/** The evaluation, when the key may read its prompt (its team's, not private or archived); else it does not exist for the key. */
async function readableEvaluation(deps: Deps, caller: KeyCaller, id: string): Promise<void> {
  const promptId = await findEvaluationPromptId(deps.db, id);
  const prompt = promptId ? await loadPrompt(deps.db, caller, promptId) : null;
  if (!prompt || !authorize(caller, "prompt.read", { prompt }).ok) return fail("NOT_FOUND", EVALUATION_MSG.evaluationNotFound);
}

export async function getRuntimeEvaluation(deps: Deps, caller: KeyCaller, id: string): Promise<EvaluationSummary> {
  await readableEvaluation(deps, caller, id);
  return getEvaluation(deps.db, id);
}

/**
 * Every item of the evaluation the key may read, a page at a time, to `read`: the access is decided
 * before (so a refusal comes before anything is written), then each page is one statement of its own
 * (a reader that stops iterating reads no further page). An evaluation holds up to 10,000 items of up to
 * 200,000 characters of output each: never all at once. No transaction is held between pages: a client
 * reading slowly (the answer is written at its pace) must not keep one of the pool's connections, or a
 * few of them would stall every other request.
 */
export async function readRuntimeEvaluationItems<T>(deps: Deps, caller: KeyCaller, id: string, read: (pages: AsyncIterable<EvaluationItemsAnswer["items"]>) => Promise<T>): Promise<T> {
  await readableEvaluation(deps, caller, id);
  return read(pagesOfExisting(deps, id));
}

/**
 * The pages, then a failure if the evaluation is gone: each page is read on its own, so one deleted meanwhile (its
 * prompt's delete cascades) would end its answer early and whole-looking; cut instead, it is not taken for a report.
 */
async function* pagesOfExisting(deps: Deps, id: string): AsyncGenerator<EvaluationItemsAnswer["items"]> {
  yield* evaluationItemPages(deps.db, id);
  if (!(await findEvaluationPromptId(deps.db, id))) throw new Error(`evaluation ${id} was deleted while its items were read`);
}
