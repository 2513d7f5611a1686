// Production signals from the tools teams already run, unchanged, against the real server and database:
// the `langfuse` v3 SDK (a generation carrying its prompt, a score, shutdownAsync), @langfuse/otel's span
// processor with @langfuse/tracing's observations (and @langfuse/client's score), and a plain
// OpenTelemetry protobuf exporter with GenAI attributes (gzip'd). Each generation lands on its prompt
// version with its tokens, latency and cost, each score beside it, the hourly rollups kept. Then the
// edges: an unknown or foreign prompt is stored unlinked, a bad payload is refused whole, a repeated
// batch changes nothing, a key without `ingest` is refused, and /api/v1/scores and the app's thumbs.
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Langfuse } from "langfuse";
import { LangfuseClient } from "@langfuse/client";
import { LangfuseSpanProcessor } from "@langfuse/otel";
import { startObservation } from "@langfuse/tracing";
import { context, propagation, trace, SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { NodeTracerProvider, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-node";
import { OTLPTraceExporter as ProtoExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { ingestSettled, metrics } from "@promptly/api";
import { DEFAULT_MODEL_PRICES, RUNTIME_MSG } from "@promptly/shared";
import { Prisma } from "@promptly/db";
import { basicAuth, startKeyServer, type KeyServer, type Pair } from "../../../test/key-server.ts";
import { storedGenerations, type StoredGenerationRow } from "../../../test/stored-generations.ts";

let ks: KeyServer;
let teamId: string;
let otherTeamId: string;
let reply: { id: string };
let theirs: { id: string };
const keys = {} as Record<"ingest" | "read" | "otherIngest", Pair & { id: string }>;

const db = () => ks.h.services.db;
/** What the tracing SDKs sent is answered once appended: the server's merges are waited for before a read. */
const merged = () => ingestSettled(ks.app.services.db);
async function generationsOf(observationId: string): Promise<StoredGenerationRow[]> {
  await merged();
  return storedGenerations(db(), Prisma.sql`observation_id = ${observationId}`);
}
const scoresOf = async (generationId: string) =>
  (await merged(), db()).$queryRaw<{ name: string; dataType: string; value: number | null; stringValue: string | null; promptId: string | null; version: number | null; comment: string | null; source: string }[]>`
    SELECT name, data_type AS "dataType", value, string_value AS "stringValue", prompt_id AS "promptId", version, comment, source
      FROM scores WHERE generation_id = ${generationId}::uuid ORDER BY created_at, name`;
const counts = async () => {
  await merged();
  const [row] = await db().$queryRaw<{ generations: number; scores: number }[]>`
    SELECT (SELECT count(*)::int FROM generations) AS generations, (SELECT count(*)::int FROM scores) AS scores`;
  return row!;
};
const rollup = async (promptId: string, version: number) => {
  await merged();
  const [row] = await db().$queryRaw<{ generations: number; errors: number; latencyCount: number; inputTokens: bigint; cost: number }[]>`
    SELECT coalesce(sum(generations), 0)::int AS generations, coalesce(sum(errors), 0)::int AS errors, coalesce(sum(latency_count), 0)::int AS "latencyCount",
           coalesce(sum(input_tokens), 0)::bigint AS "inputTokens", coalesce(sum(cost), 0) AS cost
      FROM generation_rollups WHERE prompt_id = ${promptId}::uuid AND version = ${version}`;
  return row!;
};
/** A score's rollups of a version, summed over environments and hours. */
const scoreRollup = async (promptId: string, version: number, name: string) => {
  await merged();
  const rows = await db().$queryRaw<{ count: number; sum: number; categories: Record<string, number> }[]>`
    SELECT count, sum, categories FROM score_rollups WHERE prompt_id = ${promptId}::uuid AND version = ${version} AND name = ${name}`;
  const categories: Record<string, number> = {};
  for (const row of rows) for (const [value, count] of Object.entries(row.categories)) categories[value] = (categories[value] ?? 0) + count;
  return { count: rows.reduce((sum, row) => sum + row.count, 0), sum: rows.reduce((sum, row) => sum + row.sum, 0), categories };
};
const price = DEFAULT_MODEL_PRICES.find((entry) => entry.model === "gpt-4o-mini")!;
const costOf = (input: number, output: number) => (input * price.inputPerMillion + output * price.outputPerMillion) / 1_000_000;

/** A raw call of /api/public with a key pair. */
async function post(path: string, pair: Pair, body: unknown, headers: Record<string, string> = {}) {
  const raw = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
  const response = await fetch(`${ks.server.base}/api/public${path}`, {
    method: "POST",
    headers: { authorization: basicAuth(pair), "content-type": "application/json", ...headers },
    body: raw,
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

/** An OTLP JSON request holding spans with these attributes. */
function otlpJson(spans: { traceId?: string; spanId?: string; attributes: Record<string, string | number>; status?: { code: number; message?: string } }[]) {
  const now = BigInt(Date.now()) * 1_000_000n;
  return {
    resourceSpans: [{
      resource: { attributes: [{ key: "service.name", value: { stringValue: "checkout" } }] },
      scopeSpans: [{
        scope: { name: "my-app" },
        spans: spans.map((span, index) => ({
          traceId: span.traceId ?? "0af7651916cd43dd8448eb211c80319c",
          spanId: span.spanId ?? `b7ad6b71692033${String(index).padStart(2, "0")}`,
          name: "chat",
          kind: 3,
          startTimeUnixNano: String(now - 900_000_000n),
          endTimeUnixNano: String(now),
          attributes: Object.entries(span.attributes).map(([key, value]) => ({ key, value: typeof value === "number" ? { intValue: value } : { stringValue: value } })),
          status: span.status ?? { code: 0 },
        })),
      }],
    }],
  };
}

beforeAll(async () => {
  ks = await startKeyServer();
  teamId = await ks.team("Core");
  otherTeamId = await ks.team("Other");
  reply = await ks.prompt(teamId, "support/reply", [{ template: "Hello {{customer}}", labels: ["production"] }, { template: "Hi {{customer}}" }]);
  theirs = await ks.prompt(otherTeamId, "theirs", [{ template: "Secret", labels: ["production"] }]);
  keys.ingest = await ks.key(teamId, { scopes: ["read", "ingest"] });
  keys.read = await ks.key(teamId, { scopes: ["read", "write"] });
  keys.otherIngest = await ks.key(otherTeamId, { scopes: ["ingest"] });
  // The team keeps its generations' text (capped); off by default.
  expect(await ks.admin.teams.setGenerationText({ id: teamId, keep: true })).toEqual({ keepGenerationText: true });
});
afterAll(async () => {
  await ks?.close();
});

describe("the official langfuse v3 SDK, unchanged", () => {
  it("sends a generation carrying its prompt and a score: both land on the version with tokens, latency, cost", async () => {
    const langfuse = new Langfuse({ ...keys.ingest, baseUrl: ks.server.base, environment: "production", flushAt: 100, fetchRetryCount: 0 });
    const errors: unknown[] = [];
    langfuse.on("error", (error) => errors.push(error));
    const prompt = await langfuse.getPrompt("support/reply", 2);
    expect(prompt.version).toBe(2);

    const start = Date.now() - 5_000;
    const chat = langfuse.trace({ name: "chat", userId: "user-1", sessionId: "sess-1" });
    const generation = chat.generation({ name: "answer", model: "gpt-4o-mini", input: [{ role: "user", content: "hi" }], prompt, startTime: new Date(start) });
    generation.update({
      output: "hello", completionStartTime: new Date(start + 300), endTime: new Date(start + 1200),
      usageDetails: { input: 10, output: 5 }, costDetails: { input: 0.0001, output: 0.0002 },
    });
    generation.score({ name: "thumbs-up", value: 1, dataType: "BOOLEAN", comment: "good" });
    // No cost sent: computed from the model's price, as runs are.
    const priced = chat.generation({ name: "again", model: "gpt-4o-mini", prompt, startTime: new Date(start) });
    priced.update({ endTime: new Date(start + 800), usage: { input: 1000, output: 200 } });
    await langfuse.shutdownAsync();
    expect(errors).toEqual([]);

    const [stored] = await generationsOf(generation.id);
    expect(stored).toMatchObject({
      teamId, promptId: reply.id, promptName: "support/reply", version: 2, traceId: chat.id, source: "langfuse", model: "gpt-4o-mini", environment: "production",
      latencyMs: 1200, ttftMs: 300, inputTokens: 10, outputTokens: 5, status: "ok", userRef: "user-1", sessionRef: "sess-1", output: "hello",
    });
    expect(stored!.cost).toBeCloseTo(0.0003, 10);
    expect(JSON.parse(stored!.input!)).toEqual([{ role: "user", content: "hi" }]);
    expect(await scoresOf(stored!.id)).toEqual([
      { name: "thumbs-up", dataType: "boolean", value: 1, stringValue: "True", promptId: reply.id, version: 2, comment: "good", source: "api" },
    ]);
    const [second] = await generationsOf(priced.id);
    expect(second).toMatchObject({ promptId: reply.id, version: 2, latencyMs: 800, inputTokens: 1000, outputTokens: 200 });
    expect(second!.cost).toBeCloseTo(costOf(1000, 200), 10);

    expect(await rollup(reply.id, 2)).toMatchObject({ generations: 2, errors: 0, latencyCount: 2, inputTokens: 1010n });
    expect((await rollup(reply.id, 2)).cost).toBeCloseTo(0.0003 + costOf(1000, 200), 10);
    expect(await scoreRollup(reply.id, 2, "thumbs-up")).toMatchObject({ count: 1, sum: 1, categories: { True: 1 } });
  });
});

describe("@langfuse/otel and @langfuse/tracing, unchanged", () => {
  it("export a generation observation carrying its prompt (OTLP JSON), and @langfuse/client scores it", async () => {
    const processor = new LangfuseSpanProcessor({ ...keys.ingest, baseUrl: ks.server.base, environment: "staging", exportMode: "immediate", mediaUploadEnabled: false });
    const provider = new NodeTracerProvider({ spanProcessors: [processor] });
    provider.register();
    try {
      const generation = startObservation(
        "answer",
        { model: "gpt-4o-mini", input: [{ role: "user", content: "hi" }], prompt: { name: "support/reply", version: 1, isFallback: false } },
        { asType: "generation" },
      );
      generation.update({ output: "hello", completionStartTime: new Date(), usageDetails: { input: 20, output: 7 }, costDetails: { total: 0.0005 } });
      generation.end();
      await processor.forceFlush();
      const { spanId, traceId } = generation.otelSpan.spanContext();

      const client = new LangfuseClient({ ...keys.ingest, baseUrl: ks.server.base });
      client.score.observation({ otelSpan: generation.otelSpan }, { name: "accuracy", value: 0.9 });
      await client.score.flush();

      const [stored] = await generationsOf(spanId);
      expect(stored).toMatchObject({
        teamId, promptId: reply.id, version: 1, traceId, source: "otel", model: "gpt-4o-mini", environment: "staging", inputTokens: 20, outputTokens: 7,
        cost: 0.0005, status: "ok", output: "hello",
      });
      expect(stored!.latencyMs).toBeGreaterThanOrEqual(0);
      expect(stored!.ttftMs).toBeGreaterThanOrEqual(0);
      expect(await scoresOf(stored!.id)).toMatchObject([{ name: "accuracy", dataType: "numeric", value: 0.9, promptId: reply.id, version: 1 }]);
      expect(await rollup(reply.id, 1)).toMatchObject({ generations: 1, inputTokens: 20n });
    } finally {
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    }
  });
});

describe("a plain OpenTelemetry protobuf exporter with GenAI attributes", () => {
  it("sends gzip'd protobuf: the span naming a prompt becomes a generation with its error, the other is dropped and counted", async () => {
    // Counted when merged: read once the merges of what came before are done.
    const dropped = async () => (await merged(), await metrics.productionIngested.get()).values.find((value) => value.labels["source"] === "otel" && value.labels["result"] === "dropped")?.value ?? 0;
    const droppedBefore = await dropped();
    const exporter = new ProtoExporter({
      url: `${ks.server.base}/api/public/otel/v1/traces`, headers: { Authorization: basicAuth(keys.ingest) }, // The exporter's CompressionAlgorithm.GZIP (its enum lives in a package of its own).
      compression: "gzip" as never,
    });
    const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const tracer = provider.getTracer("my-app", "1.0.0");
    const span = tracer.startSpan("chat gpt-4o-mini", {
      kind: SpanKind.CLIENT,
      attributes: {
        "gen_ai.operation.name": "chat", "gen_ai.provider.name": "openai", "gen_ai.request.model": "gpt-4o-mini",
        "gen_ai.usage.input_tokens": 120, "gen_ai.usage.output_tokens": 42, "promptly.prompt.name": "support/reply", "promptly.prompt.version": 1,
        "user.id": "user-2", "session.id": "sess-2", "deployment.environment": "production",
      },
    });
    span.setStatus({ code: SpanStatusCode.ERROR, message: "rate limited" });
    span.end();
    tracer.startSpan("GET /health").end();
    await provider.forceFlush();
    await provider.shutdown();

    const [stored] = await generationsOf(span.spanContext().spanId);
    expect(stored).toMatchObject({
      promptId: reply.id, version: 1, source: "otel", model: "gpt-4o-mini", environment: "production", inputTokens: 120, outputTokens: 42,
      status: "error", errorMessage: "rate limited", userRef: "user-2", sessionRef: "sess-2",
    });
    expect(stored!.cost).toBeCloseTo(costOf(120, 42), 10);
    expect(await dropped()).toBe(droppedBefore + 1);
    expect((await rollup(reply.id, 1)).errors).toBe(1);
  });
});

describe("what is sent in, at the edges", () => {
  it("stores an unknown prompt, an unknown version and another team's prompt unlinked, never an error", async () => {
    const answer = await post("/otel/v1/traces", keys.ingest, otlpJson([
      { spanId: "1000000000000001", attributes: { "langfuse.observation.prompt.name": "nope", "langfuse.observation.prompt.version": 1 } },
      { spanId: "1000000000000002", attributes: { "langfuse.observation.prompt.name": "support/reply", "langfuse.observation.prompt.version": 9 } },
      { spanId: "1000000000000003", attributes: { "langfuse.observation.prompt.name": "theirs", "langfuse.observation.prompt.version": 1 } },
    ]));
    expect(answer).toEqual({ status: 200, body: {} });
    for (const [id, name] of [["1000000000000001", "nope"], ["1000000000000002", "support/reply"], ["1000000000000003", "theirs"]] as const) {
      expect(await generationsOf(id)).toMatchObject([{ teamId, promptId: null, promptName: name }]);
    }
    // Another team's key names this team's prompt: stored in its own team, unlinked.
    await post("/otel/v1/traces", keys.otherIngest, otlpJson([{ spanId: "1000000000000004", attributes: { "promptly.prompt.name": "support/reply", "promptly.prompt.version": 1 } }]));
    expect(await generationsOf("1000000000000004")).toMatchObject([{ teamId: otherTeamId, promptId: null }]);
    // Its own prompt links.
    await post("/otel/v1/traces", keys.otherIngest, otlpJson([{ spanId: "1000000000000005", attributes: { "promptly.prompt.name": "theirs", "promptly.prompt.version": 1 } }]));
    expect(await generationsOf("1000000000000005")).toMatchObject([{ teamId: otherTeamId, promptId: theirs.id, output: null }]);
  });

  it("refuses a bad payload with 400 and a message, and writes nothing of it", async () => {
    const before = await counts();
    const mixed = otlpJson([
      { spanId: "2000000000000001", attributes: { "promptly.prompt.name": "support/reply", "promptly.prompt.version": 1 } },
      { spanId: "not-hex", attributes: { "promptly.prompt.name": "support/reply", "promptly.prompt.version": 1 } },
    ]);
    const refused = await post("/otel/v1/traces", keys.ingest, mixed);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ message: expect.stringContaining("spanId") });
    const garbage = await post("/otel/v1/traces", keys.ingest, Buffer.from([0x0a, 0xff, 0xff, 0x01]), { "content-type": "application/x-protobuf" });
    expect(garbage.status).toBe(400);
    expect(await post("/otel/v1/traces", keys.ingest, Buffer.from("{nope"), {})).toMatchObject({ status: 400 });
    // Valid JSON nested past the limit every JSON body has is refused before it is parsed.
    const deep = `{"resourceSpans":${"[".repeat(100)}${"]".repeat(100)}}`;
    expect(await post("/otel/v1/traces", keys.ingest, Buffer.from(deep))).toMatchObject({ status: 400, body: { message: "The request body is nested too deeply" } });
    expect(await post("/otel/v1/traces", keys.ingest, Buffer.from("x"), { "content-type": "text/plain" })).toMatchObject({ status: 400 });
    expect(await post("/ingestion", keys.ingest, { batch: "nope" })).toMatchObject({ status: 400 });
    expect(await counts()).toEqual(before);
    // gzip'd JSON is read too.
    const zipped = await post("/otel/v1/traces", keys.ingest, gzipSync(JSON.stringify(otlpJson([{ spanId: "2000000000000002", attributes: { "promptly.prompt.name": "nope" } }]))), {
      "content-encoding": "gzip",
    });
    expect(zipped.status).toBe(200);
    expect(await generationsOf("2000000000000002")).toHaveLength(1);
  });

  it("merges events sent out of order and changes nothing when the same batch comes again", async () => {
    const generationId = "3d1c2b7a-0000-4000-8000-000000000001";
    const traceId = "3d1c2b7a-0000-4000-8000-0000000000aa";
    const at = new Date(Date.now() - 60_000);
    const batch = {
      batch: [
        { id: "e1", type: "score-create", timestamp: at.toISOString(), body: { id: "score-1", name: "quality", value: "great", dataType: "CATEGORICAL", traceId, observationId: generationId } },
        { id: "e2", type: "generation-update", timestamp: at.toISOString(), body: { id: generationId, traceId, endTime: new Date(at.getTime() + 2000).toISOString(), usageDetails: { prompt_tokens: 3, completion_tokens: 4 }, level: "ERROR", statusMessage: "boom" } },
        { id: "e3", type: "trace-create", timestamp: at.toISOString(), body: { id: traceId, userId: "user-3", environment: "production" } },
        { id: "e4", type: "generation-create", timestamp: at.toISOString(), body: { id: generationId, traceId, startTime: at.toISOString(), model: "gpt-4o-mini", promptName: "support/reply", promptVersion: 1 } },
        { id: "e5", type: "sdk-log", timestamp: at.toISOString(), body: { log: "hello" } },
      ],
    };
    const first = await post("/ingestion", keys.ingest, batch);
    expect(first).toEqual({ status: 207, body: { successes: ["e1", "e2", "e3", "e4", "e5"].map((id) => ({ id, status: 201 })), errors: [] } });
    const rollupBefore = await rollup(reply.id, 1);
    const countsBefore = await counts();
    expect(await post("/ingestion", keys.ingest, batch)).toEqual(first);
    expect(await counts()).toEqual(countsBefore);
    expect(await rollup(reply.id, 1)).toEqual(rollupBefore);

    const stored = await generationsOf(generationId);
    expect(stored).toMatchObject([{ promptId: reply.id, version: 1, latencyMs: 2000, inputTokens: 3, outputTokens: 4, status: "error", errorMessage: "boom", userRef: "user-3", environment: "production" }]);
    expect(await scoresOf(stored[0]!.id)).toMatchObject([{ name: "quality", dataType: "categorical", stringValue: "great", promptId: reply.id, version: 1 }]);
    expect(await scoreRollup(reply.id, 1, "quality")).toMatchObject({ count: 1, categories: { great: 1 } });

    // A score sent before its generation (in an earlier request) is linked when the generation comes.
    const lateId = "3d1c2b7a-0000-4000-8000-000000000002";
    await post("/scores", keys.ingest, { id: "score-late", name: "quality", value: "poor", dataType: "CATEGORICAL", traceId, observationId: lateId });
    await post("/ingestion", keys.ingest, { batch: [{ id: "e6", type: "generation-create", body: { id: lateId, traceId, startTime: at.toISOString(), promptName: "support/reply", promptVersion: 1 } }] });
    const [late] = await generationsOf(lateId);
    expect(await scoresOf(late!.id)).toMatchObject([{ stringValue: "poor", promptId: reply.id, version: 1 }]);
    expect(await scoreRollup(reply.id, 1, "quality")).toMatchObject({ count: 2, categories: { great: 1, poor: 1 } });
  });

  it("links a score naming only a trace, sent before any generation of it, to the trace's generation of a prompt when it comes", async () => {
    const traceId = "3d1c2b7a-0000-4000-8000-0000000000bb";
    const [plainId, linkedId] = ["3d1c2b7a-0000-4000-8000-000000000011", "3d1c2b7a-0000-4000-8000-000000000012"];
    const at = new Date(Date.now() - 45_000);
    const score = await post("/scores", keys.ingest, { id: "score-trace-only", name: "trace-quality", value: 0.75, traceId });
    expect(score.status).toBe(200);
    await merged();
    expect((await db().$queryRaw<{ generationId: string | null }[]>`
      SELECT generation_id AS "generationId" FROM scores WHERE external_id = 'score-trace-only'`)).toEqual([{ generationId: null }]);
    // The trace's spans come later, in one batch: a plain one first, then the one of the prompt, which the score judges.
    await post("/ingestion", keys.ingest, { batch: [
      { id: "t1", type: "generation-create", body: { id: plainId, traceId, startTime: at.toISOString(), model: "gpt-4o-mini" } },
      { id: "t2", type: "generation-create", body: { id: linkedId, traceId, startTime: new Date(at.getTime() + 10).toISOString(), promptName: "support/reply", promptVersion: 1 } },
    ] });
    const [linked] = await generationsOf(linkedId);
    expect(await scoresOf(linked!.id)).toMatchObject([{ name: "trace-quality", value: 0.75, promptId: reply.id, version: 1 }]);
    expect(await scoreRollup(reply.id, 1, "trace-quality")).toMatchObject({ count: 1, sum: 0.75 });
    // Linked once: a later generation of the same trace leaves it where it is.
    await post("/ingestion", keys.ingest, { batch: [{ id: "t3", type: "generation-create", body: { id: "3d1c2b7a-0000-4000-8000-000000000013", traceId, startTime: at.toISOString(), promptName: "support/reply", promptVersion: 2 } }] });
    expect(await scoresOf(linked!.id)).toHaveLength(1);
    expect(await scoreRollup(reply.id, 2, "trace-quality")).toMatchObject({ count: 0 });
  });

  it("merges a generation's create and update sent at once in two requests into one row, counted once", async () => {
    const id = "3d1c2b7a-0000-4000-8000-000000000003";
    const at = new Date(Date.now() - 30_000);
    const before = await rollup(reply.id, 2);
    const answers = await Promise.all([
      post("/ingestion", keys.ingest, { batch: [{ id: "c1", type: "generation-create", body: { id, startTime: at.toISOString(), promptName: "support/reply", promptVersion: 2, model: "gpt-4o-mini" } }] }),
      post("/ingestion", keys.ingest, { batch: [{ id: "c2", type: "generation-update", body: { id, endTime: new Date(at.getTime() + 500).toISOString(), usageDetails: { input: 7, output: 1 } } }] }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([207, 207]);
    expect(await generationsOf(id)).toMatchObject([{ promptId: reply.id, version: 2, latencyMs: 500, inputTokens: 7, outputTokens: 1 }]);
    const after = await rollup(reply.id, 2);
    expect(after.generations - before.generations).toBe(1);
    expect(Number(after.inputTokens) - Number(before.inputTokens)).toBe(7);

    // The update answered before its create is sent: kept until the create names the prompt.
    const later = "3d1c2b7a-0000-4000-8000-000000000004";
    await post("/ingestion", keys.ingest, { batch: [{ id: "c3", type: "generation-update", body: { id: later, endTime: new Date(at.getTime() + 900).toISOString(), usageDetails: { input: 2, output: 2 } } }] });
    await post("/ingestion", keys.ingest, { batch: [{ id: "c4", type: "generation-create", body: { id: later, startTime: at.toISOString(), promptName: "support/reply", promptVersion: 2 } }] });
    expect(await generationsOf(later)).toMatchObject([{ promptId: reply.id, version: 2, latencyMs: 900, inputTokens: 2, outputTokens: 2 }]);
    expect((await rollup(reply.id, 2)).generations - after.generations).toBe(1);
  });

  it("keeps a generation's text cut to 32 KB when the team keeps text", async () => {
    const long = "é".repeat(20_000); // 40,000 bytes
    await post("/otel/v1/traces", keys.ingest, otlpJson([{ spanId: "4000000000000001", attributes: { "promptly.prompt.name": "support/reply", "promptly.prompt.version": 1, "langfuse.observation.output": long } }]));
    const [stored] = await generationsOf("4000000000000001");
    expect(Buffer.byteLength(stored!.output!)).toBe(32 * 1024);
    expect(stored!.output).toBe("é".repeat(16 * 1024));
  });

  it("keeps text with tabs, line breaks, backslashes and quotes as sent (and a NUL, which PostgreSQL cannot hold, as U+FFFD)", async () => {
    const input = 'Say "hi"\tthen\r\nwait \\N \\t\\\\ {"a": [1]}\n';
    await post("/otel/v1/traces", keys.ingest, otlpJson([{
      spanId: "4000000000000002",
      attributes: { "promptly.prompt.name": "support/reply", "promptly.prompt.version": 1, "langfuse.observation.input": input, "langfuse.observation.output": "a\u0000b", "gen_ai.request.model": "tab\tmodel" },
    }]));
    const [stored] = await generationsOf("4000000000000002");
    expect(stored).toMatchObject({ input, output: "a\uFFFDb", model: "tab\tmodel" });
  });

  it("keeps none of a generation's stored text once the team keeps none: its next update drops it, before housekeeping clears it", async () => {
    const span = (attributes: Record<string, unknown>) => otlpJson([{ spanId: "4000000000000003", attributes: { "promptly.prompt.name": "support/reply", "promptly.prompt.version": 1, ...attributes } }]);
    await post("/otel/v1/traces", keys.ingest, span({ "langfuse.observation.input": "kept in", "langfuse.observation.output": "kept out" }));
    expect(await generationsOf("4000000000000003")).toMatchObject([{ input: "kept in", output: "kept out" }]);
    // Turned off in the database alone (the setting's own clearing not run): the merge reads the team's setting as it writes.
    await db().$executeRaw`UPDATE teams SET keep_generation_text = false WHERE id = ${teamId}::uuid`;
    try {
      await post("/otel/v1/traces", keys.ingest, span({ "gen_ai.request.model": "later-model" }));
      expect(await generationsOf("4000000000000003")).toMatchObject([{ model: "later-model", input: null, output: null }]);
    } finally {
      await db().$executeRaw`UPDATE teams SET keep_generation_text = true WHERE id = ${teamId}::uuid`;
    }
  });

  it("refuses a key without the ingest scope, on every way in, and writes nothing", async () => {
    const before = await counts();
    for (const [path, body] of [["/otel/v1/traces", otlpJson([{ attributes: { "promptly.prompt.name": "support/reply" } }])], ["/ingestion", { batch: [] }], ["/scores", { name: "x", value: 1 }]] as const) {
      const answer = await post(path, keys.read, body);
      expect(answer.status, path).toBe(403);
      expect(answer.body).toMatchObject({ message: RUNTIME_MSG.ingestScopeNeeded });
    }
    const v1 = await fetch(`${ks.server.base}/api/v1/scores`, {
      method: "POST", headers: { authorization: `Bearer ${keys.read.secretKey}`, "content-type": "application/json" }, body: JSON.stringify({ traceId: "t", name: "x", value: 1 }),
    });
    expect(v1.status).toBe(403);
    expect(await counts()).toEqual(before);
  });

  it("scores through /api/v1/scores by generation id, and a person's thumbs in the app, within the team", async () => {
    const [generation] = await generationsOf("1000000000000005"); // the other team's, linked to its prompt
    const v1 = (pair: Pair, body: unknown) =>
      fetch(`${ks.server.base}/api/v1/scores`, { method: "POST", headers: { authorization: `Bearer ${pair.secretKey}`, "content-type": "application/json" }, body: JSON.stringify(body) });
    const scored = await v1(keys.otherIngest, { generationId: generation!.id, name: "helpful", value: true, id: "v1-score" });
    expect(scored.status).toBe(201);
    expect(await scored.json()).toMatchObject({ linked: true });
    expect((await v1(keys.otherIngest, { generationId: generation!.id, name: "helpful", value: true, id: "v1-score" })).status).toBe(201);
    expect(await scoresOf(generation!.id)).toMatchObject([{ name: "helpful", dataType: "boolean", value: 1, promptId: theirs.id }]);
    // This team's key does not see the other team's generation.
    expect((await v1(keys.ingest, { generationId: generation!.id, name: "helpful", value: true })).status).toBe(404);

    await ks.admin.scores.create({ promptId: theirs.id, generationId: generation!.id, up: false, comment: "off topic" });
    expect(await scoresOf(generation!.id)).toMatchObject([
      { name: "helpful" },
      { name: "thumbs", dataType: "boolean", value: 0, stringValue: "False", comment: "off topic", source: "annotation", promptId: theirs.id },
    ]);
    await expect(ks.admin.scores.create({ promptId: reply.id, generationId: generation!.id, up: true })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
