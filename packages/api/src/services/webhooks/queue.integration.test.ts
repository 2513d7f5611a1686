// A receiver that never answers holds up only its own delivery: the worker takes other deliveries while
// that attempt waits out its time limit, instead of waiting for it before taking more.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createWorld } from "../../../testing/teams-support.ts";
import { WebhookQueue } from "./queue.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createWorld>>;
// A time limit far longer than the test: any delivery that arrives did so while the hung attempt still waited.
let queue: WebhookQueue;

beforeAll(async () => {
  h = await createHarness();
  world = await createWorld(h);
  queue = new WebhookQueue({ databaseUrl: h.database.url, timeoutMs: 60_000, pollingIntervalSeconds: 0.5, sweepMs: 60_000 }, h.services.config);
  await queue.startWorker(h.services.db);
});
afterAll(async () => {
  await queue.stop();
  await h.close();
});

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
}

describe("the webhook worker", () => {
  it("sends another webhook's delivery while a receiver that never answers holds its own", async () => {
    const held: ServerResponse[] = [];
    let heldArrived!: () => void;
    const heldReached = new Promise<void>((resolve) => (heldArrived = resolve));
    const silent = createServer((_req, res) => {
      held.push(res);
      heldArrived();
    });
    let answeredArrived!: () => void;
    const answeredReached = new Promise<void>((resolve) => (answeredArrived = resolve));
    const answering = createServer((_req, res) => {
      res.writeHead(204).end();
      answeredArrived();
    });
    const team = await world.team();
    const stuck = await world.callers.admin.webhooks.create({ teamId: team.id, url: await listen(silent), events: ["prompt.created"] });
    const fine = await world.callers.admin.webhooks.create({ teamId: team.id, url: await listen(answering), events: ["prompt.created"] });
    try {
      await world.callers.admin.webhooks.test({ id: stuck.id });
      await heldReached;
      const { deliveryId } = await world.callers.admin.webhooks.test({ id: fine.id });
      await answeredReached;
      // The silent receiver's attempt is still under way: no outcome written yet.
      const stuckPing = await h.database.db.webhookDelivery.findFirstOrThrow({ where: { subscriptionId: stuck.id } });
      expect(stuckPing).toMatchObject({ status: "pending", attempts: 1, lastError: null });
      await expect.poll(async () => (await h.database.db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } })).status, { timeout: 10_000 }).toBe("succeeded");
    } finally {
      // Let the held attempt end now rather than at its time limit.
      for (const res of held) res.destroy();
      await new Promise((resolve) => silent.close(resolve));
      await new Promise((resolve) => answering.close(resolve));
    }
  });
});
