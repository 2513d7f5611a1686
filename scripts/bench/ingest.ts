// `npm run bench -- ingest`: production signals at scale, in three parts, each against its baseline
// in the same run.
// 1. The Production tab's read (production.metrics over 90 days, as the tab asks it) of a prompt with
//    BENCH_GENERATIONS generations (default 10,000,000; smaller for a quick run) spread over those 90
//    days between two versions, two environments and two models, seeded in SQL (generate_series) with
//    their hourly rollups computed from them in SQL. Target: p99 under 150 ms.
// 2. OTLP/HTTP spans accepted per second by the one server process (answered once appended, durable),
//    and written through (merged: until the round's backlog is), in requests of 100 spans each
//    (JSON as the JavaScript exporters send it, protobuf as the Python SDK and the collector do), from
//    BENCH_INGEST_CONNECTIONS senders (default 16), every span a new generation of a prompt version;
//    against a bare `COPY` of the same rows (the same columns, 100 rows a statement, as many
//    connections) into the same table, in alternating rounds. Targets: at least 0.5x the COPY and
//    20,000 spans/s. Both sides' payloads are made before each round: the sender shares the machine.
// 3. The runtime API's fetch (GET /api/v1/prompts/{name}, 50 connections) alone, and while
//    1,000 and BENCH_INGEST_RATE spans/s (default 5,000) are sent in, in alternating rounds. Target: at most 10%
//    fewer fetches per second with ingestion running. Beside, the fetch while a bare COPY of the same rows
//    at the same pace goes straight into the database: what storing them takes from the fetch on this machine.
import { createHash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import autocannon from "autocannon";
import pg from "pg";
import { copyFrom } from "@promptly/db";
import { LATENCY_BUCKETS } from "@promptly/shared";
import { cpuMsOrNull } from "./cpu.ts";
import { adminOfOneTeam } from "./seed.ts";
import type { Benchmark } from "./types.ts";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const newKey = () => `promptly_${Array.from(randomBytes(43), (byte) => BASE62[byte % 62]).join("")}`;
const INGEST_KEY = newKey();
const READ_KEY = newKey();
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const NAME = "support/reply";
const ADMIN = "bench-admin@bench.test";

const GENERATIONS = Number(process.env.BENCH_GENERATIONS ?? 10_000_000);
const SPANS_PER_REQUEST = 100;
const INGEST_CONNECTIONS = Number(process.env.BENCH_INGEST_CONNECTIONS ?? 16);
const INGEST_RATE = Number(process.env.BENCH_INGEST_RATE ?? 5_000);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const SECONDS = Number(process.env.BENCH_DURATION ?? 5);
const READS = Number(process.env.BENCH_READS ?? 200);
/**
 * Which parts run (BENCH_INGEST_PARTS=read,accept,fetch; all by default): one alone, e.g. to profile it. `paced`:
 * only what ingestion alone costs at the paced rates (the first lines of `fetch`, without its rounds).
 */
const PARTS = new Set((process.env.BENCH_INGEST_PARTS ?? "read,accept,fetch").split(",").map((part) => part.trim()));
const DAY = 86_400_000;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;
const whole = (n: number) => Math.round(n).toLocaleString("en");

// ---- The spans sent ------------------------------------------------------------------------------------------

/** Every span a new generation: ids from one counter for the whole run. */
let nextSpan = 1;
const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");

interface Span {
  traceId: string;
  spanId: string;
  startNs: bigint;
  endNs: bigint;
  version: number;
  model: string;
  inputTokens: number;
  outputTokens: number;
}

function spans(): Span[] {
  const now = BigInt(Date.now()) * 1_000_000n;
  return Array.from({ length: SPANS_PER_REQUEST }, () => {
    const n = nextSpan++;
    return {
      traceId: hex(n, 32), spanId: hex(n, 16), startNs: now - BigInt(300 + (n % 1700)) * 1_000_000n, endNs: now,
      version: n % 10 === 0 ? 2 : 1, model: n % 3 === 0 ? "gpt-4o" : "gpt-4o-mini", inputTokens: 200 + (n % 400), outputTokens: 50 + (n % 300),
    };
  });
}

const attributesOf = (span: Span): [string, string | number][] => [
  ["promptly.prompt.name", NAME], ["promptly.prompt.version", span.version], ["gen_ai.request.model", span.model],
  ["gen_ai.usage.input_tokens", span.inputTokens], ["gen_ai.usage.output_tokens", span.outputTokens],
];

/** An OTLP/HTTP JSON ExportTraceServiceRequest, as @opentelemetry/exporter-trace-otlp-http sends it. */
function otlpJson(batch: Span[]): Buffer {
  return Buffer.from(JSON.stringify({
    resourceSpans: [{
      resource: { attributes: [{ key: "service.name", value: { stringValue: "checkout" } }, { key: "deployment.environment.name", value: { stringValue: "production" } }] },
      scopeSpans: [{
        scope: { name: "my-app" },
        spans: batch.map((span) => ({
          traceId: span.traceId, spanId: span.spanId, name: "chat", kind: 3, startTimeUnixNano: String(span.startNs), endTimeUnixNano: String(span.endNs),
          attributes: attributesOf(span).map(([key, value]) => ({ key, value: typeof value === "number" ? { intValue: value } : { stringValue: value } })),
          status: { code: 0 },
        })),
      }],
    }],
  }));
}

// The protobuf wire format, written by hand for the few messages of an OTLP trace request.
const varint = (n: number | bigint): number[] => {
  let v = BigInt(n);
  const out: number[] = [];
  while (v > 127n) {
    out.push(Number(v & 127n) | 128);
    v >>= 7n;
  }
  out.push(Number(v));
  return out;
};
/** A length-delimited field: its tag, length and bytes. */
const field = (no: number, bytes: Uint8Array | number[]) => Buffer.concat([Buffer.from(varint((no << 3) | 2)), Buffer.from(varint(bytes.length)), Buffer.from(bytes)]);
const text = (no: number, value: string) => field(no, Buffer.from(value, "utf8"));
const fixed64 = (no: number, value: bigint) => {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64LE(value);
  return Buffer.concat([Buffer.from(varint((no << 3) | 1)), bytes]);
};

/** A KeyValue's own fields: its key, and its AnyValue (a string, or an int). */
const kvBody = (key: string, value: string | number) =>
  Buffer.concat([text(1, key), field(2, typeof value === "number" ? Buffer.from([3 << 3, ...varint(value)]) : text(1, value))]);

/** The same request as protobuf (application/x-protobuf), as the Python SDK and the collector send it. */
function otlpProtobuf(batch: Span[]): Buffer {
  const spansEncoded = batch.map((span) => field(2, Buffer.concat([
    field(1, Buffer.from(span.traceId, "hex")), field(2, Buffer.from(span.spanId, "hex")), text(5, "chat"), Buffer.from([6 << 3, 3]),
    fixed64(7, span.startNs), fixed64(8, span.endNs), ...attributesOf(span).map(([key, value]) => field(9, kvBody(key, value))),
  ])));
  const resource = field(1, Buffer.concat([field(1, kvBody("service.name", "checkout")), field(1, kvBody("deployment.environment.name", "production"))]));
  const scopeSpans = field(2, Buffer.concat([field(1, text(1, "my-app")), ...spansEncoded]));
  return field(1, Buffer.concat([resource, scopeSpans]));
}

// ---- Sending ---------------------------------------------------------------------------------------------------

const agent = new Agent({ keepAlive: true, maxSockets: 256 });

function post(url: string, headers: Record<string, string>, body: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: "POST", agent, headers: { ...headers, "content-length": String(body.length) } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode!));
    });
    req.on("error", (error: NodeJS.ErrnoException) => {
      // A kept-alive socket the server closed as idle (between rounds) while this request was sent on
      // it: nothing reached the server, so it is sent again on a new one, as Node's documentation advises.
      if (req.reusedSocket && error.code === "ECONNRESET") post(url, headers, body).then(resolve, reject);
      else reject(error);
    });
    req.end(body);
  });
}

