// A prompt's generations page by version: 20,000 generations of three versions (one deleted since; six
// starting at each instant, two of each version, across a month's partitions) are walked page by page in
// the order a plain ORDER BY over the table gives, each once, with and without filters; and a page reads
// each version's newest rows through the (prompt_id, version, started_at) index, not every generation of
// the span.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma, sqlInstant } from "@promptly/db";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld, createPrompt } from "../../../testing/prompts-support.ts";
import { commandLineCaller } from "../access/visibility.ts";
import { generationsPage, listGenerations, type GenerationsQuery } from "./generations.ts";
import { ingestProduction } from "./ingest.ts";
import { spanOf } from "./metrics.ts";

let h: Harness;
let prompt: { id: string; name: string };

const MINUTE = 60_000;
/** Before the harness's clock; the generations run from 30 September into October (two partitions). */
const START = Date.UTC(2026, 8, 30);
const span = { from: new Date(START - 60 * MINUTE), to: new Date(START + 5 * 24 * 60 * MINUTE) };
const COUNT = 20_000;
const now = new Date(Date.UTC(2026, 10, 1));

beforeAll(async () => {
  h = await createHarness();
  const world = await createLibraryWorld(h);
  const team = await world.team();
  prompt = await createPrompt(world.callers.editor, team.id, { visibility: "team" });
  await world.callers.editor.promptVersions.create({ promptId: prompt.id, type: "text", template: "Two {{ question }}" });
  await world.callers.editor.promptVersions.create({ promptId: prompt.id, type: "text", template: "Three {{ question }}" });
  const db = h.services.db;
  for (const month of [START - 24 * 60 * MINUTE, START + 24 * 60 * MINUTE]) await db.$queryRaw`SELECT production_ensure_generation_partition(${sqlInstant(new Date(month))})::text`;
  // One generation of each version ingested, then the rest straight into the table.
  await ingestProduction(db, commandLineCaller(), team.id, {
    generations: [1, 2, 3].map((version) => ({
      observationId: `ingested-${version}`, source: "api", promptName: prompt.name, version, environment: "production", model: "gpt-4o-mini",
      startedAt: new Date(START - version * MINUTE), seenAt: new Date(START),
    })),
    scores: [],
  });
  await db.$executeRaw`
    INSERT INTO generations (organization_id, team_id, prompt_id, prompt_name, version, observation_id, source, model, environment, started_at, status)
    SELECT t.organization_id, t.id, ${prompt.id}::uuid, ${prompt.name}, 1 + i % 3, 'seeded-' || i, 'api', 'gpt-4o-mini',
           CASE WHEN i % 5 = 0 THEN 'staging' ELSE 'production' END, ${sqlInstant(new Date(START))} + (i / 6) * interval '1 minute',
           CASE WHEN i % 7 = 0 THEN 'error' ELSE 'ok' END
    FROM teams t CROSS JOIN generate_series(0, ${COUNT - 4}) AS i WHERE t.id = ${team.id}::uuid`;
  // Version 3 deleted since: its generations stay the prompt's.
  await db.$executeRaw`INSERT INTO deleted_prompt_versions (prompt_id, version, deleted_at) VALUES (${prompt.id}::uuid, 3, now())`;
  await db.$executeRaw`ANALYZE generations`;
}, 120_000);
afterAll(() => h.close());

/** The ids a plain ORDER BY over the table gives for the filters. */
async function expected(where: Prisma.Sql) {
  const rows = await h.services.db.$queryRaw<{ id: string }[]>`
    SELECT id::text FROM generations g
    WHERE g.prompt_id = ${prompt.id}::uuid AND g.started_at >= ${sqlInstant(span.from)} AND g.started_at < ${sqlInstant(span.to)} AND ${where}
    ORDER BY g.started_at DESC, g.id DESC`;
  return rows.map((row) => row.id);
}

async function walk(query: Omit<GenerationsQuery, "cursor">) {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await listGenerations(h.services.db, prompt.id, { ...span, ...query, cursor }, now, true);
    ids.push(...page.items.map((item) => item.id));
    if (!page.nextCursor) return ids;
    cursor = page.nextCursor;
  }
}

/** The rows the page's query read from the generations table (every partition), by EXPLAIN ANALYZE. */
async function rowsRead(query: GenerationsQuery, limit: number) {
  const [row] = await h.services.db.$queryRaw<{ "QUERY PLAN": unknown }[]>`
    EXPLAIN (ANALYZE, FORMAT JSON) ${generationsPage(Prisma.sql, prompt.id, query, spanOf(query, now), limit)}`;
  interface PlanNode { "Relation Name"?: string; "Actual Rows"?: number; "Actual Loops"?: number; "Rows Removed by Filter"?: number; Plans?: PlanNode[] }
  // A row a scan read and its filter dropped was read too.
  const read = (node: PlanNode) => ((node["Actual Rows"] ?? 0) + (node["Rows Removed by Filter"] ?? 0)) * (node["Actual Loops"] ?? 1);
  const sum = (node: PlanNode): number =>
    (node["Relation Name"]?.startsWith("generations") ? read(node) : 0) +
    (node.Plans ?? []).reduce((total, child) => total + sum(child), 0);
  const plan = row!["QUERY PLAN"];
  return sum((typeof plan === "string" ? JSON.parse(plan) : plan)[0].Plan as PlanNode);
}

describe("a prompt's generations, paged by version", () => {
  it("are walked each once in the table's order, ties on a start across versions included", async () => {
    const all = await expected(Prisma.sql`true`);
    expect(all).toHaveLength(COUNT);
    expect(await walk({ limit: 200 })).toEqual(all);
    expect(await walk({ limit: 7, environment: "staging", status: "error" })).toEqual(await expected(Prisma.sql`g.environment = 'staging' AND g.status = 'error'`));
    expect(await walk({ limit: 200, version: 2, model: "gpt-4o-mini" })).toEqual(await expected(Prisma.sql`g.version = 2 AND g.model = 'gpt-4o-mini'`));
  }, 120_000);

  it("reads each version's newest rows, not every generation of the span, on the first page and after a cursor", async () => {
    const limit = 50;
    const bound = 10 * (limit + 1) * 3;
    expect(await rowsRead({ ...span }, limit)).toBeLessThan(bound);
    const first = await listGenerations(h.services.db, prompt.id, { ...span, limit: 5000 }, now, true);
    expect(await rowsRead({ ...span, cursor: first.nextCursor! }, limit)).toBeLessThan(bound);
  });
});
