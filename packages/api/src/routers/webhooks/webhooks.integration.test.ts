// A team's webhooks: who may manage them (team admin level), what create and update refuse (bad URLs,
// ports fetch never calls, private addresses without ALLOW_PRIVATE_WEBHOOK_URLS, no events), and that an event makes a delivery only
// for the team's active subscriptions that ask for it, in the transaction of the change.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { WEBHOOK_MSG } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { CALLER_KINDS, EXPECTED_AT_LEVEL, createWorld, failure, outcome } from "../../../testing/teams-support.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createWorld>>;

beforeAll(async () => {
  // As in production: private and loopback receivers refused.
  h = await createHarness({ allowPrivateWebhookUrls: false });
  world = await createWorld(h);
});
afterAll(() => h.close());

const adminLevel = EXPECTED_AT_LEVEL.admin;
const URL_OK = "https://hooks.example.com/promptly";
const db = () => h.database.db;
const count = (teamId: string) => db().webhookSubscription.count({ where: { teamId } });

async function teamWithWebhook() {
  const team = await world.team();
  const created = await world.callers.admin.webhooks.create({ teamId: team.id, url: URL_OK, events: ["prompt.created"] });
  return { team, ...created };
}

describe("webhooks procedures × caller kinds (team admin level)", () => {
  it.each(CALLER_KINDS)("webhooks.create as %s", async (kind) => {
    const team = await world.team();
    const result = await outcome(world.callers[kind].webhooks.create({ teamId: team.id, url: URL_OK, events: ["prompt.label.moved"] }));
    expect(result).toBe(adminLevel[kind]);
    expect(await count(team.id)).toBe(result === "OK" ? 1 : 0);
  });

  it.each(CALLER_KINDS)("webhooks.list as %s", async (kind) => {
    const { team } = await teamWithWebhook();
    expect(await outcome(world.callers[kind].webhooks.list({ teamId: team.id }))).toBe(adminLevel[kind]);
  });

  it.each(CALLER_KINDS)("webhooks.update, deliveries, redeliver and delete as %s", async (kind) => {
    const { team, id } = await teamWithWebhook();
    await world.callers.admin.prompts.create({ teamId: team.id, name: "p", title: "P", visibility: "team", type: "text", template: "Hi" });
    const delivery = await db().webhookDelivery.findFirstOrThrow({ where: { subscriptionId: id } });
    const api = world.callers[kind].webhooks;
    expect(await outcome(api.update({ id, active: false }))).toBe(adminLevel[kind]);
    expect(await outcome(api.deliveries({ subscriptionId: id }))).toBe(adminLevel[kind]);
    expect(await outcome(api.redeliver({ deliveryId: delivery.id }))).toBe(adminLevel[kind]);
    expect(await outcome(api.test({ id }))).toBe(adminLevel[kind]);
    expect(await db().webhookDelivery.count({ where: { subscriptionId: id, event: "ping" } })).toBe(adminLevel[kind] === "OK" ? 1 : 0);
    expect(await outcome(api.delete({ id }))).toBe(adminLevel[kind]);
    expect(await count(team.id)).toBe(adminLevel[kind] === "OK" ? 0 : 1);
  });
});