/**
 * `connections` senders each sending its next batch as soon as the last is answered, for `seconds`
 * (or, with `rate`, batches paced to that many spans per second in all): spans accepted per second.
 */
async function sendFor(seconds: number, connections: number, send: () => Promise<void>, rate?: number) {
  const until = performance.now() + seconds * 1000;
  const started = performance.now();
  let sent = 0;
  const interval = rate ? (connections * SPANS_PER_REQUEST * 1000) / rate : 0;
  await Promise.all(Array.from({ length: connections }, async (_, index) => {
    let next = started + (interval * index) / connections;
    while (performance.now() < until) {
      if (interval) {
        const wait = next - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        next += interval;
        if (performance.now() >= until) break;
      }
      await send();
      sent += SPANS_PER_REQUEST;
    }
  }));
  return sent / ((performance.now() - started) / 1000);
}

/**
 * Payloads made before a round, so what is measured is the server's work, not this process's encoding
 * (on two cores the sender's CPU is taken from the server's): enough for `spansPerSecond` over
 * `seconds`, more made on the way should a round outrun them.
 */
function prepared<T>(make: (batch: Span[]) => T, spansPerSecond: number, seconds: number): () => T {
  const made = Array.from({ length: Math.ceil((spansPerSecond * seconds) / SPANS_PER_REQUEST) }, () => make(spans()));
  let next = 0;
  return () => (next < made.length ? made[next++]! : make(spans()));
}
/** Payloads made ahead for a round at full speed (above the target, so a fast server never waits on them). */
const FULL_SPEED = 30_000;

