// Values at the edges of what PostgreSQL holds, sent through OTLP JSON and Langfuse's ingestion (and its
// scores): each is either refused at the door (400, nothing kept) or accepted and merged, never accepted
// and then refused by the merge (which would keep retrying it and set it aside, the sender told "accepted").
// What is kept of an out-of-range value: integers beyond int4 clamped to its largest (a negative count is
// not said), a prompt version outside 1..2^31-1 not said (unlinked), costs and score values clamped to
// ±1e100 (their squares are summed in float8), a time outside years 1-9999 or not a time not said (a
// start then is when it came; one before the organization's retention is accepted and not kept), NUL and lone surrogates as U+FFFD, and texts cut to the lengths Langfuse's
// own schema allows (model 200, environment 100, prompt name, user and session 500, an error 5,000).
import { randomBytes } from "node:crypto";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestSettled } from "@promptly/api";
import { Prisma } from "@promptly/db";
import { INGEST_MSG, RUNTIME_MSG } from "@promptly/shared";
import { basicAuth, startKeyServer, type KeyServer, type Pair } from "../../../test/key-server.ts";
import { storedGenerations, type StoredGenerationRow } from "../../../test/stored-generations.ts";

let ks: KeyServer;
let teams = 0;

interface Edge {
  teamId: string;
  promptId: string;
  key: Pair;
}

/** A team of its own (a failing merge holds its team back), with a prompt "edge" (version 1) and an ingest key. */
async function edge(): Promise<Edge> {
  const teamId = await ks.team(`Edges ${++teams}`);
  const { id: promptId } = await ks.prompt(teamId, "edge", [{ template: "Hi" }]);
  const key = await ks.key(teamId, { scopes: ["read", "ingest"] });
  return { teamId, promptId, key };
}

const db = () => ks.h.services.db;

/** Every accepted request of the team merged: none pending, none that failed. */
async function mergedClean(teamId: string) {
  await ingestSettled(ks.app.services.db);
  const pending = await db().$queryRaw<{ attempts: number; lastError: string | null }[]>`
    SELECT attempts, last_error AS "lastError" FROM ingest_pending WHERE team_id = ${teamId}::uuid`;
  expect(pending).toEqual([]);
}

async function generations(teamId: string): Promise<StoredGenerationRow[]> {
  await mergedClean(teamId);
  return storedGenerations(db(), Prisma.sql`team_id = ${teamId}::uuid`);
}
const byId = (rows: StoredGenerationRow[], observationId: string) => rows.find((row) => row.observationId === observationId);

async function scores(teamId: string) {
  await mergedClean(teamId);
  return db().$queryRaw<{ name: string; value: number | null; stringValue: string | null; comment: string | null; externalId: string | null; traceId: string | null; observationId: string | null; environment: string; generationId: string | null; promptId: string | null }[]>`
    SELECT name, value, string_value AS "stringValue", comment, external_id AS "externalId", trace_id AS "traceId", observation_id AS "observationId", environment,
           generation_id AS "generationId", prompt_id AS "promptId"
      FROM scores WHERE team_id = ${teamId}::uuid ORDER BY external_id`;
}

/** The prompt's hourly generation rollups, summed. */
async function rollup(promptId: string) {
  const [row] = await db().$queryRaw<{ generations: number; inputTokens: bigint; outputTokens: bigint; cost: number; costSumSquares: number; models: string[]; environments: string[] }[]>`
    SELECT coalesce(sum(generations), 0)::int AS generations, coalesce(sum(input_tokens), 0)::bigint AS "inputTokens", coalesce(sum(output_tokens), 0)::bigint AS "outputTokens",
           coalesce(sum(cost), 0) AS cost, coalesce(sum(cost_sum_squares), 0) AS "costSumSquares",
           coalesce(array_agg(DISTINCT model), '{}') AS models, coalesce(array_agg(DISTINCT environment), '{}') AS environments
      FROM generation_rollups WHERE prompt_id = ${promptId}::uuid`;
  return row!;
}
async function scoreRollup(promptId: string) {
  return db().$queryRaw<{ name: string; count: number; sum: number; sumSquares: number; categories: Record<string, number> }[]>`
    SELECT name, count, sum, sum_squares AS "sumSquares", categories FROM score_rollups WHERE prompt_id = ${promptId}::uuid ORDER BY name`;
}

