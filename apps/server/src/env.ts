// Configuration: environment variables, validated once at start-up. Defaults need none:
// without DATABASE_URL / S3_ENDPOINT / SMTP_HOST the server starts embedded services instead.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { isIP } from "node:net";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { judgeAnswerLimitMs } from "@promptly/shared";

export const REPO_ROOT = resolve(fileURLToPath(new URL("../../..", import.meta.url)));

/** Addresses or subnets (10.0.0.0/8, ::1) and Express's names for address ranges, comma separated. */
function isProxyList(value: string): boolean {
  return value.split(",").every((item) => {
    const [address = "", prefix, extra] = item.trim().split("/");
    if (["loopback", "linklocal", "uniquelocal"].includes(address) && prefix === undefined) return true;
    const version = isIP(address);
    if (!version || extra !== undefined) return false;
    return prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128));
  });
}

/** Express's "trust proxy": false, how many proxies are in front, or which addresses are proxies. */
export type TrustProxy = false | number | string;

const port = z.coerce.number().int().min(1).max(65535);
const bool = z.enum(["true", "false", "1", "0", "on", "off"]).transform((v) => v === "true" || v === "1" || v === "on");
const fastPaths = z
  .enum(["on", "off", "true", "false", "1", "0"], { error: "must be on or off (off answers every request through the full stack)" })
  .default("on")
  .transform((v) => v === "on" || v === "true" || v === "1");
