// Mail waiting in the queue outlives the process that queued it. A server with its SMTP server down
// tries a message and keeps it for a retry; the process is killed (no shutdown); the next server, with
// SMTP up, sends it, and a message that waited in the outbox without a job (mail of a version before
// the queue, at an upgrade) too: each exactly once.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createMailbox, enqueueMail } from "@promptly/api/testing";
import { createTestDatabase, type TestDatabase } from "@promptly/db/testing";
import { freePort } from "../../../test/free-port.ts";
import { startMailCatcher, type EmbeddedService } from "./embedded.ts";
import { sharedServicesEnv, startServerProcess, type ServerProcess } from "../test/server-process.ts";

let database: TestDatabase;
let dataDir: string;
const servers: ServerProcess[] = [];
let catcher: EmbeddedService | null = null;
beforeAll(async () => {
  database = await createTestDatabase(inject("databaseServerUrl"));
  dataDir = mkdtempSync(join(tmpdir(), "promptly-outbox-restart-"));
});
afterAll(async () => {
  for (const server of servers) await server.dispose();
  await catcher?.stop();
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("mail waiting when a process is killed", () => {
  it("is sent exactly once by the next process", async () => {
    const [smtpPort, webPort] = [await freePort(), await freePort()];
    const env = { ...sharedServicesEnv(database.url), SMTP_HOST: "127.0.0.1", SMTP_PORT: String(smtpPort), LOG_FORMAT: "json" };
    const stamp = Date.now();
    const [upgraded, queued] = [`upgraded-${stamp}@example.test`, `queued-${stamp}@example.test`];
    const db = database.db;
    // Waiting in the outbox with no job: as mail queued before the queue existed.
    await db.outboxMessage.create({ data: { kind: "already_registered", recipient: upgraded, nextAttemptAt: new Date(), createdAt: new Date() } });

    const attempts = () => db.outboxMessage.findMany({ where: { recipient: { in: [upgraded, queued] } }, select: { recipient: true, status: true, attempts: true } });
    const states = async () => (await attempts()).map((row) => `${row.status}:${row.attempts}`).sort();

    const first = await startServerProcess(env);
    servers.push(first);
    // The waiting message is given a job at the start and tried, the SMTP server refusing: kept for a retry.
    await expect.poll(states, { timeout: 60_000, interval: 200 }).toEqual(["pending:1"]);
    // Queued while the first process runs (its queue exists now), as a request would queue it: tried too.
    await enqueueMail(db, { kind: "already_registered", to: queued, payload: {} }, new Date());
    await expect.poll(states, { timeout: 60_000, interval: 200 }).toEqual(["pending:1", "pending:1"]);
    // Killed once its attempts have ended: a job still running when its process dies waits for its lease to
    // expire (minutes), which is the lease's own test, not this one's.
    const activeJobs = async () => (await db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'mail' AND state = 'active'`)[0]!.n;
    await expect.poll(activeJobs, { timeout: 60_000, interval: 100 }).toBe(0);
    first.child.kill("SIGKILL");
    await first.exited;

    catcher = (await startMailCatcher({ dataDir, smtpPort, webPort })).service;
    const mailbox = createMailbox(`http://127.0.0.1:${webPort}`);
    servers.push(await startServerProcess(env));
    await expect.poll(states, { timeout: 60_000, interval: 200 }).toEqual(["sent:2", "sent:2"]);
    for (const recipient of [upgraded, queued]) {
      await mailbox.waitFor(recipient);
      expect((await mailbox.list(recipient)).map((mail) => mail.subject)).toEqual(["You already have a Promptly account"]);
    }
  }, 240_000);
});
