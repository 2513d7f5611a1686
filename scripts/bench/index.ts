// The one benchmark harness: `npm run bench -- <name>` (scripts/bench/<name>.ts).
// Seeds a fresh database, starts the production server as a separate process, drives it with
// autocannon from this process and reports req/s, p50, p99 and the server's peak RSS (in each
// scenario and in the whole run), next to a plain Express + pg baseline (another process) running
// the same SQL, measured in the same run, in alternating rounds (BENCH_ROUNDS, default 5, each
// BENCH_DURATION / BENCH_ROUNDS long): a shared machine's load drifts over seconds, so each round of
// ours is compared with the baseline's round right after it and the ratio is the median of the
// rounds', not one 10 s run against another 10 s later. BENCH_DURATION (s, default 10) and BENCH_CONNECTIONS
// (default 50) tune the load; BENCH_ONLY=<text> runs only the scenarios whose name contains it; BENCH_PROFILE=<dir> writes a V8 CPU profile of the server (open it in
// Chrome DevTools) to that folder, and the baseline's to <dir>/baseline. BENCH_NODE_ARGS=<options> gives the server's node more options (e.g. --heapsnapshot-signal=SIGUSR2). The server runs as `npm start` runs it (apps/server/start.sh)
// against external services, as in production: the database, an S3 server and a mail catcher that
// this process starts, so the RSS reported is the app's alone. A benchmark with variants (e.g. data
// sizes) runs once per variant (BENCH_VARIANT=<text>: only those whose name contains it), each on a fresh database `<name>_<variant>` of the same PostgreSQL,
// and reports them in one table. A benchmark with `measure` instead of scenarios (e.g. `run`: streamed
// runs against calling the model provider directly) gets the running server and reports its own lines.
// A benchmark with `bare` also measures, in the same alternating rounds, a bare node:http server
// (bare-server.mjs) answering each scenario with the bytes our server answered it (status, headers and
// body, read once before the rounds) from memory: how far our server is from serving those bytes alone
// ("ratio to bare": req/s; "p99 to bare": our p99 over the bare server's, each the rounds' median).
import { execFileSync, fork, spawn, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { hash } from "@node-rs/argon2";
import pg from "pg";
import { migrate } from "@promptly/db/migrate";
import { startEmbeddedPostgres, startEmbeddedS3, startMailCatcher, type EmbeddedService } from "../../apps/server/src/embedded.ts";
import { freePort } from "../../test/free-port.ts";
import { cpuMs } from "./cpu.ts";
import { BENCH_PASSWORD, type Benchmark, type Scenario } from "./types.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
let DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));

interface Figures {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** The server process's CPU time (user + system) per answered request, in µs; 0 when not measured. */
  cpuUs: number;
}

async function load(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string; connections?: number; duration?: number; pid?: number },
): Promise<Figures> {
  const cpuBefore = init.pid ? cpuMs(init.pid) : 0;
  const result = await autocannon({
    url,
    method: (init.method ?? "GET") as "GET",
    headers: init.headers,
    body: init.body,
    connections: init.connections ?? CONNECTIONS,
    duration: init.duration ?? DURATION,
  });
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    cpuUs: init.pid ? ((cpuMs(init.pid) - cpuBefore) * 1000) / Math.max(1, result.requests.total) : 0,
  };
}


const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/**
 * Ours, the baseline and (when given) the bare server in alternating rounds of DURATION / ROUNDS
 * seconds: req/s is the mean over the rounds, p50 and p99 the rounds' medians, each ratio the median
 * of each round's ratio to the other side's round that followed it.
 */
