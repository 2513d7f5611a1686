// A new delivery wakes one of a process's idle delivery slots, and the slot that finds it wakes the next:
// two claims of a job, not one per slot. A burst still fans out to every slot at once, and the deliveries
// the slots could not all take at once are taken as they finish, without waiting for the poll.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { WEBHOOKS_PER_TEAM_MAX } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createWorld } from "../../../testing/teams-support.ts";
import { WebhookQueue } from "./queue.ts";

/** The deliveries one process sends at once. */
const SLOTS = 20;

let h: Harness;
let world: Awaited<ReturnType<typeof createWorld>>;
let queue: WebhookQueue;
/** pg-boss's claims of a job (its one FOR UPDATE SKIP LOCKED statement) on this queue's connections. */
const claims = { started: 0, settled: 0 };

beforeAll(async () => {
  h = await createHarness();
  world = await createWorld(h);
  // Polling and sweeping far apart from the test: only the NOTIFY and the slots' own wake-ups send a delivery.
  queue = new WebhookQueue({ databaseUrl: h.database.url, timeoutMs: 60_000, pollingIntervalSeconds: 3_600, sweepMs: 3_600_000 }, h.services.config);
  const db = queue.boss.getDb();
  const execute = db.executeSql.bind(db);
  db.executeSql = async (text, values) => {
    const claim = text.includes("FOR UPDATE SKIP LOCKED");
    if (claim) claims.started++;
    try {
      return await execute(text, values);
    } finally {
      if (claim) claims.settled++;
    }
  };
  await queue.startWorker(h.services.db);
});
afterAll(async () => {
  await queue.stop();
  await h.close();
});

/** Every claim begun has answered (a slot that finds a job wakes the next before the poll can look). */
const claimsSettled = () => expect.poll(() => claims.started > 0 && claims.started === claims.settled, { timeout: 10_000 }).toBe(true);

async function receiver(onRequest: (res: ServerResponse) => void) {
  const server = createServer((req, res) => req.resume().on("end", () => onRequest(res)));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` };
}

const deliveryStatuses = async (teamId: string) =>
  (await h.database.db.webhookDelivery.findMany({ where: { subscription: { teamId } }, select: { status: true } })).map((d) => d.status);

describe("the webhook slots' wake-ups", () => {
  it(`claims at most twice for one new delivery, with ${SLOTS} slots idle`, async () => {
    const { server, url } = await receiver((res) => res.writeHead(204).end());
    try {
      const team = await world.team();
      const hook = await world.callers.admin.webhooks.create({ teamId: team.id, url, events: ["prompt.created"] });
      // The slots' first look, at start, is over.
      await claimsSettled();
      const before = claims.started;
      const { deliveryId } = await world.callers.admin.webhooks.test({ id: hook.id });
      await expect.poll(async () => (await h.database.db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } })).status, { timeout: 10_000 }).toBe("succeeded");
      await claimsSettled();
      // The slot that took it, and the one it woke that found nothing more; not every slot of the process.
      expect(claims.started - before).toBeLessThanOrEqual(2);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it(`sends a burst of ${WEBHOOKS_PER_TEAM_MAX} deliveries from one NOTIFY, ${SLOTS} at once, then the rest as slots finish`, async () => {
    const held: ServerResponse[] = [];
    let answerAtOnce = false;
    let allHeld!: () => void;
    const slotsFull = new Promise<void>((resolve) => (allHeld = resolve));
    // Answers nobody until every slot holds a request open: the deliveries went out together.
    const { server, url } = await receiver((res) => {
      if (answerAtOnce) return void res.writeHead(204).end();
      held.push(res);
      if (held.length === SLOTS) allHeld();
    });
    try {
      const team = await world.team();
      for (let n = 0; n < WEBHOOKS_PER_TEAM_MAX; n++) await world.callers.admin.webhooks.create({ teamId: team.id, url: `${url}/${n}`, events: ["prompt.created"] });
      // One transaction: one delivery per subscription, one NOTIFY.
      await world.callers.admin.prompts.create({ teamId: team.id, name: "burst", title: "Burst", visibility: "team", type: "text", template: "Hi" });
      await slotsFull;
      expect(await deliveryStatuses(team.id)).toHaveLength(WEBHOOKS_PER_TEAM_MAX);
      answerAtOnce = true;
      for (const res of held.splice(0)) res.writeHead(204).end();
      await expect.poll(async () => (await deliveryStatuses(team.id)).filter((s) => s === "succeeded").length, { timeout: 20_000 }).toBe(WEBHOOKS_PER_TEAM_MAX);
    } finally {
      for (const res of held) res.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("shares a burst with another process: each delivery is sent once", async () => {
    const other = new WebhookQueue({ databaseUrl: h.database.url, timeoutMs: 60_000, pollingIntervalSeconds: 3_600, sweepMs: 3_600_000 }, h.services.config);
    const received: string[] = [];
    const { server, url } = await receiver((res) => res.writeHead(204).end());
    server.on("request", (req) => received.push(req.url ?? ""));
    try {
      await other.startWorker(h.services.db);
      const team = await world.team();
      for (let n = 0; n < WEBHOOKS_PER_TEAM_MAX; n++) await world.callers.admin.webhooks.create({ teamId: team.id, url: `${url}/${n}`, events: ["prompt.created"] });
      await world.callers.admin.prompts.create({ teamId: team.id, name: "shared", title: "Shared", visibility: "team", type: "text", template: "Hi" });
      await expect.poll(async () => (await deliveryStatuses(team.id)).filter((s) => s === "succeeded").length, { timeout: 20_000 }).toBe(WEBHOOKS_PER_TEAM_MAX);
      expect(received.sort()).toEqual(Array.from({ length: WEBHOOKS_PER_TEAM_MAX }, (_, n) => `/hook/${n}`).sort());
      const attempts = await h.database.db.webhookDelivery.findMany({ where: { subscription: { teamId: team.id } }, select: { attempts: true } });
      expect(attempts.every((d) => d.attempts === 1)).toBe(true);
    } finally {
      await other.stop();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
