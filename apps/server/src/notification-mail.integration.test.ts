// Issue 16, acceptance 4: notification mail goes through the outbox. With the SMTP server stopped a
// notification is queued (and its first attempt fails); once the server is up it arrives exactly once.
import { afterAll, beforeAll, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAccount, createHarness, createMailbox, createSmtpMailer, type Harness } from "@promptly/api/testing";
import { freePort } from "../../../test/free-port.ts";
import { startMailCatcher, type EmbeddedService } from "./embedded.ts";

let h: Harness;
let smtpPort: number;
let webPort: number;
let dataDir: string;
let catcher: EmbeddedService | null = null;

beforeAll(async () => {
  h = await createHarness();
  [smtpPort, webPort] = [await freePort(), await freePort()];
  dataDir = mkdtempSync(join(tmpdir(), "promptly-notification-mail-"));
  // This file's mail goes to an SMTP server of its own, stopped until the test starts it.
  h.services.mailer = createSmtpMailer({ host: "127.0.0.1", port: smtpPort, secure: false, allowSelfSigned: true, from: "Promptly <no-reply@promptly.test>" });
});
afterAll(async () => {
  await catcher?.stop();
  await h.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it("SMTP down: a notification is queued; SMTP up: it arrives exactly once", async () => {
  const db = h.database.db;
  const admin = await createAccount(h, { fullName: "Ada Admin" });
  const colleague = await createAccount(h, { fullName: "Cole Colleague" });
  const organization = await db.organization.create({
    data: { name: "Acme", members: { create: [{ userId: admin.id, role: "admin" }, { userId: colleague.id, role: "member" }] } },
  });
  const team = await db.team.create({ data: { name: "Core", organizationId: organization.id, members: { create: [{ userId: admin.id, role: "admin" }] } } });

  // The admin adds a colleague to the team: team_added, mailed after the digest window.
  const adminApi = (await h.signedInClient(admin.id)).api;
  await expect(adminApi.invites.create({ teamId: team.id, email: colleague.email, role: "editor" })).resolves.toMatchObject({ status: "added" });
  const outbox = () => db.outboxMessage.findMany({ where: { recipient: colleague.email }, select: { kind: true, status: true, attempts: true, lastError: true } });
  expect(await outbox()).toEqual([{ kind: "notification", status: "pending", attempts: 0, lastError: null }]);

  h.clock.advance(121_000);
  await h.mail.settled();
  expect(await outbox()).toEqual([{ kind: "notification", status: "pending", attempts: 1, lastError: expect.stringMatching(/ECONNREFUSED/) }]);

  catcher = (await startMailCatcher({ dataDir, smtpPort, webPort })).service;
  const mailbox = createMailbox(`http://127.0.0.1:${webPort}`);
  h.clock.advance(60_000);
  await h.mail.settled();
  // Later drains (another poll, another process) send nothing again.
  h.clock.advance(24 * 60 * 60_000);
  await h.mail.settled();
  await expect.poll(async () => (await mailbox.list(colleague.email)).map((mail) => mail.subject), { timeout: 10_000 }).toEqual([
    "Ada Admin added you to team Core",
  ]);
  const [mail] = await mailbox.list(colleague.email);
  expect(mail?.text).toContain("Notification settings: http://localhost:3000/settings/notifications");
  expect(await outbox()).toEqual([{ kind: "notification", status: "sent", attempts: 2, lastError: null }]);
});