const url = (protocols: string[]) =>
  z.string().refine((value) => {
    try {
      return protocols.includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, `must be a URL starting with ${protocols.map((p) => `${p}//`).join(" or ")}`);

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  HOST: z.string().min(1).default("127.0.0.1"),
  PORT: port.default(3000),
  APP_URL: url(["http:", "https:"]).optional(),
  DATA_DIR: z.string().min(1).default(join(REPO_ROOT, ".data")),
  APP_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  TRUST_PROXY: z
    .string()
    .default("false")
    .transform((value, ctx): TrustProxy => {
      const v = value.trim().toLowerCase();
      if (["false", "0", "off"].includes(v)) return false;
      // "true": the one reverse proxy in front of us. Trusting every hop would take the client's
      // address from the left end of X-Forwarded-For, which the client writes itself.
      if (["true", "on"].includes(v)) return 1;
      if (/^\d+$/.test(v)) return Number(v);
      if (isProxyList(v)) return v;
      ctx.addIssue({ code: "custom", message: "must be false, true, a number of proxies, or proxy addresses (e.g. 10.0.0.1, loopback)" });
      return z.NEVER;
    }),
  RATE_LIMITS: bool.default(true),
  /** Requests a minute one API key may make to /api/v1 (off with RATE_LIMITS=off). */
  API_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(600),
  /**
   * Test-only: a request may name procedures that must fail with a 500 (cookie promptly-test-faults), so the
   * end-to-end suite can show every page failing. Off unless set; never set it on a real installation.
   */
  TEST_FAULTS: bool.default(false),
  /**
   * The hand-written fast paths (single tRPC queries before the adapter, runtime fetches from memory
   * before Express): on by default; off sends every request through the full stack, whose answers
   * they copy (the tests run once more with them off, so that stack stays right).
   */
  FAST_PATHS: fastPaths,
  /** How many megabytes (estimated) of resolved prompts each process's runtime cache may hold; past it, those not fetched lately go. */
  RUNTIME_CACHE_MAX_MB: z.coerce.number().int().min(1).max(65_536).default(64),
  /**
   * Provider connections may point to private, loopback and link-local addresses: for models served on
   * the same network (Ollama, vLLM). Off by default, so a connection cannot be used to reach the
   * server's own network.
   */
  ALLOW_PRIVATE_PROVIDER_URLS: bool.default(false),
  /**
   * Webhooks may be sent to private, loopback and link-local addresses (a receiver on the same network).
   * Off by default, so a webhook cannot be used to reach the server's own network.
   */
  ALLOW_PRIVATE_WEBHOOK_URLS: bool.default(false),
  /** How long one call to a model provider may take (milliseconds). */
  PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(60_000),
  /** How many prompt runs one organization may have in progress at once (per app process); over it a run is refused. */
  PROVIDER_MAX_CONCURRENT_RUNS: z.coerce.number().int().min(1).max(1_000).default(4),
  /** Evaluations: provider calls at once per connection, across every app process. */
  EVALUATION_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(20),
  /** Evaluations: how long a taken job may run before another process takes it over (its process died); default: twice PROVIDER_TIMEOUT_MS and 30 s, at least twice PROVIDER_TIMEOUT_MS. */
  EVALUATION_JOB_EXPIRY_SECONDS: z.coerce.number().int().min(1).max(86_400).optional(),
  /**
   * On SIGTERM/SIGINT, how long requests in flight may still run before they are cut (milliseconds).
   * Keep it below the orchestrator's grace period (Docker: stop_grace_period, Kubernetes: terminationGracePeriodSeconds).
   */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  /** Host names the app answers to besides APP_URL's, comma separated (e.g. an internal name). */
  ALLOWED_HOSTS: z
    .string()
    .default("")
    .transform((value) => value.split(",").map((item) => item.trim().toLowerCase()).filter(Boolean))
    .refine(
      (hosts) => hosts.every((host) => /^(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*)(:\d{1,5})?$/.test(host)),
      "must be host names separated by commas (e.g. promptly.internal, 10.0.0.5)",
    ),

  DATABASE_URL: url(["postgres:", "postgresql:"]).optional(),
  /**
   * Redis for the state several app processes share (rate limits). Optional: without it that state
   * lives in PostgreSQL, which every process shares already.
   */
  REDIS_URL: url(["redis:", "rediss:"]).optional(),
  /** Bearer token that unlocks Prometheus metrics at /metrics; without it /metrics does not exist. */
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  /** How much the server logs (on stdout). */
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** How log lines look: `pretty` (readable lines) or `json` (one JSON object a line); default: pretty on a terminal, JSON otherwise. */
  LOG_FORMAT: z.enum(["json", "pretty"], { error: "must be json or pretty" }).optional(),
  EMBEDDED_POSTGRES_PORT: port.default(54329),
  /** Folder of pg_dump, pg_restore and psql for `cli backup|restore`, when not in a usual place (they must match the server's major version). */
  PG_BIN_DIR: z.string().min(1).optional(),

  S3_ENDPOINT: url(["http:", "https:"]).optional(),
  S3_ACCESS_KEY: z.string().min(1).optional(),
  S3_SECRET_KEY: z.string().min(1).optional(),
  S3_REGION: z.string().min(1).default("us-east-1"),
  S3_BUCKET: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "must be a valid bucket name").default("user-avatars"),
  EMBEDDED_S3_PORT: port.default(4569),

  SMTP_HOST: z.string().min(1).optional(),
  SMTP_PORT: port.default(1025),
  SMTP_SECURE: bool.default(false),
  SMTP_USER: z.string().optional(),
  SMTP_PASSWORD: z.string().optional(),
  SMTP_FROM: z.string().min(3).default("Promptly <no-reply@promptly.local>"),
  MAILBOX_PORT: port.default(1080),
  /** How long a notification mail waits for more notifications of the same person, sent then as one digest. */
  NOTIFICATION_DIGEST_SECONDS: z.coerce.number().int().min(0).max(3600).default(120),
  /** Folder of the built web app (tests build it elsewhere). */
  WEB_DIST: z.string().min(1).optional(),
});

export type LogFormat = "json" | "pretty";
export type Env = z.infer<typeof schema> & { APP_URL: string; APP_SECRET: string; WEB_DIST: string; LOG_FORMAT: LogFormat };

export class ConfigError extends Error {}

/**
 * Validates the environment; throws ConfigError with one line per bad variable. `stdoutIsTerminal`
 * picks LOG_FORMAT's default: readable lines for a person, JSON for a log collector or a file.
 */
