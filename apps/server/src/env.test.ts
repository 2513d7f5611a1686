import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError, fastPathsOn, loadEnv } from "./env.ts";

// loadEnv keeps a generated APP_SECRET in DATA_DIR: a folder of this file's own, removed afterwards.
const dataDir = mkdtempSync(join(tmpdir(), "promptly-env-test-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("loadEnv", () => {
  it("needs no configuration: embedded services and port 3000", () => {
    const env = loadEnv({ DATA_DIR: dataDir });
    expect(env.PORT).toBe(3000);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.APP_URL).toBe("http://localhost:3000");
    expect(env.APP_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(env.SHUTDOWN_TIMEOUT_MS).toBe(10_000);
    expect(env.ALLOW_PRIVATE_PROVIDER_URLS).toBe(false);
    expect(env.PROVIDER_TIMEOUT_MS).toBe(60_000);
    expect(env.PROVIDER_MAX_CONCURRENT_RUNS).toBe(4);
    expect(env.RUNTIME_CACHE_MAX_MB).toBe(64);
  });

  it("takes a job expiry of twice the provider timeout, the least a judge's answer needs", () => {
    expect(loadEnv({ DATA_DIR: dataDir, EVALUATION_JOB_EXPIRY_SECONDS: "120" }).EVALUATION_JOB_EXPIRY_SECONDS).toBe(120);
  });

  it.each([
    [{ DATABASE_URL: "nonsense" }, "Invalid configuration: DATABASE_URL must be a URL starting with postgres:// or postgresql://"],
    [{ PORT: "http" }, "Invalid configuration: PORT"],
    [{ PORT: "70000" }, "Invalid configuration: PORT"],
    [{ S3_ENDPOINT: "localhost:9000" }, "Invalid configuration: S3_ENDPOINT must be a URL"],
    [{ S3_ENDPOINT: "http://localhost:9000" }, "S3_ACCESS_KEY and S3_SECRET_KEY are required"],
    [{ SMTP_SECURE: "maybe" }, "Invalid configuration: SMTP_SECURE"],
    [{ APP_SECRET: "short" }, "Invalid configuration: APP_SECRET must be at least 32 characters"],
    [{ MAILBOX_PORT: "1025" }, "Invalid configuration: SMTP_PORT and MAILBOX_PORT are both 1025; each service needs its own port"],
    [{ PORT: "4569" }, "Invalid configuration: PORT and EMBEDDED_S3_PORT are both 4569"],
    [{ SMTP_SECURE: "true" }, "Invalid configuration: SMTP_SECURE needs SMTP_HOST"],
    [{ SMTP_HOST: "mail.example.test", SMTP_USER: "promptly" }, "Invalid configuration: SMTP_PASSWORD is required when SMTP_USER is set"],
    [{ TRUST_PROXY: "maybe?" }, "Invalid configuration: TRUST_PROXY must be false, true, a number of proxies"],
    [{ TRUST_PROXY: "yes" }, "Invalid configuration: TRUST_PROXY must be false, true, a number of proxies"],
    [{ TRUST_PROXY: "true, 10.0.0.1" }, "Invalid configuration: TRUST_PROXY must be false, true, a number of proxies"],
    [{ TRUST_PROXY: "10.0.0.0/33" }, "Invalid configuration: TRUST_PROXY must be false, true, a number of proxies"],
    [{ SHUTDOWN_TIMEOUT_MS: "soon" }, "Invalid configuration: SHUTDOWN_TIMEOUT_MS"],
    [{ SHUTDOWN_TIMEOUT_MS: "-1" }, "Invalid configuration: SHUTDOWN_TIMEOUT_MS"],
    [{ LOG_FORMAT: "text" }, "Invalid configuration: LOG_FORMAT must be json or pretty"],
    [{ ALLOW_PRIVATE_PROVIDER_URLS: "sometimes" }, "Invalid configuration: ALLOW_PRIVATE_PROVIDER_URLS"],
    [{ PROVIDER_TIMEOUT_MS: "10" }, "Invalid configuration: PROVIDER_TIMEOUT_MS"],
    [{ PROVIDER_MAX_CONCURRENT_RUNS: "0" }, "Invalid configuration: PROVIDER_MAX_CONCURRENT_RUNS"],
    [{ RUNTIME_CACHE_MAX_MB: "0" }, "Invalid configuration: RUNTIME_CACHE_MAX_MB"],
    [{ EVALUATION_JOB_EXPIRY_SECONDS: "119" }, "Invalid configuration: EVALUATION_JOB_EXPIRY_SECONDS must be at least 120 (twice PROVIDER_TIMEOUT_MS"],
    [{ PROVIDER_TIMEOUT_MS: "90500", EVALUATION_JOB_EXPIRY_SECONDS: "180" }, "Invalid configuration: EVALUATION_JOB_EXPIRY_SECONDS must be at least 181"],
    [{ FAST_PATHS: "fast" }, "Invalid configuration: FAST_PATHS must be on or off (off answers every request through the full stack)"],
  ])("refuses %o with a message naming the variable", (vars, message) => {
    expect(() => loadEnv({ DATA_DIR: dataDir, ...vars })).toThrow(ConfigError);
    expect(() => loadEnv({ DATA_DIR: dataDir, ...vars })).toThrow(message);
  });

  it("FAST_PATHS: on unless set off, read alone by createApp's defaults with start-up's message", () => {
    expect(loadEnv({ DATA_DIR: dataDir }).FAST_PATHS).toBe(true);
    expect(loadEnv({ DATA_DIR: dataDir, FAST_PATHS: "off" }).FAST_PATHS).toBe(false);
    expect([fastPathsOn({}), fastPathsOn({ FAST_PATHS: "" }), fastPathsOn({ FAST_PATHS: "on" }), fastPathsOn({ FAST_PATHS: "true" })]).toEqual([true, true, true, true]);
    expect([fastPathsOn({ FAST_PATHS: "off" }), fastPathsOn({ FAST_PATHS: "false" }), fastPathsOn({ FAST_PATHS: "0" })]).toEqual([false, false, false]);
    expect(() => fastPathsOn({ FAST_PATHS: "Off!" })).toThrow(ConfigError);
    expect(() => fastPathsOn({ FAST_PATHS: "Off!" })).toThrow("Invalid configuration: FAST_PATHS must be on or off (off answers every request through the full stack)");
  });

  it("lets an external service's port equal an embedded one's: only the ports this process opens must differ", () => {
    expect(loadEnv({ DATA_DIR: dataDir, SMTP_HOST: "mail.example.test", MAILBOX_PORT: "1025" }).SMTP_PORT).toBe(1025);
    expect(loadEnv({ DATA_DIR: dataDir, DATABASE_URL: "postgres://db/promptly", EMBEDDED_POSTGRES_PORT: "3000" }).PORT).toBe(3000);
  });

  it.each([
    ["false", false],
    ["true", 1], // one proxy in front: never the client-written left end of X-Forwarded-For
    ["2", 2],
    ["10.0.0.1, loopback", "10.0.0.1, loopback"],
    ["10.0.0.0/8,::1, fd00::/8", "10.0.0.0/8,::1, fd00::/8"],
  ] as const)("reads TRUST_PROXY=%s as %o", (value, expected) => {
    expect(loadEnv({ DATA_DIR: dataDir, TRUST_PROXY: value }).TRUST_PROXY).toBe(expected);
  });

  describe("REDIS_URL", () => {
    it("is optional: without it rate limits are counted in PostgreSQL", () => {
      expect(loadEnv({ DATA_DIR: dataDir }).REDIS_URL).toBeUndefined();
      expect(loadEnv({ DATA_DIR: dataDir, REDIS_URL: "" }).REDIS_URL).toBeUndefined();
    });

    it.each(["redis://127.0.0.1:6379", "redis://:secret@cache.internal:6380/2", "rediss://default:secret@cache.example.test:6380"])(
      "accepts %s",
      (value) => {
        expect(loadEnv({ DATA_DIR: dataDir, REDIS_URL: value }).REDIS_URL).toBe(value);
      },
    );

    it.each(["127.0.0.1:6379", "localhost", "http://127.0.0.1:6379", "postgres://127.0.0.1/promptly", "redis//127.0.0.1"])(
      "refuses %s, naming the variable",
      (value) => {
        expect(() => loadEnv({ DATA_DIR: dataDir, REDIS_URL: value })).toThrow(ConfigError);
        expect(() => loadEnv({ DATA_DIR: dataDir, REDIS_URL: value })).toThrow(
          "Invalid configuration: REDIS_URL must be a URL starting with redis:// or rediss://",
        );
      },
    );
  });

  it("logs readable lines on a terminal and JSON elsewhere, unless LOG_FORMAT says which", () => {
    expect(loadEnv({ DATA_DIR: dataDir }, true).LOG_FORMAT).toBe("pretty");
    expect(loadEnv({ DATA_DIR: dataDir }, false).LOG_FORMAT).toBe("json");
    expect(loadEnv({ DATA_DIR: dataDir, LOG_FORMAT: "json" }, true).LOG_FORMAT).toBe("json");
    expect(loadEnv({ DATA_DIR: dataDir, LOG_FORMAT: "pretty" }, false).LOG_FORMAT).toBe("pretty");
  });

  it("treats empty variables as unset", () => {
    expect(loadEnv({ DATA_DIR: dataDir, DATABASE_URL: "" }).DATABASE_URL).toBeUndefined();
  });
});