const COPY_SQL = `COPY generations (id, organization_id, team_id, prompt_id, prompt_name, version, trace_id, observation_id, source, model, environment,
  started_at, ended_at, latency_ms, input_tokens, output_tokens, cost, status) FROM STDIN`;

/** The rows the server writes for a batch, as COPY's text format. */
function copyRows(batch: Span[], ids: { organizationId: string; teamId: string; promptId: string }): string {
  return batch.map((span) => {
    const start = new Date(Number(span.startNs / 1_000_000n));
    const end = new Date(Number(span.endNs / 1_000_000n));
    const cost = span.model === "gpt-4o" ? span.inputTokens * 2.5e-6 + span.outputTokens * 10e-6 : span.inputTokens * 0.15e-6 + span.outputTokens * 0.6e-6;
    return [
      crypto.randomUUID(), ids.organizationId, ids.teamId, ids.promptId, NAME, span.version, span.traceId, `copy-${span.spanId}`, "otel", span.model, "production",
      start.toISOString(), end.toISOString(), end.getTime() - start.getTime(), span.inputTokens, span.outputTokens, cost, "ok",
    ].join("\t");
  }).join("\n") + "\n";
}

// ---- Seeding ---------------------------------------------------------------------------------------------------

/** The bucket of a latency in SQL, as bucketOf counts it: how many bounds lie below it. */
const NEGATED_BOUNDS = `ARRAY[${[...LATENCY_BUCKETS].reverse().map((bound) => -bound).join(",")}]::float8[]`;
const bucketSql = (column: string) => `(${LATENCY_BUCKETS.length} - width_bucket(-${column}, ${NEGATED_BOUNDS}))`;
const HIST_OF = (list: string) =>
  `(SELECT array_agg(coalesce(c.n, 0)::int ORDER BY k) FROM generate_series(0, ${LATENCY_BUCKETS.length}) k LEFT JOIN unnest(${list}) c(b, n) ON c.b = k)`;

