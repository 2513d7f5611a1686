// Webhooks end to end: a team's subscription gets a signed `prompt.label.moved` within 2 s of a label
// move made through tRPC, verified with the published verifyWebhookSignature; a receiver that is down
// gets the delivery once it is back (retried from the durable queue); a forged or stale signature
// fails verification; the Slack format; the delivery log and a redelivery; an include's move sent to
// the includers whose served text it changes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHmac } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { verifyWebhookSignature } from "@promptly/client";
import { createAccount, createHarness, createOrganization, createTeam, type Harness, type TestClient } from "@promptly/api/testing";

interface Received {
  headers: IncomingMessage["headers"];
  body: string;
  at: number;
}

/** A real HTTP receiver on loopback: records every request, and answers `status` (503 while "down"). */
class Receiver {
  received: Received[] = [];
  status = 200;
  server: Server | null = null;
  port = 0;

  async start(port = 0) {
    this.server = createServer((req, res) => {
      let body = "";
      req.setEncoding("utf8");
      req.on("data", (chunk: string) => (body += chunk));
      req.on("end", () => {
        this.received.push({ headers: req.headers, body, at: Date.now() });
        res.writeHead(this.status).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, "127.0.0.1", resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop() {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  get url() {
    return `http://127.0.0.1:${this.port}/hooks`;
  }
}

/** Polls `check` until it answers something truthy (no fixed sleeps). */
async function waitFor<T>(check: () => T | Promise<T>, timeoutMs = 10_000, what = "condition"): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

let h: Harness;
let admin: TestClient;
let editor: TestClient;
let teamId: string;
let organizationId: string;

beforeAll(async () => {
  h = await createHarness();
  await h.services.webhooks.startWorker(h.services.db);
  const adminAccount = await createAccount(h, { fullName: "Ada Admin" });
  const editorAccount = await createAccount(h, { fullName: "Ed Editor" });
  const organization = await createOrganization(h, [{ userId: adminAccount.id, role: "member" }, { userId: editorAccount.id, role: "member" }]);
  organizationId = organization.id;
  const team = await createTeam(h, organization.id, [{ userId: adminAccount.id, role: "admin" }, { userId: editorAccount.id, role: "editor" }]);
  teamId = team.id;
  admin = await h.signedInClient(adminAccount.id);
  editor = await h.signedInClient(editorAccount.id);
});
afterAll(() => h.close());

async function newPrompt(name: string) {
  const prompt = await admin.api.prompts.create({ teamId, name, title: name, visibility: "team", type: "text", template: "Hello {{ name }}" });
  await admin.api.promptVersions.create({ promptId: prompt.id, template: "Hi {{ name }}!" });
  return prompt;
}

/** The documented verification, by hand (README "Webhooks"): HMAC-SHA256 of "<t>.<body>" under the secret, hex, compared with v1. */
function verifyByHand(secret: string, header: string, body: string) {
  const [, t] = /(?:^|,)t=(\d+)/.exec(header) ?? [];
  const [, v1] = /(?:^|,)v1=([0-9a-f]+)/.exec(header) ?? [];
  return !!t && v1 === createHmac("sha256", secret).update(`${t}.${body}`).digest("hex");
}

describe("webhooks", () => {
  it("a receiver gets a signed prompt.label.moved within 2 s of the move", async () => {
    const receiver = new Receiver();
    await receiver.start();
    try {
      const { id, secret } = await admin.api.webhooks.create({ teamId, url: receiver.url, events: ["prompt.label.moved"] });
      expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
      // The secret is answered once: never in the list, and sealed at rest.
      const [listed] = await admin.api.webhooks.list({ teamId });
      expect(JSON.stringify(listed)).not.toContain(secret);
      const row = await h.database.db.webhookSubscription.findUniqueOrThrow({ where: { id } });
      expect(row.secretSealed).not.toContain(secret.slice(6));

      const prompt = await newPrompt("greeting");
      const movedAt = Date.now();
      await admin.api.promptLabels.set({ promptId: prompt.id, label: "staging", version: 2 });
      const delivery = await waitFor(() => receiver.received[0], 2_000, "the delivery");
      expect(delivery.at - movedAt).toBeLessThan(2_000);
      // Only the event the subscription asked for: creating the prompt and its versions sent nothing.
      expect(receiver.received).toHaveLength(1);

      expect(delivery.headers["content-type"]).toBe("application/json");
      expect(delivery.headers["promptly-event"]).toBe("prompt.label.moved");
      const header = delivery.headers["promptly-signature"] as string;
      expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(verifyWebhookSignature(secret, header, delivery.body)).toBe(true);
      expect(verifyByHand(secret, header, delivery.body)).toBe(true);

      const body = JSON.parse(delivery.body);
      expect(Object.keys(body)).toEqual(["id", "type", "createdAt", "organizationId", "teamId", "data"]);
      expect(body).toMatchObject({
        type: "prompt.label.moved",
        organizationId,
        teamId,
        data: { prompt: { id: prompt.id, name: "greeting" }, label: "staging", version: 2, previousVersion: null, actor: { kind: "user", name: "Ada Admin" } },
      });

      const deliveryId = delivery.headers["promptly-delivery"] as string;
      const page = await admin.api.webhooks.deliveries({ subscriptionId: id });
      await waitFor(async () => (await admin.api.webhooks.deliveries({ subscriptionId: id })).items[0]?.status === "succeeded", 2_000, "the delivery's log");
      expect(page.items.map((item) => item.id)).toEqual([deliveryId]);
      const [logged] = (await admin.api.webhooks.deliveries({ subscriptionId: id })).items;
      expect(logged).toMatchObject({ event: "prompt.label.moved", status: "succeeded", statusCode: 200, attempts: 1 });

      // Redelivered on request: the same delivery id, signed again.
      await admin.api.webhooks.redeliver({ deliveryId });
      const again = await waitFor(() => receiver.received[1], 5_000, "the redelivery");
      expect(again.headers["promptly-delivery"]).toBe(deliveryId);
      expect(verifyWebhookSignature(secret, again.headers["promptly-signature"] as string, again.body)).toBe(true);

      // A test on request: a signed ping, whatever events the webhook asks for.
      const { deliveryId: pingId } = await admin.api.webhooks.test({ id });
      const ping = await waitFor(() => receiver.received[2], 5_000, "the ping");
      expect(ping.headers).toMatchObject({ "promptly-event": "ping", "promptly-delivery": pingId });
      expect(verifyWebhookSignature(secret, ping.headers["promptly-signature"] as string, ping.body)).toBe(true);
      expect(JSON.parse(ping.body)).toMatchObject({ type: "ping", teamId, data: { webhookId: id, prompt: null, actor: { name: "Ada Admin" } } });
      await admin.api.webhooks.delete({ id });
    } finally {
      await receiver.stop();
    }
  });

  it("a forged, tampered or stale signature fails the documented verification", async () => {
    const secret = "whsec_test";
    const body = JSON.stringify({ id: "1", type: "prompt.label.moved" });
    const t = Math.floor(Date.now() / 1000);
    const sign = (text: string, at = t, key = secret) => `t=${at},v1=${createHmac("sha256", key).update(`${at}.${text}`).digest("hex")}`;
    expect(verifyWebhookSignature(secret, sign(body), body)).toBe(true);
    expect(verifyWebhookSignature(secret, sign(body, t, "whsec_other"), body)).toBe(false);
    expect(verifyWebhookSignature(secret, sign(body), body.replace("label", "labels"))).toBe(false);
    expect(verifyWebhookSignature(secret, `t=${t},v1=${"0".repeat(64)}`, body)).toBe(false);
    // Replayed later than the window (5 minutes by default): refused though the signature is genuine.
    expect(verifyWebhookSignature(secret, sign(body, t - 301), body)).toBe(false);
    expect(verifyWebhookSignature(secret, sign(body, t - 301), body, 600)).toBe(true);
    expect(verifyWebhookSignature(secret, undefined, body)).toBe(false);
    expect(verifyWebhookSignature(secret, "v1=abc", body)).toBe(false);
  });

  it("with the receiver down the delivery is retried, and arrives once it is back", async () => {
    const receiver = new Receiver();
    await receiver.start();
    receiver.status = 503;
    try {
      const { id, secret } = await admin.api.webhooks.create({ teamId, url: receiver.url, events: ["prompt.label.moved"] });
      const prompt = await newPrompt("retried");
      await admin.api.promptLabels.set({ promptId: prompt.id, label: "staging", version: 1 });
      // Two failed attempts, each logged with the receiver's answer code and the next attempt's time.
      await waitFor(() => receiver.received.length >= 2, 10_000, "two failed attempts");
      const failing = (await admin.api.webhooks.deliveries({ subscriptionId: id })).items[0]!;
      expect(failing).toMatchObject({ status: "pending", statusCode: 503, error: "The receiver answered 503" });
      expect(failing.attempts).toBeGreaterThanOrEqual(2);
      expect(failing.nextAttemptAt).toEqual(expect.any(Date));

      // Down entirely (nothing listens on its port), then back.
      const port = receiver.port;
      const before = receiver.received.length;
      await receiver.stop();
      await waitFor(async () => (await h.database.db.webhookDelivery.findFirstOrThrow({ where: { subscriptionId: id } })).lastStatusCode === null, 10_000, "an attempt that found no receiver");
      receiver.status = 200;
      await receiver.start(port);
      const arrived = await waitFor(() => receiver.received.slice(before).find((r) => r.headers["promptly-delivery"]), 15_000, "the delivery after the receiver is back");
      expect(verifyWebhookSignature(secret, arrived.headers["promptly-signature"] as string, arrived.body)).toBe(true);
      const delivered = await waitFor(async () => {
        const [item] = (await admin.api.webhooks.deliveries({ subscriptionId: id })).items;
        return item?.status === "succeeded" ? item : null;
      }, 5_000, "the delivery marked succeeded");
      expect(delivered.statusCode).toBe(200);
      expect(delivered.attempts).toBeGreaterThanOrEqual(3);
      await admin.api.webhooks.delete({ id });
    } finally {
      await receiver.stop();
    }
  });

  it("sends a Slack-compatible body when the subscription asks for it, and comments too", async () => {
    const receiver = new Receiver();
    await receiver.start();
    try {
      const { id } = await admin.api.webhooks.create({ teamId, url: receiver.url, events: ["prompt.created", "comment.created"], slack: true });
      const prompt = await admin.api.prompts.create({ teamId, name: "slacked", title: "Slacked", visibility: "team", type: "text", template: "Hi" });
      await editor.api.comments.create({ promptId: prompt.id, body: "Looks good" });
      await waitFor(() => receiver.received.length >= 2, 5_000, "two deliveries");
      // Two deliveries may be sent at once: compared without their order.
      const sent = receiver.received.map((r) => ({ event: r.headers["promptly-event"], body: JSON.parse(r.body) as unknown }));
      expect(sent).toHaveLength(2);
      expect(sent).toEqual(expect.arrayContaining([
        { event: "prompt.created", body: { text: "Ada Admin created the prompt *slacked*" } },
        { event: "comment.created", body: { text: "Ed Editor commented on *slacked*" } },
      ]));
      await admin.api.webhooks.delete({ id });
    } finally {
      await receiver.stop();
    }
  });

  it("a move of an included label sends prompt.served.changed for each includer it changes, once, and nothing for a label nobody includes", async () => {
    const receiver = new Receiver();
    const slackReceiver = new Receiver();
    await receiver.start();
    try {
      const { id, secret } = await admin.api.webhooks.create({ teamId, url: receiver.url, events: ["prompt.served.changed"] });
      const tag = (name: string, label: string) => `@@@langfusePrompt:name=${name}|label=${label}@@@`;
      const create = (name: string, template: string) => admin.api.prompts.create({ teamId, name, title: name, visibility: "team", type: "text", template });
      // Deliveries are written in the change's transaction: counted right after it, they are all it sends.
      const sent = () => h.database.db.webhookDelivery.count({ where: { subscriptionId: id } });
      const bodies = async (count: number) => {
        await waitFor(() => receiver.received.length >= count, 5_000, `${count} deliveries`);
        return receiver.received.slice(count - 2, count).map((delivery) => {
          expect(delivery.headers["promptly-event"]).toBe("prompt.served.changed");
          expect(verifyWebhookSignature(secret, delivery.headers["promptly-signature"] as string, delivery.body)).toBe(true);
          return JSON.parse(delivery.body) as { type: string; data: { prompt: { name: string } } };
        }).sort((a, b) => a.data.prompt.name.localeCompare(b.data.prompt.name));
      };

      const snippet = await create("snippet", "Be brief.");
      await admin.api.promptVersions.create({ promptId: snippet.id, template: "Be very brief." });
      await admin.api.promptLabels.set({ promptId: snippet.id, label: "staging", version: 1 });
      await admin.api.promptLabels.set({ promptId: snippet.id, label: "dev", version: 1 });
      const answer = await create("answer", `Answer. ${tag("snippet", "staging")}`);
      // Reached twice by the move: directly, and through answer.
      const thread = await create("thread", `Thread. ${tag("answer", "latest")} ${tag("snippet", "staging")}`);
      const summary = await create("summary", `Summary. ${tag("snippet", "latest")}`);
      await admin.api.promptLabels.set({ promptId: summary.id, label: "production", version: 1 });
      const digest = await create("digest", `Digest. ${tag("summary", "production")}`);
      expect(await sent()).toBe(0);
      await slackReceiver.start();
      const slack = await admin.api.webhooks.create({ teamId, url: slackReceiver.url, events: ["prompt.served.changed"], slack: true });

      await admin.api.promptLabels.set({ promptId: snippet.id, label: "staging", version: 2 });
      expect(await sent()).toBe(2);
      await waitFor(() => slackReceiver.received.length >= 2, 5_000, "two Slack deliveries");
      expect(slackReceiver.received.map((delivery) => (JSON.parse(delivery.body) as { text: string }).text).sort()).toEqual([
        "Ada Admin moved the label *staging* of *snippet* to version 2, so *answer* version 1 serves a new text as *latest*",
        "Ada Admin moved the label *staging* of *snippet* to version 2, so *thread* version 1 serves a new text as *latest*",
      ]);
      await admin.api.webhooks.delete({ id: slack.id });
      const staged = { prompt: { id: snippet.id, name: "snippet" }, label: "staging", version: 2, previousVersion: 1 };
      expect(await bodies(2)).toMatchObject([
        { type: "prompt.served.changed", teamId, data: { prompt: { id: answer.id, name: "answer" }, version: 1, labels: ["latest"], include: staged, actor: { kind: "user", name: "Ada Admin" } } },
        { type: "prompt.served.changed", teamId, data: { prompt: { id: thread.id, name: "thread" }, version: 1, labels: ["latest"], include: staged } },
      ]);

      // A label nobody includes, and a label pointed where it already is, change nothing served.
      await admin.api.promptLabels.set({ promptId: snippet.id, label: "dev", version: 2 });
      await admin.api.promptLabels.set({ promptId: snippet.id, label: "staging", version: 2 });
      expect(await sent()).toBe(2);

      // A new version moves latest: its includers by latest hear of it, and theirs by the labels they are served under.
      await admin.api.promptVersions.create({ promptId: snippet.id, template: "Be kind." });
      expect(await sent()).toBe(4);
      const latest = { prompt: { id: snippet.id, name: "snippet" }, label: "latest", version: 3, previousVersion: 2 };
      expect(await bodies(4)).toMatchObject([
        { data: { prompt: { id: digest.id, name: "digest" }, version: 1, labels: ["latest"], include: latest } },
        { data: { prompt: { id: summary.id, name: "summary" }, version: 1, labels: ["production", "latest"], include: latest } },
      ]);

      // An import's new version moves latest too.
      await admin.api.library.applyImport({ teamId, document: [{ name: "snippet", version: 1, type: "text", prompt: "Be kind and brief.", config: {}, labels: [], tags: [] }] });
      expect(await sent()).toBe(6);
      expect((await bodies(6)).map((body) => body.data)).toMatchObject([
        { prompt: { name: "digest" }, include: { label: "latest", version: 4, previousVersion: 3 } },
        { prompt: { name: "summary" }, include: { label: "latest", version: 4, previousVersion: 3 } },
      ]);

      // A move refused (thread would resolve past the include budget) rolls back and sends nothing.
      await admin.api.promptVersions.create({ promptId: snippet.id, template: "x".repeat(60_000) });
      expect(await sent()).toBe(8);
      await expect(admin.api.promptLabels.set({ promptId: snippet.id, label: "staging", version: 5 })).rejects.toThrow("This change would break 'thread' (version 1)");
      expect(await sent()).toBe(8);
      await admin.api.webhooks.delete({ id });
    } finally {
      await receiver.stop();
      await slackReceiver.stop();
    }
  });
});
