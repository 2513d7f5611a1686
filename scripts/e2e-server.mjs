// Starts the production build for the end-to-end suite with fresh embedded services
// (ports from apps/web/e2e/support/env.ts; E2E_PORT_OFFSET moves them).
import { spawn } from "node:child_process";
import { cpSync, createWriteStream, existsSync, mkdirSync, rmSync } from "node:fs";
import { createInterface } from "node:readline";

const offset = Number(process.env.E2E_PORT_OFFSET ?? 0);
const E2E = {
  port: 3100 + offset,
  mailboxPort: 3180 + offset,
  smtpPort: 3125 + offset,
  postgresPort: 54339 + offset,
  s3Port: 4579 + offset,
  dataDir: `/tmp/promptly-e2e-${offset}`,
};
rmSync(E2E.dataDir, { recursive: true, force: true });
mkdirSync(E2E.dataDir, { recursive: true });
// The server serves a copy of the web build taken now, not apps/web/dist itself: a build run meanwhile in
// the same checkout (another session's, a developer's) empties and refills that folder under new file
// names, and a page of this run then asked for a chunk that was gone (404) and failed mid-test.
const WEB_BUILD = "apps/web/dist";
const webDist = `${E2E.dataDir}/web`;
if (existsSync(WEB_BUILD)) cpSync(WEB_BUILD, webDist, { recursive: true });

// E2E_FROM_SOURCE=1 runs the server's TypeScript through tsx (no server build needed while developing).
const entry = process.env.E2E_FROM_SOURCE === "1" ? ["--import", "tsx", "apps/server/src/main.ts"] : ["apps/server/dist/main.mjs"];
const child = spawn(process.execPath, entry, {
  stdio: ["ignore", "pipe", "pipe"],
  env: {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(E2E.port),
    APP_URL: `http://localhost:${E2E.port}`,
    DATA_DIR: E2E.dataDir,
    ...(existsSync(webDist) ? { WEB_DIST: webDist } : {}),
    EMBEDDED_POSTGRES_PORT: String(E2E.postgresPort),
    EMBEDDED_S3_PORT: String(E2E.s3Port),
    SMTP_PORT: String(E2E.smtpPort),
    MAILBOX_PORT: String(E2E.mailboxPort),
    // Many sign-ins from one address in a few minutes: the rate limits have their own tests.
    RATE_LIMITS: "off",
    // Lets the failure tests ask for 500s (apps/server/src/test-faults.ts).
    TEST_FAULTS: "on",
    // Notification mails wait this long for more of the same person's (a digest); the suite has no minutes to spare.
    NOTIFICATION_DIGEST_SECONDS: "1",
    // The log-secrets check reads JSON lines, whatever LOG_FORMAT the shell that runs the suite sets.
    LOG_FORMAT: "json",
    // The providers spec points a connection at a fake provider it runs on the loopback address.
    ALLOW_PRIVATE_PROVIDER_URLS: "true",
    // The webhooks spec runs its receiver on the loopback address.
    ALLOW_PRIVATE_WEBHOOK_URLS: "true",
    DATABASE_URL: "",
    S3_ENDPOINT: "",
    SMTP_HOST: "",
  },
});
// Everything the server writes goes to server.log (the suite's teardown checks that no secret is in
// it); the terminal sees warnings, errors and anything that is not a JSON log line.
const log = createWriteStream(`${E2E.dataDir}/server.log`);
const WARN = 40;
for (const [from, to] of [[child.stdout, process.stdout], [child.stderr, process.stderr]]) {
  createInterface({ input: from, crlfDelay: Infinity }).on("line", (line) => {
    log.write(`${line}\n`);
    if (shown(line)) to.write(`${line}\n`);
  });
}
function shown(line) {
  try {
    const entry = JSON.parse(line);
    return entry.level >= WARN || /is ready/.test(entry.msg ?? "");
  } catch {
    return true;
  }
}
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => log.end(() => process.exit(code ?? 0)));
