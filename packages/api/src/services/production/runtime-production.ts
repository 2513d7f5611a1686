// Production figures and generations for tools with an API key (REST /api/v1): the prompt named is
// the one the key may read (its team's, not private, not archived), decided as every read of a prompt
// is, then the same reads as the app's.
import { type DbOrTx } from "@promptly/db";
import { type GenerationPage, type ProductionMetrics } from "@promptly/shared";
import type { KeyCaller } from "../access/visibility.ts";
import { loadKeyPrompt } from "../runtime/runtime-prompts.ts";
import { listGenerations, readsGenerationText, type GenerationsQuery } from "./generations.ts";
import { productionMetrics } from "./metrics.ts";

/** The id of the prompt of that name the key may read (the runtime API's one lookup); else it does not exist for the key. */
const keyReadablePromptId = async (db: DbOrTx, caller: KeyCaller, name: string) => (await loadKeyPrompt(db, caller, name, [], "prompt.read")).id;

export async function runtimeProductionMetrics(db: DbOrTx, caller: KeyCaller, name: string, filters: { from?: Date; to?: Date; environment?: string; model?: string }, now: Date) {
  const promptId = await keyReadablePromptId(db, caller, name);
  const metrics: ProductionMetrics = await productionMetrics(db, promptId, { ...filters, bucket: "day" }, now);
  return {
    from: metrics.from,
    to: metrics.to,
    environment: filters.environment ?? null,
    versions: metrics.versions.map(({ meanTokens: _t, latencyMeanMs: _l, meanCost: _c, errors: _e, ...figures }) => figures),
    scoresAllModels: metrics.scoresAllModels,
  };
}

export async function runtimeGenerations(db: DbOrTx, caller: KeyCaller, name: string, query: GenerationsQuery, now: Date): Promise<GenerationPage> {
  const prompt = await loadKeyPrompt(db, caller, name, [], "prompt.read");
  return listGenerations(db, prompt.id, query, now, readsGenerationText(caller, prompt.access));
}

/**
 * Every generation of the span, newest first, a page at a time (at most `limit` in all): an export
 * streams them as they come, so memory holds one page.
 */
export async function* runtimeGenerationPages(db: DbOrTx, caller: KeyCaller, name: string, query: Omit<GenerationsQuery, "cursor" | "limit">, limit: number, now: Date) {
  const prompt = await loadKeyPrompt(db, caller, name, [], "prompt.read");
  const textReadable = readsGenerationText(caller, prompt.access);
  // The span is fixed once, so a page read later covers the same instants.
  const to = query.to ?? now;
  let cursor: string | undefined;
  let left = limit;
  while (left > 0) {
    const page = await listGenerations(db, prompt.id, { ...query, to, cursor, limit: Math.min(500, left) }, now, textReadable);
    yield page.items;
    left -= page.items.length;
    if (!page.nextCursor) return;
    cursor = page.nextCursor;
  }
}
