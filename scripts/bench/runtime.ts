// `npm run bench -- runtime`: the runtime API for tools. GET /api/v1/prompts/{name} with an
// API key at 1 and 50 connections, beside the Express + pg baseline doing the same key lookup and the
// prompt, label and version reads; then the typed client's cached `get` in operations per second.
// Third side: a bare node:http server answering the same bytes (status, headers, body) from memory.
// Targets: with the default limits (limits-pg), at 50 connections at least 0.6x the bare server's
// req/s ("ratio to bare") with a p99 at most twice the bare server's ("p99 to bare" at most 2); never
// below 2x the Express + pg baseline and p99 under 10 ms, with each rate-limit store; p50 under 1 ms at 1 client; cached
// client get above 1,000,000 per second.
// Variants: rate limits off; on (every request counted against the key's limit in the app's
// PostgreSQL, as by default); on with REDIS_URL (the machine's Redis). The limit is set far above the
// load, so every request is counted and none refused.
import { createHash, randomBytes } from "node:crypto";
import { createPromptClient } from "@promptly/client";
import { adminOfOneTeam } from "./seed.ts";
import type { Benchmark, Scenario } from "./types.ts";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const KEY = `promptly_${Array.from(randomBytes(43), (byte) => BASE62[byte % 62]).join("")}`;
const KEY_HASH = createHash("sha256").update(KEY).digest("hex");
const NAME = "support/reply";
const TEMPLATE = "You are a friendly support agent for {{ product }}.\n\nCustomer message:\n{{ message }}\n\nWrite a short, warm reply.";
/** How long the cached client's gets are counted. */
const CLIENT_SECONDS = 3;
const COUNTED = { RATE_LIMITS: "on", API_RATE_LIMIT_PER_MINUTE: "1000000" };
const VARIANT_ENV: Record<string, Record<string, string>> = {
  "limits-off": {},
  "limits-pg": COUNTED,
  "limits-redis": { ...COUNTED, REDIS_URL: process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379" },
};

export const benchmark: Benchmark = {
  description: "GET /api/v1/prompts/{name} with an API key (served from memory) and the typed client's cached get",
  warmup: 2,
  bare: true,
  variants: Object.keys(VARIANT_ENV),
  serverEnv: (variant) => VARIANT_ENV[variant!]!,
  async seed(context) {
    const { db } = context;
    const { admin, organizationId, teamId } = await adminOfOneTeam(context, "bench-admin@bench.test", "Bench Admin");
    const { rows: [prompt] } = await db.query<{ id: string }>(
      `INSERT INTO prompts (organization_id, team_id, name, title, tags, visibility, author_id, latest_version)
       VALUES ($1, $2, $3, 'Support reply', '{support,email}', 'team', $4, 2) RETURNING id`,
      [organizationId, teamId, NAME, admin],
    );
    for (const version of [1, 2]) {
      await db.query(
        `INSERT INTO prompt_versions (prompt_id, version, type, template, variables, author_id)
         VALUES ($1, $2, 'text', $3, '[{"name":"product","type":"string","required":true},{"name":"message","type":"string","required":true}]', $4)`,
        [prompt!.id, version, `${TEMPLATE}${version === 2 ? " Sign with the team's name." : ""}`, admin],
      );
    }
    await db.query(`INSERT INTO prompt_labels (prompt_id, name, version) VALUES ($1, 'production', 1), ($1, 'staging', 2)`, [prompt!.id]);
    await db.query(
      `INSERT INTO api_keys (team_id, name, prefix, key_hash, labels, scopes, created_by) VALUES ($1, 'Bench', $2, $3, '{}', '{read}', $4)`,
      [teamId, KEY.slice(0, 12), KEY_HASH, admin],
    );
  },
  async scenarios({ db }) {
    const { rows: [ids] } = await db.query<{ team_id: string; prompt_id: string }>(
      `SELECT k.team_id, p.id AS prompt_id FROM api_keys k JOIN prompts p ON p.team_id = k.team_id AND p.name = $1 WHERE k.key_hash = $2`,
      [NAME, KEY_HASH],
    );
    // The same reads the server makes on a cache miss: the key, the prompt, its label, the version.
    const baseline = [
      { sql: `SELECT id, team_id, labels, scopes, expires_at, revoked_at FROM api_keys WHERE key_hash = $1`, params: [KEY_HASH] },
      {
        sql: `SELECT id, name, title, tags, updated_at, latest_version FROM prompts
              WHERE team_id = $1 AND name = $2 AND archived_at IS NULL AND visibility <> 'private'`,
        params: [ids!.team_id, NAME],
      },
      { sql: `SELECT version FROM prompt_labels WHERE prompt_id = $1 AND name = 'production'`, params: [ids!.prompt_id] },
      {
        sql: `SELECT v.version, v.type, v.template, v.messages, v.variables, v.model, v.config,
                     ARRAY(SELECT l.name FROM prompt_labels l WHERE l.prompt_id = v.prompt_id AND l.version = v.version ORDER BY l.name) AS labels
              FROM prompt_versions v WHERE v.prompt_id = $1 AND v.version = 1`,
        params: [ids!.prompt_id],
      },
    ];
    const get = (connections: number): Scenario => ({
      name: `GET /api/v1/prompts/${NAME}`,
      path: `/api/v1/prompts/${NAME}`,
      headers: { authorization: `Bearer ${KEY}` },
      connections,
      baseline,
    });
    return [get(1), get(50)];
  },
  async after({ base }) {
    const client = createPromptClient({ url: base, apiKey: KEY, cacheTtlSeconds: 3600 });
    const first = await client.get(NAME);
    if (first.isFallback || first.version !== 1) throw new Error(`the client did not fetch production (version ${first.version})`);
    let gets = 0;
    const until = Date.now() + CLIENT_SECONDS * 1000;
    while (Date.now() < until) {
      // Checking the clock every 10,000 gets keeps it out of what is measured.
      for (let i = 0; i < 10_000; i += 1) await client.get(NAME);
      gets += 10_000;
    }
    return [`Typed client, cached get: ${Math.round(gets / CLIENT_SECONDS).toLocaleString("en")} per second (target above 1,000,000)`];
  },
};
