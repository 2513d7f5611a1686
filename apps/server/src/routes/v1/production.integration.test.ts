// Production reads over REST /api/v1 with a team's key: a prompt's figures per version from seeded
// rollups, its generations a page at a time and exported whole as CSV and JSON Lines; only the
// prompts the key may read (its team's, not private); and a prompt named like a production path
// is still fetched.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { histOf, parseCsv } from "@promptly/shared";
import { createAccount, createHarness, createOrganization, createTeam, type Harness } from "@promptly/api/testing";
import { createApp } from "../../app.ts";
import { listenForTests, type TestServer } from "../../../test/test-server.ts";

let h: Harness;
let server: TestServer;
let key: string;
let otherTeamKey: string;
let replyId: string;

const HOUR = 3_600_000;
const DAY = Date.UTC(2026, 10, 1);
const at = (hours: number, minutes = 0) => new Date(DAY + hours * HOUR + minutes * 60_000);
const SPAN = `from=${at(0).toISOString()}&to=${at(48).toISOString()}`;

const get = (path: string, bearer: string | null = key) =>
  fetch(`${server.base}/api/v1${path}`, { headers: bearer ? { authorization: `Bearer ${bearer}` } : {} });

beforeAll(async () => {
  h = await createHarness();
  server = await listenForTests(createApp({ services: h.services }));
  const person = await createAccount(h);
  const organization = await createOrganization(h, [{ userId: person.id, role: "admin" }]);
  const teamId = (await createTeam(h, organization.id, [{ userId: person.id, role: "admin" }], "Core")).id;
  const otherTeamId = (await createTeam(h, organization.id, [{ userId: person.id, role: "admin" }], "Other")).id;
  const api = (await h.signedInClient(person.id)).api;
  replyId = (await api.prompts.create({ teamId, name: "support/reply", title: "Reply", visibility: "team", type: "text", template: "One" })).id;
  await api.promptVersions.create({ promptId: replyId, template: "Two" });
  const privateId = (await api.prompts.create({ teamId, name: "draft", title: "Draft", visibility: "private", type: "text", template: "x" })).id;
  // A prompt whose name ends like the metrics path: fetched with its name encoded.
  await api.prompts.create({ teamId, name: "support/metrics", title: "Metrics", visibility: "team", type: "text", template: "M" });
  key = (await api.apiKeys.create({ teamId, name: "backend" })).key;
  otherTeamKey = (await api.apiKeys.create({ teamId: otherTeamId, name: "other" })).key;

  const db = h.services.db;
  for (const [promptId, version, hour, generations, errors, latencies, cost] of [
    [replyId, 1, at(1), 20, 2, [100, 200, 300, 400], 0.2],
    [replyId, 2, at(2), 10, 0, [50, 60], 0.05],
    [privateId, 1, at(1), 5, 5, [], 0],
  ] as const) {
    await db.$executeRaw`
      INSERT INTO generation_rollups (prompt_id, version, environment, model, hour, generations, errors, latency_sum, latency_count, ttft_sum, ttft_count,
                                      latency_hist, ttft_hist, input_tokens, output_tokens, cost)
      VALUES (${promptId}::uuid, ${version}, 'production', 'gpt-4o-mini', ${hour}, ${generations}, ${errors}, ${latencies.reduce((a, b) => a + b, 0)}, ${latencies.length},
              0, 0, ${histOf(latencies)}::int[], ${histOf([])}::int[], ${generations * 10}, ${generations * 5}, ${cost})`;
  }
  await db.$executeRaw`
    INSERT INTO score_rollups (prompt_id, version, environment, hour, name, data_type, count, sum, sum_squares, categories)
    VALUES (${replyId}::uuid, 1, 'production', ${at(1)}, 'thumbs', 'boolean', 4, 3, 3, '{"True": 3, "False": 1}'::jsonb)`;
  // Three generations a minute apart; the newest has a score and a comma in its error.
  for (let i = 0; i < 3; i++) {
    const [row] = await db.$queryRaw<{ id: string }[]>`
      INSERT INTO generations (organization_id, team_id, prompt_id, prompt_name, version, trace_id, observation_id, source, model, environment, started_at,
                               latency_ms, input_tokens, output_tokens, cost, status, error_message)
      VALUES (${organization.id}::uuid, ${teamId}::uuid, ${replyId}::uuid, 'support/reply', 1, ${`trace-${i}`}, ${`obs-${i}`}, 'api', 'gpt-4o-mini', 'production',
              ${at(3, i)}, ${100 * (i + 1)}, 10, 5, 0.01, ${i === 2 ? "error" : "ok"}, ${i === 2 ? "rate limited, retry" : null})
      RETURNING id::text`;
    if (i === 2) {
      await db.$executeRaw`
        INSERT INTO scores (organization_id, team_id, generation_id, prompt_id, version, name, data_type, value, string_value, source)
        VALUES (${organization.id}::uuid, ${teamId}::uuid, ${row!.id}::uuid, ${replyId}::uuid, 1, 'thumbs', 'boolean', 0, 'False', 'api')`;
    }
  }
});

afterAll(async () => {
  await server?.close();
  await h?.close();
});