async function compareInRounds(
  ours: (duration: number) => Promise<Figures>,
  baseline: (duration: number) => Promise<Figures>,
  bare?: (duration: number) => Promise<Figures>,
) {
  const duration = Math.max(1, Math.round(DURATION / ROUNDS));
  const rounds: [Figures, Figures, Figures | null][] = [];
  for (let round = 0; round < ROUNDS; round++) rounds.push([await ours(duration), await baseline(duration), bare ? await bare(duration) : null]);
  const summary = (side: 0 | 1 | 2): Figures => ({
    requestsPerSecond: rounds.reduce((sum, pair) => sum + pair[side]!.requestsPerSecond, 0) / rounds.length,
    p50: median(rounds.map((pair) => pair[side]!.p50)),
    p99: median(rounds.map((pair) => pair[side]!.p99)),
    errors: rounds.reduce((sum, pair) => sum + pair[side]!.errors, 0),
    non2xx: rounds.reduce((sum, pair) => sum + pair[side]!.non2xx, 0),
    cpuUs: median(rounds.map((pair) => pair[side]!.cpuUs)),
  });
  const ratio = median(rounds.map(([mine, base]) => mine.requestsPerSecond / Math.max(base.requestsPerSecond, 1)));
  if (!bare) return { ours: summary(0), base: summary(1), ratio, bare: null, bareRatio: 0, bareP99Ratio: 0 };
  const bareRatio = median(rounds.map(([mine, , plain]) => mine.requestsPerSecond / Math.max(plain!.requestsPerSecond, 1)));
  // p99 is whole milliseconds: a bare p99 of 0 counts as 1 ms.
  const bareP99Ratio = median(rounds.map(([mine, , plain]) => mine.p99 / Math.max(plain!.p99, 1)));
  return { ours: summary(0), base: summary(1), ratio, bare: summary(2), bareRatio, bareP99Ratio };
}

/** Headers node:http writes itself on every answer: the bare server's own are as current as ours. */
const PER_CONNECTION_HEADERS = new Set(["date", "connection", "keep-alive", "transfer-encoding"]);

/** Our answer to a request, as bytes: status, headers (in order, as sent) and body, for the bare server to repeat. */
function answerOf(url: string, init: { method?: string; headers?: Record<string, string>; body?: string }) {
  return new Promise<{ status: number; headers: [string, string][]; body: string }>((resolve, reject) => {
    const req = httpRequest(url, { method: init.method ?? "GET", headers: init.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const headers: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          if (!PER_CONNECTION_HEADERS.has(res.rawHeaders[i]!.toLowerCase())) headers.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
        }
        resolve({ status: res.statusCode!, headers, body: Buffer.concat(chunks).toString("base64") });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(init.body);
  });
}

/** VmHWM: the process's peak resident memory so far; VmRSS: its resident memory now. */
function memoryMb(pid: number, field: "VmHWM" | "VmRSS"): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/** The highest RSS of `pid` while `work` runs, sampled every 50 ms (a scenario's own peak, not the run's). */
async function withPeakRss<T>(pid: number, work: () => Promise<T>): Promise<[T, number]> {
  let peak = memoryMb(pid, "VmRSS");
  const sampler = setInterval(() => (peak = Math.max(peak, memoryMb(pid, "VmRSS"))), 50);
  try {
    return [await work(), peak];
  } finally {
    clearInterval(sampler);
  }
}

/** When (performance.now()) the child's stdout first holds `text`; its output is discarded from then on. */
function printed(child: ChildProcess, text: string, timeoutMs = 60_000): Promise<number> {
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => done(new Error(`the server did not print ${JSON.stringify(text)} within ${timeoutMs} ms`)), timeoutMs);
    const done = (error?: Error) => {
      clearTimeout(timer);
      child.stdout!.removeListener("data", onData);
      child.removeListener("exit", onExit);
      child.stdout!.resume();
      if (error) reject(error);
      else resolve(performance.now());
    };
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (output.includes(text)) done();
      else output = output.slice(-text.length);
    };
    const onExit = () => done(new Error(`the server exited before it printed ${JSON.stringify(text)}`));
    child.stdout!.on("data", onData);
    child.once("exit", onExit);
  });
}

async function waitFor(url: string, timeoutMs = 60_000, intervalMs = 200) {
  const deadline = Date.now() + timeoutMs;
  let last = "no answer";
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
      last = `${response.status} ${await response.text()}`;
    } catch (error) {
      last = String((error as Error).cause ?? error);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms (last: ${last})`);
}

function requestFor(base: string, scenario: Scenario) {
  if (scenario.path) return { url: `${base}${scenario.path}` };
  const input = scenario.input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify({ json: scenario.input }))}`;
  if (scenario.type === "mutation") {
    return {
      url: `${base}/trpc/${scenario.procedure}`,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ json: scenario.input }),
    };
  }
  return { url: `${base}/trpc/${scenario.procedure}${input}` };
}

async function signIn(base: string, email: string): Promise<string> {
  const response = await fetch(`${base}/trpc/auth.signIn`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ json: { email, password: BENCH_PASSWORD } }),
  });
  if (!response.ok) throw new Error(`sign-in as ${email} failed: ${await response.text()}`);
  const cookie = response.headers.getSetCookie().map((c) => c.split(";")[0]).find((c) => c && !c.endsWith("="));
  if (!cookie) throw new Error(`sign-in as ${email} set no session cookie`);
  return cookie;
}

