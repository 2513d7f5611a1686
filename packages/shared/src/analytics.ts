// Analytics: the inputs of analytics.overview and analytics.prompt, shared with the page.
import { z } from "zod";
import { idSchema } from "./validation.ts";
import { versionRunStats } from "./runs.ts";
import { ANALYTICS_RANGES } from "./options.ts";

const analyticsRangeSchema = z.literal(ANALYTICS_RANGES);

export const analyticsOverviewInput = z.object({ organizationId: idSchema, teamId: idSchema.optional(), days: analyticsRangeSchema });
export const analyticsPromptInput = z.object({ promptId: idSchema, days: analyticsRangeSchema });

/** The label of a usage row that fetched an explicit version (prompt_usage.label is '' then). */
export const BY_VERSION_LABEL = "(by version)";

/** The UTC days of a range ending on `now`'s day, oldest first, as YYYY-MM-DD. */
export function analyticsDays(days: number, now: Date): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: days }, (_, i) => new Date(today - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10));
}

const daily = z.array(z.number().int());
const day = z.string();

/** analytics.overview: what the Analytics page draws and lists, the same numbers as its CSV. */
export const analyticsOverviewOutput = z.object({
  days: z.array(day),
  prompts: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      title: z.string(),
      teamName: z.string(),
      fetches: z.number().int(),
      lastFetched: day.nullable(),
      productionVersion: z.number().int().nullable(),
      ratingAverage: z.number(),
      ratingCount: z.number().int(),
      bookmarks: z.number().int(),
      daily,
    }),
  ),
  labels: z.array(z.object({ label: z.string(), daily })),
  versionsPerWeek: z.array(z.object({ week: day, count: z.number().int() })),
  ratings: z.array(z.object({ stars: z.number().int(), count: z.number().int() })),
  bookmarks: z.array(z.object({ day, added: z.number().int(), total: z.number().int() })),
  /** Runs on models per prompt and version over the same days (the prompts above), beside the fetch counts. */
  runs: z.array(versionRunStats.extend({ promptId: z.string() })),
});

/** analytics.prompt: one prompt's fetches per day by version, label and API key. */
export const analyticsPromptOutput = z.object({
  days: z.array(day),
  total: daily,
  versions: z.array(z.object({ version: z.number().int(), daily, total: z.number().int() })),
  labels: z.array(z.object({ label: z.string(), daily, total: z.number().int() })),
  keysNamed: z.boolean(),
  keys: z.array(z.object({ name: z.string(), daily, total: z.number().int() })),
  /** Runs on models per version over the same days, beside the fetch counts. */
  runs: z.array(versionRunStats),
});