describe("GET /api/v1/prompts/{name}/metrics", () => {
  it("answers each version's figures over the span", async () => {
    const response = await get(`/prompts/support/reply/metrics?${SPAN}&environment=production`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = (await response.json()) as { from: string; to: string; environment: string; versions: Record<string, unknown>[] };
    expect(body).toMatchObject({ from: at(0).toISOString(), to: at(48).toISOString(), environment: "production", scoresAllModels: false });
    expect(body.versions).toEqual([
      expect.objectContaining({ version: 2, generations: 10, errorRate: 0, inputTokens: 100, outputTokens: 50, cost: 0.05, ttftP50Ms: null, scores: [] }),
      expect.objectContaining({
        version: 1, generations: 20, errorRate: 0.1, inputTokens: 200, outputTokens: 100, cost: 0.2,
        scores: [{ name: "thumbs", dataType: "boolean", count: 4, mean: null, share: 0.75, categories: [{ value: "True", count: 3 }, { value: "False", count: 1 }] }],
      }),
    ]);
    const v1 = body.versions[1] as { latencyP50Ms: number; latencyP95Ms: number };
    expect(v1.latencyP50Ms).toBeGreaterThan(100);
    expect(v1.latencyP95Ms).toBeGreaterThan(v1.latencyP50Ms);
    // A model asked for filters the generations, not the scores (they carry no model): the answer says they are every model's.
    const byModel = (await (await get(`/prompts/support/reply/metrics?${SPAN}&model=gpt-4o`)).json()) as { scoresAllModels: boolean; versions: Record<string, unknown>[] };
    expect(byModel.scoresAllModels).toBe(true);
    expect(byModel.versions).toEqual([expect.objectContaining({ version: 1, generations: 0, scores: [expect.objectContaining({ name: "thumbs", count: 4 })] })]);
    // The encoded name reaches the same prompt.
    expect(((await (await get(`/prompts/support%2Freply/metrics?${SPAN}`)).json()) as { versions: unknown[] }).versions).toHaveLength(2);
  });

  it("knows only the key's team's prompts that are not private", async () => {
    for (const [path, bearer] of [["/prompts/draft/metrics", key], ["/prompts/support/reply/metrics", otherTeamKey]] as const) {
      const response = await get(`${path}?${SPAN}`, bearer);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ error: { code: "NOT_FOUND" } });
    }
    expect((await get("/prompts/support/reply/metrics", null)).status).toBe(401);
    const backwards = await get(`/prompts/support/reply/metrics?from=${at(2).toISOString()}&to=${at(1).toISOString()}`);
    expect(backwards.status).toBe(400);
    expect(await backwards.json()).toMatchObject({ error: { message: "'from' must be before 'to'" } });
  });

  it("leaves a prompt named like the path to its encoded name", async () => {
    const response = await get("/prompts/support%2Fmetrics?label=latest");
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ name: "support/metrics" });
  });
});

describe("GET /api/v1/prompts/{name}/generations", () => {
  it("pages the generations newest first, with their scores", async () => {
    const first = (await (await get(`/prompts/support/reply/generations?${SPAN}&limit=2`)).json()) as { items: { observationId: string; scores: unknown[] }[]; nextCursor: string };
    expect(first.items.map((item) => item.observationId)).toEqual(["obs-2", "obs-1"]);
    expect(first.items[0]).toMatchObject({
      version: 1, model: "gpt-4o-mini", startedAt: at(3, 2).toISOString(), latencyMs: 300, tokens: { input: 10, output: 5 }, cost: 0.01,
      status: "error", error: "rate limited, retry", traceId: "trace-2", environment: "production",
      scores: [expect.objectContaining({ name: "thumbs", value: 0, stringValue: "False", source: "api" })],
    });
    const second = (await (await get(`/prompts/support/reply/generations?${SPAN}&limit=2&cursor=${first.nextCursor}`)).json()) as { items: { observationId: string }[]; nextCursor: string | null };
    expect(second).toMatchObject({ items: [expect.objectContaining({ observationId: "obs-0" })], nextCursor: null });
    const errors = (await (await get(`/prompts/support/reply/generations?${SPAN}&status=error`)).json()) as { items: unknown[] };
    expect(errors.items).toHaveLength(1);
  });

  it("exports every generation of the span as CSV and as JSON Lines", async () => {
    const csv = await get(`/prompts/support/reply/generations?${SPAN}&format=csv&limit=1`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("content-disposition")).toBe('attachment; filename="support_reply-generations.csv"');
    const { records } = parseCsv(await csv.text());
    const [header, ...rows] = records.map((record) => record.cells);
    expect(header!.slice(0, 4)).toEqual(["id", "version", "model", "startedAt"]);
    // `limit` pages the JSON answer only: the export holds the whole span.
    expect(rows).toHaveLength(3);
    const column = (name: string) => rows.map((row) => row[header!.indexOf(name)]);
    expect(column("observationId")).toEqual(["obs-2", "obs-1", "obs-0"]);
    expect(column("error")).toEqual(["rate limited, retry", "", ""]);
    expect(column("scores")).toEqual(["thumbs=False", "", ""]);

    const jsonl = await get(`/prompts/support/reply/generations?${SPAN}&format=jsonl`);
    expect(jsonl.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
    const lines = (await jsonl.text()).trimEnd().split("\n").map((line) => JSON.parse(line) as { observationId: string });
    expect(lines.map((line) => line.observationId)).toEqual(["obs-2", "obs-1", "obs-0"]);
  });

  it("answers an export of a prompt the key may not read as an error, not an empty file", async () => {
    const response = await get(`/prompts/draft/generations?${SPAN}&format=csv`);
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  });
});
