// Model prices of an organization: the built-in table (packages/shared/src/providers.ts) with the
// organization admin's own prices over it; a run's cost is computed from them when it is recorded.
import { z } from "zod";
import { Prisma, hotQuery, type Db, type DbOrTx } from "@promptly/db";
import { DEFAULT_MODEL_PRICES, setModelPriceInput, type ModelPriceEntry } from "@promptly/shared";
import { auditAs, type AuditContext } from "../insight/audit.ts";

export const modelPriceItem = z.object({
  model: z.string(),
  inputPerMillion: z.number(),
  outputPerMillion: z.number(),
  /** "organization": set by an admin of this organization; "default": the built-in table's. */
  source: z.enum(["organization", "default"]),
});
export type ModelPriceItem = z.infer<typeof modelPriceItem>;

/** Every priced model: the organization's own prices, then the built-in ones it did not set, by model name. */
export async function listModelPrices(db: DbOrTx, organizationId: string): Promise<ModelPriceItem[]> {
  const own = await db.modelPrice.findMany({ where: { organizationId }, select: { model: true, inputPerMillion: true, outputPerMillion: true } });
  const set = new Set(own.map((row) => row.model));
  return [
    ...own.map((row) => ({ ...row, source: "organization" as const })),
    ...DEFAULT_MODEL_PRICES.filter((entry) => !set.has(entry.model)).map((entry) => ({ ...entry, source: "default" as const })),
  ].sort((a, b) => a.model.localeCompare(b.model));
}

/** The price of one model for an organization; null when neither the organization nor the built-in table knows it. */
export async function modelPriceFor(db: DbOrTx, organizationId: string, model: string): Promise<ModelPriceEntry | null> {
  return (await modelPricesFor(db, organizationId, [model])).get(model) ?? null;
}

/** A call's cost in US dollars at `price`; null: the price or the usage is unknown. */
export const costAt = (price: { inputPerMillion: number; outputPerMillion: number } | null, inputTokens: number | null, outputTokens: number | null): number | null =>
  price && inputTokens !== null && outputTokens !== null ? (inputTokens * price.inputPerMillion + outputTokens * price.outputPerMillion) / 1_000_000 : null;

/**
 * The prices of several models for an organization in one statement (read at every run: a prepared statement of
 * our own instead of Prisma's engine): each model's own price, else the built-in one, else null.
 */
export async function modelPricesFor(db: DbOrTx, organizationId: string, models: string[]): Promise<Map<string, ModelPriceEntry | null>> {
  const prices = new Map<string, ModelPriceEntry | null>();
  if (!models.length) return prices;
  const own = await hotQuery<{ model: string; inputPerMillion: number; outputPerMillion: number }>(db, Prisma.sql`
    SELECT model, input_per_million AS "inputPerMillion", output_per_million AS "outputPerMillion" FROM model_prices
    WHERE organization_id = ${organizationId}::uuid AND model = ANY(${models}::text[])`);
  for (const model of models) prices.set(model, builtInModelPrice(model));
  for (const row of own) prices.set(row.model, { model: row.model, inputPerMillion: row.inputPerMillion, outputPerMillion: row.outputPerMillion });
  return prices;
}

/**
 * The built-in price of `model` (DEFAULT_MODEL_PRICES), or null: what modelPriceFor falls back to
 * when the organization set none. runs.ts's insert applies the same rule in SQL.
 */
export function builtInModelPrice(model: string): ModelPriceEntry | null {
  return DEFAULT_MODEL_PRICES.find((entry) => entry.model === model) ?? null;
}

export async function setModelPrice(db: Db, input: z.output<typeof setModelPriceInput>, context: AuditContext): Promise<ModelPriceItem> {
  return db.$transaction(async (tx) => {
    const before = await modelPriceFor(tx, input.organizationId, input.model);
    const price = { inputPerMillion: input.inputPerMillion, outputPerMillion: input.outputPerMillion };
    await tx.modelPrice.upsert({
      where: { organizationId_model: { organizationId: input.organizationId, model: input.model } },
      create: { organizationId: input.organizationId, model: input.model, ...price },
      update: price,
    });
    await auditAs(tx, context, {
      organizationId: input.organizationId,
      action: "model_price.set",
      target: { type: "model", id: input.model, name: input.model },
      before: before && { inputPerMillion: before.inputPerMillion, outputPerMillion: before.outputPerMillion },
      after: price,
    });
    return { model: input.model, ...price, source: "organization" };
  });
}
