// Starts the real services every integration test talks to, once per run: an embedded PostgreSQL
// (or TEST_DATABASE_URL's server), an S3 server and an SMTP catcher; then a migrated template database.
import { mkdtempSync, rmSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { prepareTemplateDatabase } from "@promptly/db/testing";
import { startEmbeddedPostgres, startEmbeddedS3, startMailCatcher, type EmbeddedService } from "../apps/server/src/embedded.ts";
import { freePort } from "./free-port.ts";

export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(join(tmpdir(), "promptly-test-"));
  chmodSync(dataDir, 0o755);
  const services: EmbeddedService[] = [];
  let databaseServerUrl = process.env.TEST_DATABASE_URL;
  if (!databaseServerUrl) {
    const pg = await startEmbeddedPostgres({ dataDir, port: await freePort(), durable: false });
    services.push(pg.service);
    databaseServerUrl = pg.serverUrl;
  }
  const [s3, mail] = await Promise.all([
    startEmbeddedS3({ dataDir, port: await freePort() }),
    startMailCatcher({ dataDir, smtpPort: await freePort(), webPort: await freePort() }),
  ]);
  services.push(s3.service, mail.service);
  await prepareTemplateDatabase(databaseServerUrl);

  project.provide("databaseServerUrl", databaseServerUrl);
  project.provide("s3", s3.config);
  project.provide("smtp", mail.smtp);
  project.provide("mailboxUrl", mail.webUrl.replace("localhost", "127.0.0.1"));

  return async () => {
    for (const service of services.reverse()) await service.stop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  };
}