async function post(path: string, pair: Pair, body: unknown) {
  const response = await fetch(`${ks.server.base}/api/public${path}`, {
    method: "POST",
    headers: { authorization: basicAuth(pair), "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

type Attribute = string | number | { intValue: string | number } | { doubleValue: number };
/** An OTLP JSON request of spans (started 900 ms before now, ended now unless said), each naming its attributes. */
function otlp(spans: { spanId: string; traceId?: string; start?: string; end?: string; attributes: Record<string, Attribute>; status?: { code: number; message?: string } }[]) {
  const now = BigInt(Date.now()) * 1_000_000n;
  const valueOf = (value: Attribute) =>
    typeof value === "string" ? { stringValue: value } : typeof value === "number" ? (Number.isInteger(value) ? { intValue: value } : { doubleValue: value }) : value;
  return {
    resourceSpans: [{
      resource: { attributes: [{ key: "service.name", value: { stringValue: "edges" } }] },
      scopeSpans: [{
        scope: { name: "edges" },
        spans: spans.map((span) => ({
          traceId: span.traceId ?? "0af7651916cd43dd8448eb211c80319c",
          spanId: span.spanId,
          name: "chat",
          kind: 3,
          startTimeUnixNano: span.start ?? String(now - 900_000_000n),
          endTimeUnixNano: span.end ?? String(now),
          attributes: Object.entries(span.attributes).map(([key, value]) => ({ key, value: valueOf(value) })),
          status: span.status ?? { code: 0 },
        })),
      }],
    }],
  };
}

const INT4_MAX = 2_147_483_647;
const prompt = { "promptly.prompt.name": "edge", "promptly.prompt.version": 1 };

beforeAll(async () => {
  ks = await startKeyServer();
});
afterAll(async () => {
  await ks?.close();
});

describe("integers beyond PostgreSQL's int4", () => {
  it("clamps token counts to int4's largest (a negative one is not said) and leaves a prompt version out of range unsaid", async () => {
    const { teamId, promptId, key } = await edge();
    const answer = await post("/otel/v1/traces", key, otlp([
      { spanId: "a000000000000001", attributes: { ...prompt, "gen_ai.usage.input_tokens": { intValue: "99999999999999999999" }, "gen_ai.usage.output_tokens": { intValue: 3_000_000_000 } } },
      { spanId: "a000000000000002", attributes: { "promptly.prompt.name": "edge", "promptly.prompt.version": { intValue: "4294967297" }, "gen_ai.usage.input_tokens": -5 } },
      { spanId: "a000000000000003", attributes: { ...prompt, "langfuse.observation.usage_details": JSON.stringify({ input: 1e30, output: -1 }) } },
    ]));
    expect(answer).toEqual({ status: 200, body: {} });
    const batch = await post("/ingestion", key, { batch: [
      { id: "g1", type: "generation-create", body: { id: "lf-tokens", startTime: new Date().toISOString(), promptName: "edge", promptVersion: 1, usageDetails: { input: 1e20, output: 2 ** 31 } } },
      // A version beyond int4 is refused at the door by Langfuse's schema: that event alone, nothing kept of it.
      { id: "g2", type: "generation-create", body: { id: "lf-version", startTime: new Date().toISOString(), promptName: "edge", promptVersion: 2 ** 31 } },
    ] });
    expect(batch.status).toBe(207);
    expect(batch.body).toMatchObject({ successes: [{ id: "g1", status: 201 }], errors: [{ id: "g2", status: 400 }] });

    const rows = await generations(teamId);
    expect(rows.map((row) => row.observationId)).toEqual(["a000000000000001", "a000000000000002", "a000000000000003", "lf-tokens"]);
    expect(byId(rows, "a000000000000001")).toMatchObject({ promptId, version: 1, inputTokens: INT4_MAX, outputTokens: INT4_MAX });
    expect(byId(rows, "a000000000000002")).toMatchObject({ promptId: null, promptName: "edge", version: null, inputTokens: null });
    expect(byId(rows, "a000000000000003")).toMatchObject({ promptId, inputTokens: INT4_MAX, outputTokens: null });
    expect(byId(rows, "lf-tokens")).toMatchObject({ promptId, inputTokens: INT4_MAX, outputTokens: INT4_MAX });
    expect(await rollup(promptId)).toMatchObject({ generations: 3, inputTokens: BigInt(INT4_MAX) * 3n, outputTokens: BigInt(INT4_MAX) * 2n });
  });
});

describe("floats whose squares float8 cannot sum", () => {
  it("clamps costs and numeric score values to ±1e100, the rollups' sums of squares finite", async () => {
    const { teamId, promptId, key } = await edge();
    expect(await post("/otel/v1/traces", key, otlp([
      { spanId: "b000000000000001", attributes: { ...prompt, "langfuse.observation.cost_details": JSON.stringify({ total: 1e300 }) } },
      { spanId: "b000000000000002", attributes: { ...prompt, "langfuse.observation.cost_details": JSON.stringify({ input: 1.7e308, output: 1.7e308 }) } },
      { spanId: "b000000000000003", attributes: { ...prompt, "gen_ai.usage.cost": { doubleValue: -1e200 } } },
    ]))).toEqual({ status: 200, body: {} });
    const batch = await post("/ingestion", key, { batch: [
      { id: "g1", type: "generation-create", body: { id: "lf-cost", startTime: new Date().toISOString(), promptName: "edge", promptVersion: 1, costDetails: { total: 1e300 } } },
      { id: "s1", type: "score-create", body: { id: "score-big", name: "big", value: 1e300, observationId: "lf-cost" } },
      { id: "s2", type: "score-create", body: { id: "score-small", name: "small", value: -1e300, observationId: "lf-cost" } },
    ] });
    expect(batch).toMatchObject({ status: 207, body: { errors: [] } });
    // A score of its own, written before it is answered.
    expect(await post("/scores", key, { id: "score-alone", name: "alone", value: 1e300, observationId: "lf-cost" })).toMatchObject({ status: 200 });

    const rows = await generations(teamId);
    expect(rows.map((row) => [row.observationId, row.cost])).toEqual([["b000000000000001", 1e100], ["b000000000000002", 1e100], ["b000000000000003", -1e100], ["lf-cost", 1e100]]);
    const sums = await rollup(promptId);
    expect(sums).toMatchObject({ generations: 4, cost: 2e100 });
    expect(sums.costSumSquares).toBeCloseTo(4e200, -190);
    const stored = await scores(teamId);
    expect(stored.map((score) => [score.externalId, score.value, score.promptId])).toEqual([
      ["score-alone", 1e100, promptId], ["score-big", 1e100, promptId], ["score-small", -1e100, promptId],
    ]);
    expect((await scoreRollup(promptId)).map((row) => [row.name, row.count, row.sum, Number.isFinite(row.sumSquares)])).toEqual([
      ["alone", 1, 1e100, true], ["big", 1, 1e100, true], ["small", 1, -1e100, true],
    ]);
  });
});

describe("times beyond PostgreSQL's range, or not times", () => {
  it("leaves them unsaid (a start then is when the event came), keeps an end in year 9999 as sent, and drops a year-1 start (past the retention)", async () => {
    const { teamId, promptId, key } = await edge();
    const before = Date.now();
    expect(await post("/otel/v1/traces", key, otlp([
      // Nanoseconds no Date holds.
      { spanId: "c000000000000001", start: "99999999999999999999999999", end: "-99999999999999999999999999", attributes: prompt },
      { spanId: "c000000000000002", attributes: { ...prompt, "langfuse.observation.completion_start_time": JSON.stringify("-271821-04-20T00:00:00.000Z") } },
      { spanId: "c000000000000003", attributes: { ...prompt, "langfuse.observation.completion_start_time": "+275760-09-13T00:00:00.000Z" } },
      { spanId: "c000000000000004", attributes: { ...prompt, "langfuse.observation.completion_start_time": "+010000-01-01T00:00:00.000Z" } },
    ]))).toEqual({ status: 200, body: {} });
    const batch = await post("/ingestion", key, { batch: [
      { id: "g1", type: "generation-create", body: { id: "lf-far", startTime: "+010000-01-01T00:00:00.000Z", endTime: "-000001-01-01T00:00:00.000Z", completionStartTime: 8.64e15, promptName: "edge", promptVersion: 1 } },
      { id: "g2", type: "generation-create", body: { id: "lf-zero", startTime: "0000-06-01T00:00:00.000Z", promptName: "edge", promptVersion: 1 } },
      // An update first, its event's time out of range: its start is when it came.
      { id: "g3", type: "generation-update", timestamp: "-100000-01-01T00:00:00.000Z", body: { id: "lf-update", endTime: new Date(before + 1).toISOString() } },
    ] });
    expect(batch).toMatchObject({ status: 207, body: { errors: [] } });
    const start = new Date(before - 86_400_000).toISOString();
    expect(await post("/ingestion", key, { batch: [
      { id: "g4", type: "generation-create", body: { id: "lf-edges", startTime: start, endTime: "9999-12-31T23:59:59.999Z", promptName: "edge", promptVersion: 1 } },
    ] })).toMatchObject({ status: 207, body: { errors: [] } });
    // Alone: where its stored row may be is looked for from a day before its start (the merge does not fail on it);
    // then, started before the organization's retention, it is accepted and not kept.
    expect(await post("/ingestion", key, { batch: [
      { id: "g5", type: "generation-create", body: { id: "lf-year-1", startTime: "0001-01-01T00:00:00.000Z", endTime: "9999-12-31T23:59:59.999Z", promptName: "edge", promptVersion: 1 } },
    ] })).toMatchObject({ status: 207, body: { errors: [] } });
    await mergedClean(teamId);
    // Sent again: the stored row is found and merged, not written twice.
    expect(await post("/ingestion", key, { batch: [
      { id: "g6", type: "generation-update", body: { id: "lf-edges", startTime: start, model: "again" } },
    ] })).toMatchObject({ status: 207, body: { errors: [] } });
    const after = Date.now();

    const rows = await generations(teamId);
    const near = (date: Date | null) => date !== null && date.getTime() >= before - 1_000 && date.getTime() <= after + 1_000;
    const first = byId(rows, "c000000000000001")!;
    expect(first).toMatchObject({ promptId, endedAt: null, latencyMs: null });
    expect(near(first.startedAt)).toBe(true);
    for (const id of ["c000000000000002", "c000000000000003", "c000000000000004"]) expect(byId(rows, id), id).toMatchObject({ promptId, completionStartAt: null, ttftMs: null });
    const far = byId(rows, "lf-far")!;
    expect(far).toMatchObject({ promptId, endedAt: null, completionStartAt: null });
    expect(near(far.startedAt)).toBe(true);
    expect(near(byId(rows, "lf-zero")!.startedAt)).toBe(true);
    expect(near(byId(rows, "lf-update")!.startedAt)).toBe(true);
    expect(rows.filter((row) => row.observationId === "lf-edges")).toHaveLength(1);
    expect(byId(rows, "lf-edges")).toMatchObject({
      promptId, model: "again", startedAt: new Date(start), endedAt: new Date("9999-12-31T23:59:59.999Z"),
      latencyMs: Date.parse("9999-12-31T23:59:59.999Z") - Date.parse(start),
    });
    expect(byId(rows, "lf-year-1")).toBeUndefined();
    // All but the update, which names no prompt, and the year-1 start.
    expect((await rollup(promptId)).generations).toBe(7);
  });
});

describe("text PostgreSQL cannot hold", () => {
  const bad = (text: string) => `${text}\u0000\ud800`;
  const fixed = (text: string) => `${text}\uFFFD\uFFFD`;

  it("writes NUL and lone surrogates as U+FFFD in every field, the score still finding its generation", async () => {
    const { teamId, promptId, key } = await edge();
    expect(await post("/otel/v1/traces", key, otlp([
      {
        spanId: "d000000000000001",
        attributes: { ...prompt, "gen_ai.request.model": bad("model"), "deployment.environment": bad("env"), "user.id": bad("user"), "session.id": bad("session") },
        status: { code: 2, message: bad("error") },
      },
      { spanId: "d000000000000002", attributes: { "promptly.prompt.name": bad("edge"), "promptly.prompt.version": 1 } },
    ]))).toEqual({ status: 200, body: {} });
    const observationId = bad("obs");
    const batch = await post("/ingestion", key, { batch: [
      { id: "t1", type: "trace-create", body: { id: bad("trace"), userId: bad("lf-user"), sessionId: bad("lf-session"), environment: bad("lf-env") } },
      {
        id: "g1", type: "generation-create",
        body: { id: observationId, traceId: bad("trace"), startTime: new Date().toISOString(), model: bad("lf-model"), promptName: "edge", promptVersion: 1, level: "ERROR", statusMessage: bad("lf-error") },
      },
      { id: "s1", type: "score-create", body: { id: bad("score-1"), name: bad("quality"), value: bad("good"), dataType: "CATEGORICAL", comment: bad("comment"), observationId, traceId: bad("trace"), environment: bad("s-env") } },
    ] });
    expect(batch).toMatchObject({ status: 207, body: { errors: [] } });
    expect(await post("/scores", key, { id: bad("score-2"), name: bad("alone"), value: 0.5, comment: bad("c"), observationId })).toMatchObject({ status: 200 });
    // A trace-only score, waiting for its trace's generation.
    expect(await post("/scores", key, { id: bad("score-3"), name: "waiting", value: 1, traceId: bad("later") })).toMatchObject({ status: 200 });

    const rows = await generations(teamId);
    expect(byId(rows, "d000000000000001")).toMatchObject({
      promptId, model: fixed("model"), environment: fixed("env"), userRef: fixed("user"), sessionRef: fixed("session"), status: "error", errorMessage: fixed("error"),
    });
    expect(byId(rows, "d000000000000002")).toMatchObject({ promptId: null, promptName: fixed("edge") });
    const generation = byId(rows, fixed("obs"))!;
    expect(generation).toMatchObject({
      promptId, traceId: fixed("trace"), model: fixed("lf-model"), environment: fixed("lf-env"), userRef: fixed("lf-user"), sessionRef: fixed("lf-session"), errorMessage: fixed("lf-error"),
    });
    expect(await scores(teamId)).toEqual([
      { externalId: fixed("score-1"), name: fixed("quality"), value: null, stringValue: fixed("good"), comment: fixed("comment"), traceId: fixed("trace"), observationId: fixed("obs"), environment: fixed("lf-env"), generationId: generation.id, promptId },
      // Written before its generation was merged, linked when it was (its trace, not said, taken from the generation).
      { externalId: fixed("score-2"), name: fixed("alone"), value: 0.5, stringValue: null, comment: fixed("c"), traceId: fixed("trace"), observationId: fixed("obs"), environment: fixed("lf-env"), generationId: generation.id, promptId },
      { externalId: fixed("score-3"), name: "waiting", value: 1, stringValue: null, comment: null, traceId: fixed("later"), observationId: null, environment: "default", generationId: null, promptId: null },
    ]);
    expect((await rollup(promptId)).models.sort()).toEqual([fixed("lf-model"), fixed("model")]);
    expect((await scoreRollup(promptId)).map((row) => [row.name, row.count, row.categories])).toEqual([[fixed("alone"), 1, {}], [fixed("quality"), 1, { [fixed("good")]: 1 }]]);

    // The trace's generation comes: the waiting score follows it.
    await post("/ingestion", key, { batch: [{ id: "g2", type: "generation-create", body: { id: "lf-later", traceId: bad("later"), startTime: new Date().toISOString(), promptName: "edge", promptVersion: 1 } }] });
    const later = byId(await generations(teamId), "lf-later")!;
    expect((await scores(teamId)).find((score) => score.name === "waiting")).toMatchObject({ generationId: later.id, promptId });
  });
});

describe("texts longer than an index entry holds", () => {
  const long = () => randomBytes(15_000).toString("base64"); // 20,000 characters that do not compress

  it("cuts an OTLP span's texts to the lengths Langfuse's schema takes; Langfuse's own longer ones are refused at the door", async () => {
    const { teamId, promptId, key } = await edge();
    const [model, environment, user, session, error, name] = [long(), long(), long(), long(), long().repeat(5), long()];
    expect(await post("/otel/v1/traces", key, otlp([
      { spanId: "e000000000000001", attributes: { ...prompt, "gen_ai.request.model": model, "deployment.environment": environment, "user.id": user, "session.id": session }, status: { code: 2, message: error } },
      { spanId: "e000000000000002", attributes: { "promptly.prompt.name": name, "promptly.prompt.version": 1 } },
    ]))).toEqual({ status: 200, body: {} });
    const batch = await post("/ingestion", key, { batch: [
      { id: "g1", type: "generation-create", body: { id: "lf-long", startTime: new Date().toISOString(), model: "m".repeat(201), promptName: "edge", promptVersion: 1 } },
      { id: "g2", type: "generation-create", body: { id: "x".repeat(201), startTime: new Date().toISOString(), promptName: "edge", promptVersion: 1 } },
      { id: "s1", type: "score-create", body: { name: "n".repeat(201), value: 1, traceId: "t" } },
    ] });
    expect(batch).toMatchObject({ status: 207, body: { successes: [], errors: [{ id: "g1", status: 400 }, { id: "g2", status: 400 }, { id: "s1", status: 400 }] } });

    const rows = await generations(teamId);
    expect(rows.map((row) => row.observationId)).toEqual(["e000000000000001", "e000000000000002"]);
    expect(byId(rows, "e000000000000001")).toMatchObject({
      promptId, model: model.slice(0, 200), environment: environment.slice(0, 100), userRef: user.slice(0, 500), sessionRef: session.slice(0, 500), errorMessage: error.slice(0, 5_000),
    });
    expect(byId(rows, "e000000000000002")).toMatchObject({ promptId: null, promptName: name.slice(0, 500) });
    expect(await rollup(promptId)).toMatchObject({ generations: 1, models: [model.slice(0, 200)], environments: [environment.slice(0, 100)] });
    expect(await scores(teamId)).toEqual([]);
  });

  it("cuts at a character: a surrogate pair is never split", async () => {
    const { teamId, key } = await edge();
    const model = `${"m".repeat(199)}😀tail`;
    expect(await post("/otel/v1/traces", key, otlp([{ spanId: "e000000000000003", attributes: { ...prompt, "gen_ai.request.model": model } }]))).toEqual({ status: 200, body: {} });
    expect(byId(await generations(teamId), "e000000000000003")).toMatchObject({ model: "m".repeat(199) });
  });
});

describe("attribute values of the wrong shape", () => {
  it("reads them as no value (200, the span kept), never a 500", async () => {
    const { teamId, key } = await edge();
    const values = [{ arrayValue: null }, { arrayValue: { values: "x" } }, { kvlistValue: { values: [null] } }, { stringValue: [["deep"]] }];
    for (const [index, value] of values.entries()) {
      const body = otlp([{ spanId: `f00000000000000${index}`, attributes: prompt }]);
      body.resourceSpans[0]!.scopeSpans[0]!.spans[0]!.attributes.push({ key: "langfuse.observation.input", value } as never);
      expect(await post("/otel/v1/traces", key, body), JSON.stringify(value)).toEqual({ status: 200, body: {} });
    }
    expect((await generations(teamId)).map((row) => row.observationId).sort()).toEqual(values.map((_, index) => `f00000000000000${index}`));
  });
});

describe("the encoding, by the Content-Type's media type", () => {
  it("reads JSON whose type's parameters name protobuf as JSON, its depth held like any JSON body's (400, not a 500)", async () => {
    const { teamId, key } = await edge();
    const deep = JSON.stringify(otlp([{ spanId: "f100000000000001", attributes: { ...prompt, "langfuse.observation.input": "__DEEP__" } }]))
      .replace('"__DEEP__"', "[".repeat(200_000) + "]".repeat(200_000));
    const send = async (body: string, contentType: string) => {
      const response = await fetch(`${ks.server.base}/api/public/otel/v1/traces`, { method: "POST", headers: { authorization: basicAuth(key), "content-type": contentType }, body });
      return { status: response.status, type: response.headers.get("content-type"), body: await response.text() };
    };
    for (const contentType of ["application/json; x=protobuf", "application/json", "Application/JSON; charset=utf-8"]) {
      expect(await send(deep, contentType), contentType).toMatchObject({ status: 400, body: JSON.stringify({ message: INGEST_MSG.tooDeep, error: "InvalidRequestError" }) });
    }
    // Accepted as JSON and answered in JSON, whatever the parameters say; a type that only mentions JSON or protobuf is refused.
    const body = JSON.stringify(otlp([{ spanId: "f100000000000002", attributes: prompt }]));
    expect(await send(body, "application/json; x=protobuf")).toMatchObject({ status: 200, type: expect.stringMatching(/^application\/json/), body: "{}" });
    for (const contentType of ["application/json-seq", "text/plain; x=application/json", "application/x-protobuf-json", "application/vnd.protobuf"]) {
      expect(await send(body, contentType), contentType).toMatchObject({ status: 400, body: expect.stringContaining(INGEST_MSG.unsupportedType) });
    }
    expect((await generations(teamId)).map((row) => row.observationId)).toEqual(["f100000000000002"]);
  });
});

describe("a key that may not send", () => {
  it("is refused 403 before its body is read: a gzip'd body inflating past the 5 MB limit is not inflated (413) first", async () => {
    const teamId = await ks.team(`Edges ${++teams}`);
    const readOnly = await ks.key(teamId, { scopes: ["read"] });
    for (const path of ["/otel/v1/traces", "/ingestion"]) {
      const response = await fetch(`${ks.server.base}/api/public${path}`, {
        method: "POST", headers: { authorization: basicAuth(readOnly), "content-type": "application/json", "content-encoding": "gzip" }, body: gzipSync(Buffer.alloc(6_000_000, 0x20)),
      });
      expect({ status: response.status, body: await response.json() }, path).toEqual({ status: 403, body: { message: RUNTIME_MSG.ingestScopeNeeded, error: "ForbiddenError" } });
    }
  });
});

describe("requests that would decode into far more than they weigh", () => {
  const TRACE = "0af7651916cd43dd8448eb211c80319c";
  const varint = (n: number) => {
    const out: number[] = [];
    for (; n > 127; n = Math.floor(n / 128)) out.push((n & 127) | 128);
    return Buffer.from([...out, n]);
  };
  const field = (no: number, bytes: Buffer) => Buffer.concat([varint((no << 3) | 2), varint(bytes.length), bytes]);
  async function sendGzip(pair: Pair, body: Buffer | string, contentType: string) {
    const response = await fetch(`${ks.server.base}/api/public/otel/v1/traces`, {
      method: "POST", headers: { authorization: basicAuth(pair), "content-type": contentType, "content-encoding": "gzip" }, body: gzipSync(body, { level: 9 }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it("refuses a few KB gzip'd that hold millions of empty attributes (protobuf or JSON) with 400, before building them", async () => {
    const { teamId, key } = await edge();
    // One span (ids and start) followed by 2,400,000 empty attributes (field 9, length 0): 4.8 MB, 5 KB gzip'd.
    const start = Buffer.alloc(9);
    start[0] = (7 << 3) | 1;
    start.writeBigUInt64LE(1_700_000_000_000_000_000n, 1);
    const span = Buffer.concat([field(1, Buffer.from(TRACE, "hex")), field(2, Buffer.from("b7ad6b7169203333", "hex")), start, Buffer.alloc(4_800_000, Buffer.from([0x4a, 0x00]))]);
    const tooMany = { status: 400, body: { message: INGEST_MSG.tooManyNodes(1_000_000) } };
    expect(await sendGzip(key, field(1, field(2, field(2, span))), "application/x-protobuf")).toMatchObject(tooMany);
    const json = `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"${TRACE}","spanId":"b7ad6b7169203339","startTimeUnixNano":"1700000000000000000","attributes":[${"{},".repeat(1_600_000)}{}]}]}]}]}`;
    expect(await sendGzip(key, json, "application/json")).toMatchObject(tooMany);
    expect(await generations(teamId)).toEqual([]);
  });
});
