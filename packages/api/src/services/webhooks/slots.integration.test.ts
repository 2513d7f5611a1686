// A delivery slot is never lost to one job: an attempt stuck in a database step past its time limit has
// its job failed (retried by pg-boss) at once, and the slot takes the next once that attempt ends (never
// more attempts running than slots); a job that throws at once is failed and the slot goes on; stop()
// fails the jobs of the attempts still running, and those fetched as it began, rather than leaving them
// active until pg-boss expires them or running them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";
import type PgBoss from "pg-boss";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createWorld } from "../../../testing/teams-support.ts";
import { attemptDelivery } from "./deliver.ts";
import { WEBHOOK_QUEUE } from "./jobs.ts";
import { WebhookQueue, type WebhookQueueOptions } from "./queue.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createWorld>>;

beforeAll(async () => {
  h = await createHarness();
  world = await createWorld(h);
});
afterAll(async () => {
  await h.close();
});

/** One slot: a delivery is sent only once the slot is free again. Polling often (a retry is far off: its delay is the job's expiry). */
const oneSlot = (options: Partial<WebhookQueueOptions> = {}) =>
  new WebhookQueue({ databaseUrl: h.database.url, slots: 1, timeoutMs: 60_000, pollingIntervalSeconds: 0.5, sweepMs: 3_600_000, ...options }, h.services.config);

async function receiver(onRequest: (req: IncomingMessage, res: ServerResponse) => void) {
  const server = createServer((req, res) => req.resume().on("end", () => onRequest(req, res)));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` };
}

/** A connection holding a delivery's row (FOR UPDATE) until released: the attempt's writes to it wait. */
async function rowHolder() {
  const client = new pg.Client({ connectionString: h.database.url });
  await client.connect();
  let ended = false;
  return {
    async hold(deliveryId: string) {
      await client.query("BEGIN");
      await client.query("SELECT 1 FROM webhook_deliveries WHERE id = $1 FOR UPDATE", [deliveryId]);
    },
    /** Claims the delivery again as a newer attempt would (a retry's, or a redelivery's), and lets the row go. */
    async claimAgain(deliveryId: string) {
      await client.query("UPDATE webhook_deliveries SET attempts = attempts + 1, last_attempt_at = now(), updated_at = now() WHERE id = $1", [deliveryId]);
      await this.release();
    },
    async release() {
      if (ended) return;
      ended = true;
      await client.query("COMMIT").catch(() => undefined);
      await client.end();
    },
  };
}

/** Statements of this database waiting on a lock on webhook_deliveries. */
const waitingOnDelivery = async () =>
  (await h.database.db.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM pg_stat_activity
     WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE '%UPDATE webhook_deliveries%'`)[0]!.n;

const jobOf = async (deliveryId: string) =>
  (await h.database.db.$queryRaw<{ state: string; output: { message?: string } | null }[]>`
    SELECT state::text, output FROM pgboss.job WHERE name = ${WEBHOOK_QUEUE} AND data->>'deliveryId' = ${deliveryId}`)[0];

const status = async (deliveryId: string) => (await h.database.db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } })).status;