export function loadEnv(source: NodeJS.ProcessEnv = process.env, stdoutIsTerminal = process.stdout.isTTY === true): Env {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `Invalid configuration: ${String(issue.path[0])} ${issue.message}`);
    throw new ConfigError([...new Set(lines)].join("\n"));
  }
  const env = parsed.data;
  if (env.S3_ENDPOINT && (!env.S3_ACCESS_KEY || !env.S3_SECRET_KEY)) {
    throw new ConfigError("Invalid configuration: S3_ACCESS_KEY and S3_SECRET_KEY are required when S3_ENDPOINT is set");
  }
  if (env.SMTP_SECURE && !env.SMTP_HOST) {
    throw new ConfigError("Invalid configuration: SMTP_SECURE needs SMTP_HOST (the embedded mail catcher speaks plain SMTP)");
  }
  if (env.SMTP_USER && !env.SMTP_PASSWORD) throw new ConfigError("Invalid configuration: SMTP_PASSWORD is required when SMTP_USER is set");
  // A judge's answer may take twice the provider timeout: a job expiring sooner is failed and run again while it
  // still runs (the queue fails every job of a batch whose handler outlives their expiry), and its verdict is lost.
  const longestJudgeSeconds = Math.ceil(judgeAnswerLimitMs(env.PROVIDER_TIMEOUT_MS) / 1000);
  if (env.EVALUATION_JOB_EXPIRY_SECONDS !== undefined && env.EVALUATION_JOB_EXPIRY_SECONDS < longestJudgeSeconds) {
    throw new ConfigError(
      `Invalid configuration: EVALUATION_JOB_EXPIRY_SECONDS must be at least ${longestJudgeSeconds} (twice PROVIDER_TIMEOUT_MS, the longest a judge's answer may take), ` +
        "or a job would be run again while it still runs",
    );
  }
  assertDistinctPorts(env);
  return {
    ...env,
    APP_URL: (env.APP_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ""),
    APP_SECRET: env.APP_SECRET ?? persistedSecret(env.DATA_DIR),
    WEB_DIST: env.WEB_DIST ?? join(REPO_ROOT, "apps/web/dist"),
    LOG_FORMAT: env.LOG_FORMAT ?? (stdoutIsTerminal ? "pretty" : "json"),
  };
}

/**
 * FAST_PATHS alone, read where the app is made (createApp's defaults), so every app a process makes,
 * the tests' too, follows it: whether the fast paths answer the requests they can.
 */
export function fastPathsOn(source: NodeJS.ProcessEnv = process.env): boolean {
  const parsed = fastPaths.safeParse(source["FAST_PATHS"] || undefined);
  if (!parsed.success) throw new ConfigError(`Invalid configuration: FAST_PATHS ${parsed.error.issues[0]!.message}`);
  return parsed.data;
}

/** The ports this process opens must differ: two services on one port would leave one of them silent. */
function assertDistinctPorts(env: z.infer<typeof schema>) {
  const opened = openedPorts(env);
  for (const [index, { variable, port }] of opened.entries()) {
    const other = opened.slice(0, index).find((earlier) => earlier.port === port);
    if (other) throw new ConfigError(`Invalid configuration: ${other.variable} and ${variable} are both ${port}; each service needs its own port`);
  }
}

/** The ports this process opens itself: the app's, and those of the embedded services it starts. */
export function openedPorts(env: Pick<z.infer<typeof schema>, "PORT" | "HOST" | "DATABASE_URL" | "EMBEDDED_POSTGRES_PORT" | "S3_ENDPOINT" | "EMBEDDED_S3_PORT" | "SMTP_HOST" | "SMTP_PORT" | "MAILBOX_PORT">) {
  const local = (variable: string, port: number) => ({ variable, port, host: "127.0.0.1" });
  return [
    { variable: "PORT", port: env.PORT, host: env.HOST },
    ...(env.DATABASE_URL ? [] : [local("EMBEDDED_POSTGRES_PORT", env.EMBEDDED_POSTGRES_PORT)]),
    ...(env.S3_ENDPOINT ? [] : [local("EMBEDDED_S3_PORT", env.EMBEDDED_S3_PORT)]),
    ...(env.SMTP_HOST ? [] : [local("SMTP_PORT", env.SMTP_PORT), local("MAILBOX_PORT", env.MAILBOX_PORT)]),
  ];
}

/** Without APP_SECRET, a random secret is kept in DATA_DIR so encrypted data survives restarts. */
function persistedSecret(dataDir: string) {
  const file = join(dataDir, "app-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