export const benchmark: Benchmark = {
  description: `OTLP spans accepted per second against a bare COPY, the runtime fetch beside ingestion, and the Production tab's read over ${whole(GENERATIONS)} generations`,
  async seed(context) {
    const { db, log } = context;
    const { admin, organizationId, teamId } = await adminOfOneTeam(context, ADMIN, "Bench Admin");
    const { rows: [prompt] } = await db.query<{ id: string }>(
      `INSERT INTO prompts (organization_id, team_id, name, title, tags, visibility, author_id, latest_version)
       VALUES ($1, $2, $3, 'Support reply', '{support}', 'team', $4, 2) RETURNING id`,
      [organizationId, teamId, NAME, admin],
    );
    for (const version of [1, 2]) {
      await db.query(`INSERT INTO prompt_versions (prompt_id, version, type, template, variables, author_id) VALUES ($1, $2, 'text', $3, '[]', $4)`, [
        prompt!.id, version, `Reply warmly to the customer (v${version}).`, admin,
      ]);
    }
    await db.query(`INSERT INTO prompt_labels (prompt_id, name, version) VALUES ($1, 'production', 1)`, [prompt!.id]);
    for (const [key, scopes] of [[INGEST_KEY, "{read,ingest}"], [READ_KEY, "{read}"]] as const) {
      await db.query(`INSERT INTO api_keys (team_id, name, prefix, key_hash, labels, scopes, created_by) VALUES ($1, $2, $3, $4, '{}', $5, $6)`, [
        teamId, `Bench ${scopes}`, key.slice(0, 12), sha256(key), scopes, admin,
      ]);
    }
    // Spread evenly over the 90 days up to now, in time order (as they would arrive). Each month's rows
    // are written into a table of their own without indexes, which then becomes that month's partition:
    // its indexes built once, sorted, instead of kept up row by row (several times faster).
    const end = Date.now();
    const start = end - 90 * DAY;
    const at = (i: number) => start + (i / GENERATIONS) * (end - start);
    const chunk = 1_000_000;
    let started = performance.now();
    let written = 0;
    for (let month = new Date(start); month.getTime() < end; month = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1))) {
      const from = Date.UTC(month.getUTCFullYear(), month.getUTCMonth(), 1);
      const to = Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1);
      const part = `generations_${month.getUTCFullYear()}_${String(month.getUTCMonth() + 1).padStart(2, "0")}`;
      // The first and last generation of the month.
      let first = Math.max(1, Math.ceil(((from - start) / (end - start)) * GENERATIONS));
      while (at(first) < from) first += 1;
      let last = Math.min(GENERATIONS, Math.ceil(((to - start) / (end - start)) * GENERATIONS) - 1);
      while (last >= first && at(last) >= to) last -= 1;
      await db.query(`DROP TABLE IF EXISTS ${part}`); // the empty partition the migration made, if any
      await db.query(`CREATE TABLE ${part} (LIKE generations INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
      for (let low = first; low <= last; low += chunk) {
        const high = Math.min(last, low + chunk - 1);
        await db.query(
          `INSERT INTO ${part} (id, organization_id, team_id, prompt_id, prompt_name, version, trace_id, observation_id, source, model, environment,
             started_at, ended_at, completion_start_at, latency_ms, ttft_ms, input_tokens, output_tokens, cost, status, received_at)
           SELECT gen_random_uuid(), $1, $2, $3, $4, CASE WHEN i % 10 = 0 THEN 2 ELSE 1 END, 'seed-' || i, 'seed-' || i, 'otel',
                  CASE WHEN i % 3 = 0 THEN 'gpt-4o' ELSE 'gpt-4o-mini' END, CASE WHEN i % 4 = 0 THEN 'staging' ELSE 'production' END,
                  t, t + latency * interval '1 millisecond', t + latency * 0.3 * interval '1 millisecond', latency, latency * 0.3, 200 + i % 400, 50 + i % 300,
                  CASE WHEN i % 3 = 0 THEN (200 + i % 400) * 2.5e-6 + (50 + i % 300) * 10e-6 ELSE (200 + i % 400) * 0.15e-6 + (50 + i % 300) * 0.6e-6 END,
                  CASE WHEN i % 50 = 0 THEN 'error' ELSE 'ok' END, t
             FROM (SELECT i, to_timestamp(($8::float8 + (i::float8 / $5) * ($9::float8 - $8::float8)) / 1000) AS t,
                          round((250 + 2500 * random() * random() + CASE WHEN i % 10 = 0 THEN 40 ELSE 0 END)::numeric, 1)::float8 AS latency
                     FROM generate_series($6::int, $7::int) i) s`,
          [organizationId, teamId, prompt!.id, NAME, GENERATIONS, low, high, start, end],
        );
        written += high - low + 1;
        log(`generations ${whole(written)} of ${whole(GENERATIONS)} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
      }
      await db.query(`ALTER TABLE generations ATTACH PARTITION ${part} FOR VALUES FROM ('${new Date(from).toISOString()}') TO ('${new Date(to).toISOString()}')`);
      log(`${part} attached, its indexes built (${((performance.now() - started) / 1000).toFixed(0)} s)`);
    }
    // The months ahead, as housekeeping makes them.
    await db.query(`SELECT production_ensure_generation_partition(now() + m * interval '1 month')::text FROM generate_series(0, 2) m`);
    started = performance.now();
    // Their hourly rollups, computed in SQL as ingestion keeps them: sums, and each latency's bucket counted.
    const keys = "prompt_id, version, environment, model, hour";
    const rows = `SELECT prompt_id, version, environment, coalesce(model, '') AS model, date_bin('1 hour', started_at, TIMESTAMPTZ '2000-01-01 00:00:00+00') AS hour,
                         status, latency_ms, ttft_ms, input_tokens, output_tokens, cost FROM generations WHERE prompt_id = '${prompt!.id}'`;
    await db.query(`
      INSERT INTO generation_rollups (${keys}, generations, errors, latency_sum, latency_count, ttft_sum, ttft_count, input_tokens, output_tokens, token_count,
        cost, cost_count, cost_sum_squares, latency_hist)
      SELECT ${keys}, sum(n), sum(errors), sum(latency_sum), sum(latency_count), sum(ttft_sum), sum(ttft_count), sum(input_tokens), sum(output_tokens),
             sum(token_count), sum(cost), sum(cost_count), sum(cost_sum_squares), ${HIST_OF("array_agg(b), array_agg(latency_count)")}
        FROM (SELECT ${keys}, ${bucketSql("latency_ms")} AS b, count(*) AS n, count(*) FILTER (WHERE status = 'error') AS errors,
                     sum(latency_ms) AS latency_sum, count(latency_ms) AS latency_count, coalesce(sum(ttft_ms), 0) AS ttft_sum, count(ttft_ms) AS ttft_count,
                     coalesce(sum(input_tokens), 0) AS input_tokens, coalesce(sum(output_tokens), 0) AS output_tokens,
                     count(*) FILTER (WHERE input_tokens IS NOT NULL OR output_tokens IS NOT NULL) AS token_count, coalesce(sum(cost), 0) AS cost,
                     count(cost) AS cost_count, coalesce(sum(cost * cost), 0) AS cost_sum_squares
                FROM (${rows}) g GROUP BY ${keys}, b) x
       GROUP BY ${keys}`);
    await db.query(`
      UPDATE generation_rollups r SET ttft_hist = t.hist
        FROM (SELECT ${keys}, ${HIST_OF("array_agg(b), array_agg(n)")} AS hist
                FROM (SELECT ${keys}, ${bucketSql("ttft_ms")} AS b, count(*) AS n FROM (${rows}) g WHERE ttft_ms IS NOT NULL GROUP BY ${keys}, b) x
               GROUP BY ${keys}) t
       WHERE (r.prompt_id, r.version, r.environment, r.model, r.hour) = (t.prompt_id, t.version, t.environment, t.model, t.hour)`);
    // A thumbs-up score on about one generation in twenty, summed per hour as its rollup would be.
    await db.query(`
      INSERT INTO score_rollups (prompt_id, version, environment, hour, name, data_type, count, sum, sum_squares)
      SELECT prompt_id, version, environment, hour, 'thumbs', 'boolean', greatest(1, generations / 20), greatest(1, generations / 20) * 0.7,
             greatest(1, generations / 20) * 0.7
        FROM generation_rollups WHERE prompt_id = $1 AND model = 'gpt-4o-mini'`, [prompt!.id]);
    const { rows: [counted] } = await db.query<{ rollups: string }>(`SELECT count(*)::text AS rollups FROM generation_rollups`);
    log(`${counted!.rollups} hourly rollups computed in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  },

  async measure(server) {
    const { rows: [ids] } = await server.db.query<{ organizationId: string; teamId: string; promptId: string }>(
      `SELECT p.organization_id AS "organizationId", p.team_id AS "teamId", p.id AS "promptId" FROM prompts p WHERE p.name = $1`, [NAME],
    );
    // The machine's load beside the figures: a shared machine's other work moves them.
    const loadAverage = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
    const lines: string[] = [`Load average (1, 5, 15 min) at the start: ${loadAverage()}`];
    // Each figure is printed as soon as it is measured too (the report repeats them all at the end).
    const note = (line: string) => {
      console.log(`  ${line}`);
      lines.push(line);
    };

    // 1. The Production tab's read over 90 days.
    if (PARTS.has("read")) {
      const cookie = await server.signIn(ADMIN);
      const to = new Date();
      const input = encodeURIComponent(JSON.stringify({ json: { promptId: ids!.promptId, from: new Date(to.getTime() - 90 * DAY).toISOString(), to: to.toISOString() } }));
      const readOnce = async () => {
        const started = performance.now();
        const response = await fetch(`${server.base}/trpc/production.metrics?input=${input}`, { headers: { cookie } });
        const body = await response.text();
        if (!response.ok) throw new Error(`production.metrics answered ${response.status}: ${body.slice(0, 300)}`);
        return performance.now() - started;
      };
      for (let i = 0; i < 5; i++) await readOnce();
      const times: number[] = [];
      for (let i = 0; i < READS; i++) times.push(await readOnce());
      const p99 = quantile(times, 0.99);
      note(
        `Production tab read (production.metrics, 90 days, ${whole(GENERATIONS)} generations, ${READS} reads one after another): ` +
          `p50 ${quantile(times, 0.5).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms (target under 150 ms: ${p99 < 150 ? "met" : "NOT met"})`,
      );
    }

    // 2. Spans accepted per second against a bare COPY of the same rows.
    const url = `${server.base}/api/public/otel/v1/traces`;
    const auth = { authorization: `Bearer ${INGEST_KEY}` };
    const formats = {
      json: { type: "application/json", encode: otlpJson },
      protobuf: { type: "application/x-protobuf", encode: otlpProtobuf },
    };
    const send = (format: keyof typeof formats, body: Buffer) => post(url, { ...auth, "content-type": formats[format].type }, body);
    // The server answers once a request is appended (durable) and merges it right after: how long after
    // a round's last answer the last of its spans is merged (ingest_pending empty), in ms.
    const drained = async () => {
      const started = performance.now();
      while (Number((await server.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM ingest_pending`)).rows[0]!.n) > 0) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return performance.now() - started;
    };
    // One request of each format first: answered 200 and every span stored (once merged) as a linked generation.
    const check = async (format: keyof typeof formats) => {
      const batch = spans();
      const status = await send(format, formats[format].encode(batch));
      await drained();
      const { rows: [found] } = await server.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM generations WHERE team_id = $1 AND observation_id = ANY($2) AND prompt_id IS NOT NULL`, [ids!.teamId, batch.map((span) => span.spanId)],
      );
      const stored = found!.n;
      if (status !== 200 || stored !== SPANS_PER_REQUEST) throw new Error(`OTLP ${format} answered ${status} and stored ${stored} of ${SPANS_PER_REQUEST} spans`);
    };
    await check("json");
    await check("protobuf");
    const pool = new pg.Pool({ connectionString: (server.db as unknown as { options: { connectionString: string } }).options.connectionString, max: INGEST_CONNECTIONS });
    pool.on("error", () => undefined);
    const copy = (spansPerSecond: number, seconds: number) => {
      const next = prepared((batch) => copyRows(batch, ids!), spansPerSecond, seconds);
      return async () => {
        const client = await pool.connect();
        try {
          await copyFrom(client, COPY_SQL, next());
        } finally {
          client.release();
        }
      };
    };
    const failures = { count: 0 };
    const ours = (format: keyof typeof formats, spansPerSecond: number, seconds: number) => {
      const next = prepared(formats[format].encode, spansPerSecond, seconds);
      return async () => {
        if ((await send(format, next())) !== 200) failures.count += 1;
      };
    };
    // What the server wrote from here on: received after now (every seeded row was received before), not the COPY's.
    const measuredFrom = new Date();
    const written = async () =>
      Number((await server.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM generations WHERE received_at >= $1 AND observation_id NOT LIKE 'copy-%'`, [measuredFrom])).rows[0]!.n);
    // The CPU each side took, from /proc: the server's and its database backends' (every backend of the
    // bench's database, so the COPY's too). Per span it does not move with the machine's other load as
    // spans/s does, and its ratio is the throughput ratio the two would show with the machine to themselves.
    const backends = async () =>
      (await server.db.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend'`)).rows.map((row) => row.pid);
    // Until the server has merged what it accepted too (drainMs), so the CPU is the whole cost of the spans.
    const cpuDuring = async (work: () => Promise<number>): Promise<{ rate: number; drainMs: number; serverMs: number; databaseMs: number }> => {
      const before = new Map((await backends()).map((pid) => [pid, cpuMsOrNull(pid) ?? 0]));
      const serverBefore = server.cpuMs();
      const rate = await work();
      const drainMs = await drained();
      const serverMs = server.cpuMs() - serverBefore;
      let databaseMs = 0;
      for (const pid of new Set([...before.keys(), ...(await backends())])) databaseMs += Math.max(0, (cpuMsOrNull(pid) ?? before.get(pid) ?? 0) - (before.get(pid) ?? 0));
      return { rate, drainMs, serverMs, databaseMs };
    };
    for (const format of PARTS.has("accept") ? (["json", "protobuf"] as const) : []) {
      await sendFor(1, INGEST_CONNECTIONS, ours(format, FULL_SPEED, 1)); // warm-up
      const rounds: [Awaited<ReturnType<typeof cpuDuring>>, Awaited<ReturnType<typeof cpuDuring>>][] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const mine = ours(format, FULL_SPEED, SECONDS);
        const bare = copy(FULL_SPEED, SECONDS);
        rounds.push([await cpuDuring(() => sendFor(SECONDS, INGEST_CONNECTIONS, mine)), await cpuDuring(() => sendFor(SECONDS, INGEST_CONNECTIONS, bare))]);
      }
      const mean = (side: 0 | 1) => rounds.reduce((sum, pair) => sum + pair[side].rate, 0) / rounds.length;
      const ratio = median(rounds.map(([mine, bare]) => mine.rate / bare.rate));
      // Written through: the spans accepted over the time until the last was merged.
      const through = (round: (typeof rounds)[number][0]) => (round.rate * SECONDS) / (SECONDS + round.drainMs / 1000);
      const throughMean = rounds.reduce((sum, pair) => sum + through(pair[0]), 0) / rounds.length;
      const throughRatio = median(rounds.map(([mine, bare]) => through(mine) / bare.rate));
      const drainMean = rounds.reduce((sum, pair) => sum + pair[0].drainMs, 0) / rounds.length;
      // CPU ms per 1,000 spans (rows): each round's CPU over what it sent.
      const per1000 = (side: 0 | 1, part: "serverMs" | "databaseMs") =>
        median(rounds.map((pair) => (pair[side][part] * 1000) / Math.max(1, pair[side].rate * SECONDS)));
      const mineCpu = per1000(0, "serverMs") + per1000(0, "databaseMs");
      const bareCpu = per1000(1, "databaseMs");
      note(
        `OTLP ${format}, ${SPANS_PER_REQUEST} spans a request, ${INGEST_CONNECTIONS} senders, ${SECONDS} s rounds: accepted (answered once appended) ${whole(mean(0))} spans/s; ` +
          `bare COPY of the same rows: ${whole(mean(1))} rows/s; ratio ${ratio.toFixed(2)} (targets at least 0.5x: ${ratio >= 0.5 ? "met" : "NOT met"}; ` +
          `20,000 spans/s: ${mean(0) >= 20_000 ? "met" : "NOT met"})`,
      );
      note(
        `  written through (merged; the last ${whole(drainMean)} ms after the round's last answer): ${whole(throughMean)} spans/s, ratio ${throughRatio.toFixed(2)} to the COPY`,
      );
      note(
        `  CPU per 1,000 spans: server ${per1000(0, "serverMs").toFixed(0)} ms + PostgreSQL ${per1000(0, "databaseMs").toFixed(0)} ms = ${mineCpu.toFixed(0)} ms; ` +
          `bare COPY: PostgreSQL ${bareCpu.toFixed(0)} ms; CPU ratio ${(bareCpu / mineCpu).toFixed(2)} (the spans/s ratio on a machine left to them)`,
      );
    }
    note(`Ingestion wrote ${whole(await written())} generations, ${failures.count} requests refused or failed`);

    // 3. The runtime fetch alone and beside ingestion at steady rates.
    const fetchFor = async (seconds: number) =>
      (await autocannon({ url: `${server.base}/api/v1/prompts/${NAME}`, headers: { authorization: `Bearer ${READ_KEY}` }, connections: 50, duration: seconds })).requests.average;
    if (PARTS.has("fetch")) await fetchFor(1);
    for (const rate of PARTS.has("fetch") || PARTS.has("paced") ? [...new Set([1_000, INGEST_RATE])] : []) {
      // What ingestion alone takes at this rate (server and database CPU a second), the fetch's competitor.
      const paced = await cpuDuring(() => sendFor(SECONDS, 4, ours("protobuf", rate, SECONDS), rate));
      note(
        `Ingestion alone at ${whole(rate)} spans/s (${whole(paced.rate)} sent): server ${whole(paced.serverMs / SECONDS)} ms + PostgreSQL ` +
          `${whole(paced.databaseMs / SECONDS)} ms of CPU a second`,
      );
      const pacedCopy = await cpuDuring(() => sendFor(SECONDS, 4, copy(rate, SECONDS), rate));
      note(`  a bare COPY of the same rows alone at that pace: server ${whole(pacedCopy.serverMs / SECONDS)} ms + PostgreSQL ${whole(pacedCopy.databaseMs / SECONDS)} ms of CPU a second`);
      if (!PARTS.has("fetch")) continue;
      // Each round: the fetch alone, beside the spans sent in, and beside a bare COPY of the same rows at the same pace
      // (straight into the database, no server: what storing them takes from the fetch on this machine, whatever writes them).
      const rounds: [number, number, number][] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const alone = await fetchFor(SECONDS);
        const sender = ours("protobuf", rate, SECONDS);
        const [beside] = await Promise.all([fetchFor(SECONDS), sendFor(SECONDS, 4, sender, rate)]);
        await drained();
        const bare = copy(rate, SECONDS);
        const [besideCopy] = await Promise.all([fetchFor(SECONDS), sendFor(SECONDS, 4, bare, rate)]);
        rounds.push([alone, beside, besideCopy]);
      }
      const average = (side: 0 | 1 | 2) => whole(rounds.reduce((sum, round) => sum + round[side], 0) / rounds.length);
      const fetchRatio = median(rounds.map(([alone, beside]) => beside / alone));
      const copyRatio = median(rounds.map(([alone, , besideCopy]) => besideCopy / alone));
      note(
        `Runtime fetch (50 connections): ${average(0)} req/s alone, ${average(1)} req/s while ${whole(rate)} spans/s are sent in; ` +
          `ratio ${fetchRatio.toFixed(2)} (target at least 0.90: ${fetchRatio >= 0.9 ? "met" : "NOT met"})`,
      );
      note(`  beside a bare COPY of the same rows at ${whole(rate)} rows/s instead (no server): ${average(2)} req/s, ratio ${copyRatio.toFixed(2)}`);
    }
    await pool.end();
    note(`Load average (1, 5, 15 min) at the end: ${loadAverage()}`);
    return lines;
  },
};
