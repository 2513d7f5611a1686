// Production figures and generations for tools with an API key (REST /api/v1): the prompt named is
// the one the key may read (its team's, not private, not archived), decided as every read of a prompt
// is, then the same reads as the app's.
import { type DbOrTx } from "@promptly/db";
import { promptNameSchema, RUNTIME_MSG, type GenerationPage, type ProductionMetrics } from "@promptly/shared";
import { fail } from "../../errors.ts";
import { allowOrFail, authorize } from "../access/authorize.ts";
import { promptVisibility, type KeyCaller } from "../access/visibility.ts";
import { loadPrompt } from "../prompts/loaded-prompt.ts";
import { listGenerations, type GenerationsQuery } from "./generations.ts";
import { productionMetrics } from "./metrics.ts";

/** The id of the prompt of that name the key may read; else it does not exist for the key. */
async function keyReadablePromptId(db: DbOrTx, caller: KeyCaller, name: string): Promise<string> {
  const notFound = () => fail("NOT_FOUND", RUNTIME_MSG.promptNotFound(name));
  if (!promptNameSchema.safeParse(name).success) return notFound();
  const { joins, visible } = promptVisibility(caller);
  const [row] = await db.$queryRaw<{ id: string }[]>`SELECT p.id::text AS id FROM prompts p ${joins} WHERE p.name = ${name} AND ${visible}`;
  const prompt = row ? await loadPrompt(db, caller, row.id) : null;
  if (!prompt) return notFound();
  allowOrFail(authorize(caller, "prompt.read", { prompt }), RUNTIME_MSG.promptNotFound(name));
  return prompt.id;
}

export async function runtimeProductionMetrics(db: DbOrTx, caller: KeyCaller, name: string, filters: { from?: Date; to?: Date; environment?: string; model?: string }, now: Date) {
  const promptId = await keyReadablePromptId(db, caller, name);
  const metrics: ProductionMetrics = await productionMetrics(db, promptId, { ...filters, bucket: "day" }, now);
  return {
    from: metrics.from,
    to: metrics.to,
    environment: filters.environment ?? null,
    versions: metrics.versions.map(({ meanTokens: _t, latencyMeanMs: _l, meanCost: _c, errors: _e, ...figures }) => figures),
  };
}

export async function runtimeGenerations(db: DbOrTx, caller: KeyCaller, name: string, query: GenerationsQuery, now: Date): Promise<GenerationPage> {
  return listGenerations(db, await keyReadablePromptId(db, caller, name), query, now);
}

/**
 * Every generation of the span, newest first, a page at a time (at most `limit` in all): an export
 * streams them as they come, so memory holds one page.
 */
export async function* runtimeGenerationPages(db: DbOrTx, caller: KeyCaller, name: string, query: Omit<GenerationsQuery, "cursor" | "limit">, limit: number, now: Date) {
  const promptId = await keyReadablePromptId(db, caller, name);
  // The span is fixed once, so a page read later covers the same instants.
  const to = query.to ?? now;
  let cursor: string | undefined;
  let left = limit;
  while (left > 0) {
    const page = await listGenerations(db, promptId, { ...query, to, cursor, limit: Math.min(500, left) }, now);
    yield page.items;
    left -= page.items.length;
    if (!page.nextCursor) return;
    cursor = page.nextCursor;
  }
}
