// The time ranges the Production tab offers, apart from the production reads' schemas: the prompt page's
// route reads them in the initial bundle, which should not carry those schemas.
/** The time ranges the Production tab offers, and how long each is. */
export const PRODUCTION_RANGES = ["24h", "7d", "30d", "90d"] as const;
export type ProductionRange = (typeof PRODUCTION_RANGES)[number];
export const PRODUCTION_RANGE_HOURS: Record<ProductionRange, number> = { "24h": 24, "7d": 168, "30d": 720, "90d": 2160 };