/** Checks, every 100 ms for ms, that nothing happens which should not (a slot's chances to: its NOTIFY, then a poll every 0.5 s). */
async function throughout(ms: number, check: () => Promise<void>) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    await check();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("the webhook delivery slots", () => {
  it("fails the job of an attempt stuck on a lock past its time limit, and the slot takes no other until that attempt ends", async () => {
    const holder = await rowHolder();
    const { server, url } = await receiver((_req, res) => res.writeHead(204).end());
    const errors: unknown[] = [];
    const queue = oneSlot({ attemptLimitMs: 1_500, claimTimeoutMs: 60_000, onError: (error) => errors.push(error) });
    try {
      await queue.ready();
      const team = await world.team();
      const stuck = await world.callers.admin.webhooks.create({ teamId: team.id, url: `${url}/stuck`, events: ["prompt.created"] });
      const fine = await world.callers.admin.webhooks.create({ teamId: team.id, url: `${url}/fine`, events: ["prompt.created"] });
      const { deliveryId } = await world.callers.admin.webhooks.test({ id: stuck.id });
      // The stuck webhook's delivery row is held before the worker starts: its claim (its statement timeout set
      // past this test's wait, claimTimeoutMs) waits on the lock.
      await holder.hold(deliveryId);
      await queue.startWorker(h.services.db);
      await expect.poll(waitingOnDelivery, { timeout: 10_000 }).toBe(1);
      // Failed at the limit, to be retried by pg-boss.
      await expect.poll(async () => (await jobOf(deliveryId))?.state, { timeout: 10_000 }).toBe("retry");
      expect((await jobOf(deliveryId))?.output?.message).toMatch(/abandoned after 1500 ms/);
      // The abandoned attempt still holds its database connection: the one slot claims nothing else meanwhile.
      const next = await world.callers.admin.webhooks.test({ id: fine.id });
      await throughout(1_000, async () => {
        expect((await h.database.db.webhookDelivery.findUniqueOrThrow({ where: { id: next.deliveryId } })).attempts).toBe(0);
        expect(await waitingOnDelivery()).toBe(1);
      });
      // The abandoned attempt ends: it writes its own claim's outcome, leaves the job as failed, and the slot sends the next.
      await holder.release();
      await expect.poll(() => status(deliveryId), { timeout: 10_000 }).toBe("succeeded");
      await expect.poll(() => status(next.deliveryId), { timeout: 10_000 }).toBe("succeeded");
      expect((await jobOf(deliveryId))?.state).toBe("retry");
    } finally {
      await holder.release();
      await queue.stop();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("fails the job of an attempt still running when the worker stops, rather than leaving it active", async () => {
    const holder = await rowHolder();
    const { server, url } = await receiver((_req, res) => res.writeHead(204).end());
    // Stop waits out the HTTP call's limit (0.5 s) and a second, far within the attempt's.
    const queue = oneSlot({ timeoutMs: 500, attemptLimitMs: 60_000, claimTimeoutMs: 60_000 });
    try {
      await queue.ready();
      const team = await world.team();
      const hook = await world.callers.admin.webhooks.create({ teamId: team.id, url, events: ["prompt.created"] });
      const { deliveryId } = await world.callers.admin.webhooks.test({ id: hook.id });
      // Held before the worker starts: the attempt's claim waits on the lock.
      await holder.hold(deliveryId);
      await queue.startWorker(h.services.db);
      await expect.poll(waitingOnDelivery, { timeout: 10_000 }).toBe(1);
      expect((await jobOf(deliveryId))?.state).toBe("active");
      await queue.stop();
      const job = await jobOf(deliveryId);
      expect(job?.state).toBe("retry");
      expect(job?.output?.message).toMatch(/stopped during the delivery attempt/);
    } finally {
      await holder.release();
      await queue.stop();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("ends a claim stuck on a lock after its statement timeout, failing its job, and the slot sends the next", async () => {
    const holder = await rowHolder();
    const { server, url } = await receiver((_req, res) => res.writeHead(204).end());
    const queue = oneSlot({ claimTimeoutMs: 300, attemptLimitMs: 60_000 });
    try {
      await queue.ready();
      const team = await world.team();
      const stuck = await world.callers.admin.webhooks.create({ teamId: team.id, url: `${url}/stuck`, events: ["prompt.created"] });
      const fine = await world.callers.admin.webhooks.create({ teamId: team.id, url: `${url}/fine`, events: ["prompt.created"] });
      const { deliveryId } = await world.callers.admin.webhooks.test({ id: stuck.id });
      // Held, and never let go while the slot works: only the claim's own timeout can end its wait.
      await holder.hold(deliveryId);
      await queue.startWorker(h.services.db);
      await expect.poll(async () => (await jobOf(deliveryId))?.state, { timeout: 10_000 }).toBe("retry");
      expect((await jobOf(deliveryId))?.output?.message).toMatch(/statement timeout/);
      const next = await world.callers.admin.webhooks.test({ id: fine.id });
      await expect.poll(() => status(next.deliveryId), { timeout: 10_000 }).toBe("succeeded");
      expect(await waitingOnDelivery()).toBe(0);
    } finally {
      await holder.release();
      await queue.stop();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("fails, rather than runs, a job whose fetch returns after stop began", async () => {
    let sent = 0;
    const { server, url } = await receiver((_req, res) => {
      sent++;
      res.writeHead(204).end();
    });
    const queue = oneSlot();
    // The slot's fetch claims the job, then returns only once stop() has begun.
    let fetched!: () => void;
    const claimed = new Promise<void>((resolve) => (fetched = resolve));
    let letGo!: () => void;
    const gate = new Promise<void>((resolve) => (letGo = resolve));
    const fetch = queue.boss.fetch.bind(queue.boss) as (name: string, options: PgBoss.FetchOptions) => Promise<PgBoss.Job<unknown>[]>;
    queue.boss.fetch = (async (name: string, options: PgBoss.FetchOptions) => {
      const jobs = await fetch(name, options);
      if (jobs.length) {
        fetched();
        await gate;
      }
      return jobs;
    }) as typeof queue.boss.fetch;
    try {
      await queue.startWorker(h.services.db);
      const team = await world.team();
      const hook = await world.callers.admin.webhooks.create({ teamId: team.id, url, events: ["prompt.created"] });
      const { deliveryId } = await world.callers.admin.webhooks.test({ id: hook.id });
      await claimed;
      expect((await jobOf(deliveryId))?.state).toBe("active");
      const stopped = queue.stop();
      letGo();
      await stopped;
      const job = await jobOf(deliveryId);
      expect(job?.state).toBe("retry");
      expect(job?.output?.message).toMatch(/stopped before the delivery attempt/);
      expect(sent).toBe(0);
      expect((await h.database.db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } })).attempts).toBe(0);
    } finally {
      letGo();
      await queue.stop();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("fails a job that throws at once (no data), and the slot sends the next delivery, even when onError throws", async () => {
    const { server, url } = await receiver((_req, res) => res.writeHead(204).end());
    const errors: unknown[] = [];
    const queue = oneSlot({
      onError: (error) => {
        errors.push(error);
        throw new Error("onError failed");
      },
    });
    try {
      await queue.startWorker(h.services.db);
      const broken = await queue.boss.send(WEBHOOK_QUEUE, null as unknown as object);
      expect(broken).toBeTruthy();
      const state = async () => (await h.database.db.$queryRaw<{ state: string }[]>`SELECT state::text FROM pgboss.job WHERE id = ${broken}::uuid`)[0]?.state;
      await expect.poll(state, { timeout: 10_000 }).toBe("retry");
      expect(errors.some((error) => error instanceof TypeError)).toBe(true);
      const team = await world.team();
      const hook = await world.callers.admin.webhooks.create({ teamId: team.id, url, events: ["prompt.created"] });
      const { deliveryId } = await world.callers.admin.webhooks.test({ id: hook.id });
      await expect.poll(() => status(deliveryId), { timeout: 10_000 }).toBe("succeeded");
    } finally {
      await queue.stop();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("writes nothing for an abandoned attempt that ends after the delivery was claimed again", async () => {
    const holder = await rowHolder();
    // The receiver fails, then the row is held: the outcome's write (a retry scheduled, its job queued) waits.
    const { server, url } = await receiver((req, res) => void holder.hold(String(req.headers["promptly-delivery"])).then(() => res.writeHead(500).end()));
    try {
      const team = await world.team();
      const hook = await world.callers.admin.webhooks.create({ teamId: team.id, url, events: ["prompt.created"] });
      const { deliveryId } = await world.callers.admin.webhooks.test({ id: hook.id });
      const jobs = async () => (await h.database.db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM pgboss.job WHERE data->>'deliveryId' = ${deliveryId}`)[0]!.n;
      const queued = await jobs();
      const late = attemptDelivery({ db: h.services.db, config: h.services.config, timings: { retryBaseMs: 60_000, maxAttempts: 8, timeoutMs: 5_000 } }, deliveryId);
      await expect.poll(waitingOnDelivery, { timeout: 10_000 }).toBe(1);
      await holder.claimAgain(deliveryId);
      await late;
      const row = await h.database.db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
      expect(row).toMatchObject({ status: "pending", attempts: 2, lastStatusCode: null, lastError: null });
      expect(await jobs()).toBe(queued);
    } finally {
      await holder.release();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
