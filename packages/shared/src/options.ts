// The fixed choices of the prompt lists, the runs and Analytics: plain values with no schema, so the web's
// route table (which reads them from the URL on the first page) does not load zod with them.

export const PROMPT_VISIBILITIES = ["private", "team", "organization"] as const;
export type PromptVisibility = (typeof PROMPT_VISIBILITIES)[number];
export const PROMPT_SORTS = ["updated", "name", "rating", "bookmarks"] as const;
export type PromptSort = (typeof PROMPT_SORTS)[number];

export const RUN_STATUSES = ["succeeded", "failed", "stopped"] as const;

/** The ranges the Analytics page offers, in days ending today (UTC). */
export const ANALYTICS_RANGES = [7, 30, 90] as const;
export type AnalyticsRange = (typeof ANALYTICS_RANGES)[number];