const fmt = (n: number, digits = 1) => n.toFixed(digits);

/** A fresh, empty database `name` on the server of `url` (dropped first if a previous run left it). */
async function freshDatabase(url: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  const fresh = new URL(url);
  fresh.pathname = `/${name}`;
  return fresh.toString();
}

/** SIGTERM, then wait until the process has gone (so the next variant's server finds its ports and folder free). */
async function stop(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
}

/** The S3 server and mail catcher the measured app uses as its external services (run in this process). */
interface ExternalServices {
  s3: { endpoint: string; accessKey: string; secretKey: string };
  smtp: { host: string; port: number };
}

async function startExternalServices(dataDir: string, running: EmbeddedService[]): Promise<ExternalServices> {
  const folder = join(dataDir, "external");
  const s3 = await startEmbeddedS3({ dataDir: folder, port: await freePort() });
  running.push(s3.service);
  const mail = await startMailCatcher({ dataDir: folder, smtpPort: await freePort(), webPort: await freePort() });
  running.push(mail.service);
  return { s3: s3.config, smtp: mail.smtp };
}

/** Seeds `databaseUrl`, starts the server and the baseline on it, measures every scenario; the table's rows. */
async function measure(
  benchmark: Benchmark, databaseUrl: string, dataDir: string, variant: string | undefined, children: ChildProcess[], external: ExternalServices,
) {
  const label = variant ? ` (${variant})` : "";
  await migrate(databaseUrl);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  // The database stops before idle clients notice at shutdown (57P01): not an error of the run.
  pool.on("error", () => undefined);
  const passwordHash = await hash(BENCH_PASSWORD);
  const started = Date.now();
  await benchmark.seed?.({
    db: pool,
    variant,
    log: (line) => console.log(`  ${line}`),
    async createAccount(email, options = {}) {
      const { rows } = await pool.query<{ id: string }>(
        `INSERT INTO users (email, password_hash, email_verified_at, updated_at) VALUES ($1, $2, now(), now()) RETURNING id`,
        [email, passwordHash],
      );
      const id = rows[0]!.id;
      await pool.query(`INSERT INTO profiles (user_id, full_name, super_user, updated_at) VALUES ($1, $2, $3, now())`, [
        id,
        options.fullName ?? email.split("@")[0],
        options.superUser ?? false,
      ]);
      await pool.query(`INSERT INTO user_roles (user_id, role) VALUES ($1, $2)`, [id, options.role ?? "user"]);
      return id;
    },
  });
  if (benchmark.seed) console.log(`Seeded${label} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  await pool.query("VACUUM ANALYZE");

  const appPort = await freePort();
  const appDataDir = variant ? join(dataDir, `app-${variant}`) : dataDir;
  mkdirSync(appDataDir, { recursive: true });
  // The server as `npm start` runs it (its memory settings included).
  // BENCH_NODE_ARGS: more options for the server's node (e.g. --heapsnapshot-signal=SIGUSR2), split at spaces.
  const profile = [
    ...(process.env.BENCH_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []),
    ...(process.env.BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? []),
  ];
  const startApp = (readStdout = false) => spawn(join(ROOT, "apps/server/start.sh"), profile, {
    cwd: ROOT,
    stdio: ["ignore", readStdout ? "pipe" : "ignore", "inherit"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(appPort),
      DATABASE_URL: databaseUrl,
      DATA_DIR: appDataDir,
      S3_ENDPOINT: external.s3.endpoint,
      S3_ACCESS_KEY: external.s3.accessKey,
      S3_SECRET_KEY: external.s3.secretKey,
      SMTP_HOST: external.smtp.host,
      SMTP_PORT: String(external.smtp.port),
      RATE_LIMITS: "off",
      APP_URL: `http://127.0.0.1:${appPort}`,
      ...benchmark.serverEnv?.(variant),
    },
  });
  let app = startApp();
  children.push(app);
  const appBase = `http://127.0.0.1:${appPort}`;
  await waitFor(`${appBase}/api/health`);

  if (benchmark.measure) {
    const notes = await benchmark.measure({
      base: appBase,
      db: pool,
      signIn: (email) => signIn(appBase, email),
      async restart(until) {
        await stop(app);
        const started = performance.now();
        app = startApp(until !== undefined);
        children.push(app);
        const seen = until === undefined ? undefined : printed(app, until);
        seen?.catch(() => undefined);
        // Asked often, so what follows comes as soon as the server answers.
        await waitFor(`${appBase}/api/health`, 60_000, 10);
        const answered = performance.now();
        const at = await seen;
        return { healthMs: answered - started, ...(at !== undefined ? { printedMs: at - started } : {}) };
      },
      peakRss: (work) => withPeakRss(app.pid!, work),
      cpuMs: () => cpuMs(app.pid!),
    });
    const rss = memoryMb(app.pid!, "VmHWM");
    await pool.end();
    await stop(app);
    return { rows: [], rss, notes };
  }

  const only = process.env.BENCH_ONLY;
  const scenarios = (await benchmark.scenarios?.({ db: pool, variant }) ?? []).filter((scenario) => !only || scenario.name.includes(only));
  const baselinePort = await freePort();
  const baseline = fork(join(ROOT, "scripts/bench/baseline-server.mjs"), {
    // BENCH_PROFILE: the baseline's profile too (in <dir>/baseline), to compare a cost with its counterpart there.
    execArgv: process.env.BENCH_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${join(process.env.BENCH_PROFILE, "baseline")}`] : [],
    env: { ...process.env, PORT: String(baselinePort), DATABASE_URL: databaseUrl, BENCH_SCENARIOS: JSON.stringify(scenarios) },
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  children.push(baseline);
  await new Promise<void>((resolve) => baseline.once("message", () => resolve()));
  let bare: ChildProcess | null = null;
  const barePort = await freePort();
  const headersOf = async (scenario: Scenario, request: ReturnType<typeof requestFor>) => {
    const headers: Record<string, string> = { ...("headers" in request ? request.headers : {}), ...scenario.headers };
    if (scenario.as) headers.cookie = await signIn(appBase, scenario.as);
    if (scenario.gzip) headers["accept-encoding"] = "gzip";
    return headers;
  };
  if (benchmark.bare) {
    const answers = [];
    for (const scenario of scenarios) {
      const request = requestFor(appBase, scenario);
      answers.push(await answerOf(request.url, { ...request, headers: await headersOf(scenario, request) }));
    }
    bare = fork(join(ROOT, "scripts/bench/bare-server.mjs"), {
      env: { ...process.env, PORT: String(barePort), BENCH_ANSWERS: JSON.stringify(answers) },
      stdio: ["ignore", "ignore", "inherit", "ipc"],
    });
    children.push(bare);
    await new Promise<void>((resolve) => bare!.once("message", () => resolve()));
  }

  const rows: string[][] = [];
  for (const [index, scenario] of scenarios.entries()) {
    const request = requestFor(appBase, scenario);
    const headers = await headersOf(scenario, request);
    const connections = scenario.connections;
    const baselineUrl = `http://127.0.0.1:${baselinePort}/s/${index}`;
    const bareUrl = `http://127.0.0.1:${barePort}/s/${index}`;
    if (benchmark.warmup) {
      await load(request.url, { ...request, headers, connections, duration: benchmark.warmup });
      await load(baselineUrl, { connections, duration: benchmark.warmup });
      if (bare) await load(bareUrl, { connections, duration: benchmark.warmup });
    }
    let rss = 0;
    const { ours, base, ratio, bare: plain, bareRatio, bareP99Ratio } = await compareInRounds(
      async (duration) => {
        const [figures, peak] = await withPeakRss(app.pid!, () => load(request.url, { ...request, headers, connections, duration, pid: app.pid }));
        rss = Math.max(rss, peak);
        return figures;
      },
      (duration) => load(baselineUrl, { connections, duration, pid: baseline.pid }),
      bare ? (duration) => load(bareUrl, { connections, duration, pid: bare!.pid }) : undefined,
    );
    rows.push([
      scenario.name,
      ...(variant ? [variant] : []),
      String(connections ?? CONNECTIONS),
      fmt(ours.requestsPerSecond, 0),
      fmt(ours.p50),
      fmt(ours.p99),
      fmt(base.requestsPerSecond, 0),
      fmt(base.p50),
      fmt(base.p99),
      fmt(ratio, 2),
      ...(plain ? [fmt(plain.requestsPerSecond, 0), fmt(plain.p50), fmt(plain.p99), fmt(bareRatio, 2), fmt(bareP99Ratio, 2)] : []),
      fmt(ours.cpuUs, 0),
      fmt(base.cpuUs, 0),
      ...(plain ? [fmt(plain.cpuUs, 0)] : []),
      String(rss),
      String(ours.errors + ours.non2xx),
    ]);
  }
  const notes = (await benchmark.after?.({ base: appBase, db: pool })) ?? [];
  const rss = memoryMb(app.pid!, "VmHWM");
  await pool.end();
  await Promise.all([stop(app), stop(baseline), ...(bare ? [stop(bare)] : [])]);
  return { rows, rss, notes };
}

