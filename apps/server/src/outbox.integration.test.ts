// Mail is never lost. With the SMTP server down, a password reset and an invitation are queued and
// answered; once it is up, each arrives exactly once. Two app processes draining one outbox send each
// message, notifications included, once.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  createHarness, createMailbox, createSmtpMailer, createAccount, drainOutbox, enqueueMail, type Harness,
} from "@promptly/api/testing";
import { createDb } from "@promptly/db";
import { freePort } from "../../../test/free-port.ts";
import { startMailCatcher, type EmbeddedService } from "./embedded.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

let h: Harness;
let smtpPort: number;
let webPort: number;
let dataDir: string;
let catcher: EmbeddedService | null = null;

beforeAll(async () => {
  h = await createHarness();
  [smtpPort, webPort] = [await freePort(), await freePort()];
  dataDir = mkdtempSync(join(tmpdir(), "promptly-outbox-"));
  // Every mail of this file goes to an SMTP server of its own, which the tests stop and start.
  h.services.mailer = createSmtpMailer({ host: "127.0.0.1", port: smtpPort, secure: false, allowSelfSigned: true, from: "Promptly <no-reply@promptly.test>" });
});
afterEach(async () => {
  await catcher?.stop();
  catcher = null;
});
afterAll(async () => {
  await h.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function startSmtp() {
  const started = await startMailCatcher({ dataDir, smtpPort, webPort });
  catcher = started.service;
  return createMailbox(`http://127.0.0.1:${webPort}`);
}

const outboxOf = (recipient: string) =>
  h.database.db.outboxMessage.findMany({ where: { recipient }, select: { kind: true, status: true, attempts: true, lastError: true } });

describe("the outbox", () => {
  it("SMTP down: a reset and an invitation are queued and answered; SMTP up: each arrives exactly once", async () => {
    const db = h.database.db;
    const admin = await createAccount(h, { superUser: true, fullName: "Ada Admin" });
    const person = await createAccount(h);
    const organization = await db.organization.create({ data: { name: "Acme", members: { create: [{ userId: admin.id, role: "admin" }] } } });
    const team = await db.team.create({ data: { name: "Core", organizationId: organization.id, members: { create: [{ userId: admin.id, role: "admin" }] } } });
    const invitee = `invitee-${Date.now()}@example.test`;

    await expect(h.client().api.auth.requestPasswordReset({ email: person.email })).resolves.toEqual({ ok: true });
    const adminApi = (await h.signedInClient(admin.id)).api;
    await expect(adminApi.invites.create({ teamId: team.id, email: invitee, role: "viewer" })).resolves.toMatchObject({ status: "invited" });

    await h.mail.settled();
    for (const recipient of [person.email, invitee]) {
      expect(await outboxOf(recipient)).toEqual([expect.objectContaining({ status: "pending", attempts: 1, lastError: expect.stringMatching(/ECONNREFUSED/) })]);
    }
    const health = await h.client().api.health.check();
    expect(health.outbox).toMatchObject({ depth: 2, failed: 0 });
    h.clock.advance(5_000);
    await h.mail.settled(); // not due yet: nothing is tried before its delay
    expect((await outboxOf(person.email))[0]?.attempts).toBe(1);

    const mailbox = await startSmtp();
    h.clock.advance(60_000);
    await h.mail.settled();
    // A later drain (another poll, another process) sends nothing again.
    h.clock.advance(24 * 60 * 60_000);
    await h.mail.settled();
    expect((await mailbox.list(person.email)).map((m) => m.subject)).toEqual(["Reset your Promptly password"]);
    expect((await mailbox.list(invitee)).map((m) => m.subject)).toEqual(["You're invited to join Core on Promptly"]);
    expect(await outboxOf(person.email)).toEqual([expect.objectContaining({ status: "sent", attempts: 2, lastError: null })]);
    expect((await h.client().api.health.check()).outbox).toEqual({ depth: 0, oldestAgeSeconds: 0, failed: 0 });
  });

  it("gives up after the last retry and keeps the message with its last error", async () => {
    const email = `never-${Date.now()}@example.test`;
    await enqueueMail(h.database.db, { kind: "already_registered", to: email, payload: {} }, h.clock.now());
    for (let attempt = 0; attempt < 12; attempt++) {
      await h.mail.settled();
      h.clock.advance(5 * 60 * 60_000);
    }
    expect(await outboxOf(email)).toEqual([
      { kind: "already_registered", status: "failed", attempts: 9, lastError: expect.stringMatching(/ECONNREFUSED/) },
    ]);
    expect((await h.client().api.health.check()).outbox).toMatchObject({ failed: 1 });
  });

  it("two processes draining one outbox send each message once", async () => {
    const mailbox = await startSmtp();
    const stamp = Date.now();
    const recipients = Array.from({ length: 45 }, (_, i) => `pair-${stamp}-${i}@example.test`);
    // Due in an hour: the harness's own worker (on the harness clock) leaves them to the two processes.
    const later = new Date(h.clock.now().getTime() + 60 * 60_000);
    await h.database.db.outboxMessage.createMany({
      data: recipients.map((recipient) => ({ kind: "already_registered" as const, recipient, nextAttemptAt: later, createdAt: later })),
    });
    // Two independent app processes' worth of services: their own database pools, SMTP clients and clocks.
    const processClock = () => new Date(h.clock.now().getTime() + 2 * 60 * 60_000);
    const processes = [0, 1].map(() => ({
      db: createDb({ url: h.database.url, max: 3 }),
      mailer: createSmtpMailer({ host: "127.0.0.1", port: smtpPort, secure: false, allowSelfSigned: true, from: "Promptly <no-reply@promptly.test>" }),
      config: h.services.config,
      now: processClock,
    }));
    try {
      // Each process drains twice at once: four drainers on one outbox.
      const results = await Promise.all([...processes, ...processes].map((deps) => drainOutbox(deps)));
      expect(results.reduce((sum, r) => sum + r.sent, 0)).toBe(45);
      expect(results.filter((r) => r.sent > 0).length).toBeGreaterThan(1); // they really shared the work
      await expect.poll(async () => (await Promise.all(recipients.map(async (to) => (await mailbox.list(to)).length))).join(","), { timeout: 10_000 }).toBe(
        recipients.map(() => 1).join(","),
      );
      expect(await h.database.db.outboxMessage.count({ where: { recipient: { in: recipients }, status: "sent" } })).toBe(45);
    } finally {
      for (const deps of processes) {
        deps.mailer.close();
        await deps.db.$disconnect();
      }
    }
  });

  it("a process that shuts down finishes the message it is sending and leaves the others queued", async () => {
    await startSmtp();
    const stamp = Date.now();
    const recipients = [0, 1, 2].map((i) => `stopping-${stamp}-${i}@example.test`);
    // Due in an hour on the harness clock (its own worker leaves them alone); due now for this process.
    const later = new Date(h.clock.now().getTime() + 60 * 60_000);
    await h.database.db.outboxMessage.createMany({
      data: recipients.map((recipient) => ({ kind: "already_registered" as const, recipient, nextAttemptAt: later, createdAt: later })),
    });
    const mailer = createSmtpMailer({ host: "127.0.0.1", port: smtpPort, secure: false, allowSelfSigned: true, from: "Promptly <no-reply@promptly.test>" });
    const deps = { db: h.database.db, mailer, config: h.services.config, now: () => new Date(later.getTime() + 60_000) };
    try {
      let claims = 0;
      // Asked to stop after the first message: the way outbox.stop() ends a drain.
      const result = await drainOutbox(deps, () => claims++ >= 1);
      expect(result).toEqual({ sent: 1, skipped: 0, retried: 0, failed: 0 });
      const statuses = await h.database.db.outboxMessage.findMany({ where: { recipient: { in: recipients } }, select: { status: true } });
      expect(statuses.map((row) => row.status).sort()).toEqual(["pending", "pending", "sent"]);
      expect(await drainOutbox(deps)).toMatchObject({ sent: 2 }); // the next process sends the rest
    } finally {
      mailer.close();
    }
  });

  it("SMTP down: a notification is queued; SMTP up: it arrives exactly once", async () => {
    const db = h.database.db;
    const admin = await createAccount(h, { fullName: "Ada Admin" });
    const colleague = await createAccount(h, { fullName: "Cole Colleague" });
    const organization = await db.organization.create({
      data: { name: "Acme", members: { create: [{ userId: admin.id, role: "admin" }, { userId: colleague.id, role: "member" }] } },
    });
    const team = await db.team.create({ data: { name: "Core", organizationId: organization.id, members: { create: [{ userId: admin.id, role: "admin" }] } } });

    // The admin adds a colleague to the team: team_added, mailed once the digest window has passed.
    const adminApi = (await h.signedInClient(admin.id)).api;
    await expect(adminApi.invites.create({ teamId: team.id, email: colleague.email, role: "editor" })).resolves.toMatchObject({ status: "added" });
    const queued = () => db.outboxMessage.findMany({ where: { recipient: colleague.email }, select: { kind: true, status: true, attempts: true, lastError: true } });
    expect(await queued()).toEqual([{ kind: "notification", status: "pending", attempts: 0, lastError: null }]);
    h.clock.advance(121_000);
    await h.mail.settled();
    expect(await queued()).toEqual([{ kind: "notification", status: "pending", attempts: 1, lastError: expect.stringMatching(/ECONNREFUSED/) }]);

    const mailbox = await startSmtp();
    h.clock.advance(60_000);
    await h.mail.settled();
    h.clock.advance(24 * 60 * 60_000);
    await h.mail.settled();
    await expect.poll(async () => (await mailbox.list(colleague.email)).map((mail) => mail.subject), { timeout: 10_000 }).toEqual([
      "Ada Admin added you to team Core",
    ]);
    expect((await mailbox.list(colleague.email))[0]?.text).toContain("Notification settings: http://localhost:3000/settings/notifications");
    expect(await queued()).toEqual([{ kind: "notification", status: "sent", attempts: 2, lastError: null }]);
  });
});
