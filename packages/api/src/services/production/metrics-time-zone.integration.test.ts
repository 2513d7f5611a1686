// The span's first hour is the UTC hour `from` falls in, whatever the session's time zone: in one
// whose offset is not whole hours (Asia/Kolkata, +05:30) a span from 01:45 UTC still counts the rollup
// row of 01:00 UTC (date_trunc('hour', …) there gave 01:30 UTC and left that row out).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { histOf } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld, createPrompt } from "../../../testing/prompts-support.ts";
import { productionMetrics } from "./metrics.ts";

let h: Harness;
let prompt: { id: string };

const HOUR = 3_600_000;
const DAY = Date.UTC(2026, 10, 1);
const at = (hours: number, minutes = 0) => new Date(DAY + hours * HOUR + minutes * 60_000);

beforeAll(async () => {
  h = await createHarness();
  const world = await createLibraryWorld(h);
  const team = await world.team();
  prompt = await createPrompt(world.callers.editor, team.id, { visibility: "team" });
  await h.services.db.$executeRaw`
    INSERT INTO generation_rollups (prompt_id, version, environment, model, hour, generations, errors, latency_sum, latency_count, ttft_sum, ttft_count,
                                    latency_hist, ttft_hist, input_tokens, output_tokens, cost)
    VALUES (${prompt.id}::uuid, 1, 'production', 'gpt-4o-mini', ${at(1)}, 20, 0, 0, 0, 0, 0, ${histOf([])}::int[], ${histOf([])}::int[], 0, 0, 0)`;
  await h.services.db.$executeRaw`
    INSERT INTO score_rollups (prompt_id, version, environment, hour, name, data_type, count, sum, sum_squares, categories)
    VALUES (${prompt.id}::uuid, 1, 'production', ${at(1)}, 'rating', 'numeric', 2, 8, 32, '{}'::jsonb)`;
});
afterAll(() => h.close());

describe("a span's first hour", () => {
  it("is the UTC hour `from` falls in, in a session whose time zone is not whole hours from UTC", async () => {
    const metrics = await h.services.db.$transaction(async (tx) => {
      await tx.$executeRaw`SET LOCAL TIME ZONE 'Asia/Kolkata'`;
      return productionMetrics(tx, prompt.id, { from: at(1, 45), to: at(2) }, at(3));
    });
    expect(metrics.versions).toEqual([
      expect.objectContaining({ version: 1, generations: 20, scores: [expect.objectContaining({ name: "rating", count: 2, mean: 4 })] }),
    ]);
  });
});