async function main() {
  const name = process.argv[2];
  const file = name && join(ROOT, "scripts/bench", `${name}.ts`);
  if (!name || !existsSync(file!) || ["index", "types", "fake-provider-server", "sdk-client"].includes(name)) {
    console.error("usage: npm run bench -- <name>   (a file scripts/bench/<name>.ts, e.g. health, bundle)");
    process.exit(2);
  }
  const module = (await import(file!)) as { benchmark?: Benchmark; run?: () => Promise<void> };
  if (module.run) return module.run(); // benchmarks that need no server (e.g. bundle)
  const benchmark = module.benchmark!;
  if (process.env.BENCH_DURATION === undefined && benchmark.duration) DURATION = benchmark.duration;
  const runStarted = Date.now();
  console.log(`Benchmark ${name}: ${benchmark.description}`);
  console.log("Building the production server and web app…");
  execFileSync("npx", ["turbo", "run", "build", "--output-logs=errors-only"], { cwd: ROOT, stdio: "inherit" });

  const dataDir = mkdtempSync(join(tmpdir(), "promptly-bench-"));
  chmodSync(dataDir, 0o755);
  const children: ChildProcess[] = [];
  const services: EmbeddedService[] = [];
  let stopDatabase = async () => {};
  try {
    const external = await startExternalServices(dataDir, services);
    let databaseUrl = process.env.BENCH_DATABASE_URL;
    if (!databaseUrl) {
      const database = await startEmbeddedPostgres({ dataDir, port: await freePort(), database: "bench", durable: false });
      databaseUrl = database.url;
      stopDatabase = database.service.stop;
    }
    const rows: string[][] = [];
    const rss: string[] = [];
    const notes: string[] = [];
    const onlyVariant = process.env.BENCH_VARIANT;
    for (const variant of (benchmark.variants ?? [undefined]).filter((v) => !onlyVariant || v === undefined || v.includes(onlyVariant))) {
      const url = variant ? await freshDatabase(databaseUrl, `${new URL(databaseUrl).pathname.slice(1)}_${variant}`) : databaseUrl;
      const measured = await measure(benchmark, url, dataDir, variant, children, external);
      rows.push(...measured.rows);
      notes.push(...measured.notes);
      rss.push(variant ? `${measured.rss} MB (${variant})` : `${measured.rss} MB`);
    }
    if (benchmark.measure) {
      // It measured in its own way: its lines are the report.
      console.log(`\nServer peak RSS over the whole run: ${rss.join(", ")}`);
      if (notes.length) console.log(`\n${notes.join("\n")}`);
      console.log(`\nWhole run: ${((Date.now() - runStarted) / 1000).toFixed(0)} s`);
      return;
    }
    const header = [
      "scenario", ...(benchmark.variants ? ["variant"] : []), "conns",
      "req/s", "p50 ms", "p99 ms", "baseline req/s", "baseline p50", "baseline p99", "ratio",
      ...(benchmark.bare ? ["bare req/s", "bare p50", "bare p99", "ratio to bare", "p99 to bare"] : []),
      "CPU µs/req", "baseline CPU µs/req", ...(benchmark.bare ? ["bare CPU µs/req"] : []), "RSS MB", "errors",
    ];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
    console.log(
      `\n${DURATION} s per scenario in ${ROUNDS} rounds alternating with the baseline${benchmark.bare ? " and the bare server" : ""}, ${CONNECTIONS} connections unless the row says;` +
        ` ratio: the rounds' median; server peak RSS ${rss.join(", ")}\n`,
    );
    console.log(line(header));
    for (const row of rows) console.log(line(row));
    if (notes.length) console.log(`\n${notes.join("\n")}`);
    console.log(`\nWhole run: ${((Date.now() - runStarted) / 1000).toFixed(0)} s`);
  } finally {
    await Promise.all(children.map(stop));
    for (const service of services.reverse()) await service.stop().catch(() => undefined);
    await stopDatabase();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
