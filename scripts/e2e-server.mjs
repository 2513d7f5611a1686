// Starts the production build for the end-to-end suite with fresh embedded services.
import { spawn } from "node:child_process";
import { rmSync, mkdirSync } from "node:fs";

const E2E = { port: 3100, mailboxPort: 3180, smtpPort: 3125, postgresPort: 54339, s3Port: 4579, dataDir: "/tmp/promptly-e2e" };
rmSync(E2E.dataDir, { recursive: true, force: true });
mkdirSync(E2E.dataDir, { recursive: true });

const child = spawn(process.execPath, ["apps/server/dist/main.mjs"], {
  stdio: "inherit",
  env: {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(E2E.port),
    APP_URL: `http://localhost:${E2E.port}`,
    DATA_DIR: E2E.dataDir,
    EMBEDDED_POSTGRES_PORT: String(E2E.postgresPort),
    EMBEDDED_S3_PORT: String(E2E.s3Port),
    SMTP_PORT: String(E2E.smtpPort),
    MAILBOX_PORT: String(E2E.mailboxPort),
    // Many sign-ins from one address in a few minutes: the rate limits have their own tests.
    RATE_LIMITS: "off",
    DATABASE_URL: "",
    S3_ENDPOINT: "",
    SMTP_HOST: "",
  },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