describe("webhooks.create", () => {
  it.each([
    ["a private address", "http://10.1.2.3/hook", WEBHOOK_MSG.urlPrivate],
    ["loopback", "http://127.0.0.1:8080/hook", WEBHOOK_MSG.urlPrivate],
    ["a name that resolves to loopback", "http://localhost:8080/hook", WEBHOOK_MSG.urlPrivate],
    ["IPv6 loopback", "http://[::1]/hook", WEBHOOK_MSG.urlPrivate],
    ["another scheme", "ftp://hooks.example.com/x", WEBHOOK_MSG.urlInvalid],
    ["no URL", "hooks", WEBHOOK_MSG.urlInvalid],
    ["credentials in the URL", "https://user:pw@hooks.example.com/x", WEBHOOK_MSG.urlCredentials],
    ["X11's port, one fetch never calls", "http://example.com:6000/hook", WEBHOOK_MSG.urlPortBlocked],
    ["SMTP's port", "https://hooks.example.com:25/hook", WEBHOOK_MSG.urlPortBlocked],
    ["the last port fetch never calls", "https://hooks.example.com:10080/hook", WEBHOOK_MSG.urlPortBlocked],
  ])("refuses %s, and creates nothing", async (_what, url, message) => {
    const team = await world.team();
    expect(await failure(world.callers.admin.webhooks.create({ teamId: team.id, url, events: ["prompt.created"] }))).toEqual({ code: "BAD_REQUEST", message });
    expect(await count(team.id)).toBe(0);
  });

  it("refuses a private address on update too", async () => {
    const { id } = await teamWithWebhook();
    expect(await failure(world.callers.admin.webhooks.update({ id, url: "http://192.168.1.10/hook" }))).toEqual({ code: "BAD_REQUEST", message: WEBHOOK_MSG.urlPrivate });
    expect((await db().webhookSubscription.findUniqueOrThrow({ where: { id } })).url).toBe(URL_OK);
  });

  it.each(["http://example.com:6000/hook", "https://hooks.example.com:6665/hook"])("refuses %s, a port fetch never calls, on update too, and changes nothing", async (url) => {
    const { id } = await teamWithWebhook();
    const before = await db().webhookSubscription.findUniqueOrThrow({ where: { id } });
    expect(await failure(world.callers.admin.webhooks.update({ id, url, active: false }))).toEqual({ code: "BAD_REQUEST", message: WEBHOOK_MSG.urlPortBlocked });
    expect(await db().webhookSubscription.findUniqueOrThrow({ where: { id } })).toEqual(before);
  });

  it.each(["https://hooks.example.com:443/hook", "http://hooks.example.com:8080/hook", "http://hooks.example.com/hook", "http://hooks.example.com:6001/hook"])(
    "accepts %s on create and on update",
    async (url) => {
      const team = await world.team();
      const { id } = await world.callers.admin.webhooks.create({ teamId: team.id, url, events: ["prompt.created"] });
      expect((await db().webhookSubscription.findUniqueOrThrow({ where: { id } })).url).toBe(url);
      const other = await teamWithWebhook();
      await world.callers.admin.webhooks.update({ id: other.id, url });
      expect((await db().webhookSubscription.findUniqueOrThrow({ where: { id: other.id } })).url).toBe(url);
    },
  );

  it("refuses no events and unknown ones", async () => {
    const team = await world.team();
    expect(await failure(world.callers.admin.webhooks.create({ teamId: team.id, url: URL_OK, events: [] }))).toEqual({ code: "BAD_REQUEST", message: WEBHOOK_MSG.eventsEmpty });
    expect(await outcome(world.callers.admin.webhooks.create({ teamId: team.id, url: URL_OK, events: ["prompt.renamed" as never] }))).toBe("BAD_REQUEST");
  });

  it("accepts a private address with ALLOW_PRIVATE_WEBHOOK_URLS", async () => {
    const allowing = await createHarness({ allowPrivateWebhookUrls: true });
    try {
      const local = await createWorld(allowing);
      const team = await local.team();
      expect(await outcome(local.callers.admin.webhooks.create({ teamId: team.id, url: "http://127.0.0.1:8080/hook", events: ["prompt.created"] }))).toBe("OK");
    } finally {
      await allowing.close();
    }
  });
});

describe("events", () => {
  it("make a delivery for each active subscription of the team that asks for the event, and none elsewhere", async () => {
    const team = await world.team();
    const other = await world.team("Other");
    const admin = world.callers.admin;
    const wanted = await admin.webhooks.create({ teamId: team.id, url: URL_OK, events: ["prompt.created", "prompt.archived"] });
    const unwanted = await admin.webhooks.create({ teamId: team.id, url: `${URL_OK}/2`, events: ["comment.created"] });
    const paused = await admin.webhooks.create({ teamId: team.id, url: `${URL_OK}/3`, events: ["prompt.created"] });
    await admin.webhooks.update({ id: paused.id, active: false });
    const elsewhere = await admin.webhooks.create({ teamId: other.id, url: URL_OK, events: ["prompt.created"] });
    const prompt = await admin.prompts.create({ teamId: team.id, name: "events", title: "Events", visibility: "team", type: "text", template: "Hi" });
    await admin.prompts.archive({ id: prompt.id });
    const events = async (subscriptionId: string) => (await db().webhookDelivery.findMany({ where: { subscriptionId }, orderBy: { createdAt: "asc" } })).map((d) => d.event);
    expect(await events(wanted.id)).toEqual(["prompt.created", "prompt.archived"]);
    expect(await events(unwanted.id)).toEqual([]);
    expect(await events(paused.id)).toEqual([]);
    expect(await events(elsewhere.id)).toEqual([]);
  });

  it("a reviewed promotion sends changeRequest.opened, then prompt.label.moved and changeRequest.approved; a rejection changeRequest.rejected", async () => {
    const team = await world.team();
    await db().team.update({ where: { id: team.id }, data: { requiredApprovals: 1 } });
    const { admin, editor } = world.callers;
    const all = ["prompt.label.moved", "changeRequest.opened", "changeRequest.approved", "changeRequest.rejected"] as const;
    const { id } = await admin.webhooks.create({ teamId: team.id, url: URL_OK, events: [...all] });
    const prompt = await editor.prompts.create({ teamId: team.id, name: "reviewed", title: "Reviewed", visibility: "team", type: "text", template: "One" });
    await editor.promptVersions.create({ promptId: prompt.id, template: "Two" });
    const opened = await editor.changeRequests.create({ promptId: prompt.id, label: "production", version: 2, message: "Ship it" });
    await admin.changeRequests.approve({ id: opened.id, comment: "Looks good" });
    const rejected = await editor.changeRequests.create({ promptId: prompt.id, label: "production", version: 1, message: "Back" });
    await admin.changeRequests.reject({ id: rejected.id, comment: "No" });
    const deliveries = await db().webhookDelivery.findMany({ where: { subscriptionId: id }, orderBy: [{ createdAt: "asc" }] });
    const payloads = deliveries.map((d) => d.payload as { type: string; data: Record<string, unknown> & { changeRequest?: { id: string } } });
    // The label move and the approval share one transaction (and its time): compared without their order.
    expect(payloads.map((p) => p.type).sort()).toEqual(["changeRequest.approved", "changeRequest.opened", "changeRequest.opened", "changeRequest.rejected", "prompt.label.moved"]);
    const find = (type: string, requestId?: string) => payloads.find((p) => p.type === type && (!requestId || p.data.changeRequest?.id === requestId))!.data;
    expect(find("changeRequest.opened", opened.id)).toMatchObject({ prompt: { id: prompt.id, name: "reviewed" }, changeRequest: { label: "production", baseVersion: null, proposedVersion: 2 }, message: "Ship it", actor: { kind: "user", name: "Ed Editor" } });
    expect(find("prompt.label.moved")).toMatchObject({ label: "production", version: 2, previousVersion: null, actor: { name: "Ada Admin" } });
    expect(find("changeRequest.approved", opened.id)).toMatchObject({ changeRequest: { status: "approved" }, comment: "Looks good", actor: { name: "Ada Admin" } });
    expect(find("changeRequest.rejected", rejected.id)).toMatchObject({ changeRequest: { status: "rejected" }, comment: "No" });
  });

  it("a change that fails leaves no delivery (same transaction)", async () => {
    const { team, id } = await teamWithWebhook();
    const admin = world.callers.admin;
    await admin.prompts.create({ teamId: team.id, name: "dup", title: "Dup", visibility: "team", type: "text", template: "Hi" });
    expect(await outcome(admin.prompts.create({ teamId: team.id, name: "dup", title: "Dup", visibility: "team", type: "text", template: "Hi" }))).toBe("CONFLICT");
    expect(await db().webhookDelivery.count({ where: { subscriptionId: id } })).toBe(1);
  });
});

describe("delivery time", () => {
  it("checks the address actually connected to: a URL that now resolves to loopback is refused, and nothing reaches it", async () => {
    let hits = 0;
    const receiver = createServer((_req, res) => {
      hits++;
      res.writeHead(200).end();
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    await h.services.webhooks.startWorker(h.services.db);
    try {
      const { team, id } = await teamWithWebhook();
      // Saved while public; its name resolves to loopback now (as a rebinding DNS answer would).
      await db().webhookSubscription.update({ where: { id }, data: { url: `http://localhost:${(receiver.address() as AddressInfo).port}/hook` } });
      await world.callers.admin.prompts.create({ teamId: team.id, name: "rebound", title: "Rebound", visibility: "team", type: "text", template: "Hi" });
      const deadline = Date.now() + 30_000;
      let delivery = await db().webhookDelivery.findFirstOrThrow({ where: { subscriptionId: id } });
      // An attempt that ran out of the harness's 2 s on a loaded machine (the lookup queued) is retried 200 ms later: the next one says.
      while (delivery.attempts === 0 || delivery.lastAttemptAt === null || delivery.lastError === null || delivery.lastError.startsWith("No answer within")) {
        if (Date.now() > deadline) throw new Error("no attempt was made");
        await new Promise((resolve) => setTimeout(resolve, 25));
        delivery = await db().webhookDelivery.findFirstOrThrow({ where: { subscriptionId: id } });
      }
      expect(delivery.lastError).toMatch(/private address 127\.0\.0\.1|private address ::1/);
      expect(delivery.lastStatusCode).toBeNull();
      expect(hits).toBe(0);
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });
});
