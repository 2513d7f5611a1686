// A delivery that no retry can mend fails at its first attempt, with its reason in the deliveries list:
// a subscription secret that no longer opens (the app secret was changed, or the database restored under
// another one), a body that cannot be written, a URL whose own host the outbound rule refuses (a private
// IP literal, saved while private receivers were allowed) or whose port fetch never calls (saved before
// create and update refused it).
// A receiver that cannot be reached is still retried with its delay.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { WEBHOOK_MSG, webhookPortBlocked } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createWorld } from "../../../testing/teams-support.ts";
import { countAsPublicInTests } from "../platform/outbound.ts";
import { sealSecret } from "../platform/secret-box.ts";
import { attemptDelivery } from "./deliver.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createWorld>>;

beforeAll(async () => {
  h = await createHarness();
  world = await createWorld(h);
});
afterAll(() => h.close());

const db = () => h.database.db;
// As in production: private and loopback receivers refused when the delivery is sent.
const deps = () => ({ db: db(), config: { ...h.services.config, allowPrivateWebhookUrls: false }, timings: { retryBaseMs: 60_000, maxAttempts: 8, timeoutMs: 2_000 } });

/** A team with one webhook and one delivery of `prompt.created` to it, pending. */
async function pendingDelivery() {
  const team = await world.team();
  const { id } = await world.callers.admin.webhooks.create({ teamId: team.id, url: "https://hooks.example.com/promptly", events: ["prompt.created"] });
  await world.callers.admin.prompts.create({ teamId: team.id, name: "p", title: "P", visibility: "team", type: "text", template: "Hi" });
  const delivery = await db().webhookDelivery.findFirstOrThrow({ where: { subscriptionId: id } });
  return { team, subscriptionId: id, deliveryId: delivery.id };
}

async function expectFailedAtOnce(deliveryId: string, error: string) {
  expect(await attemptDelivery(deps(), deliveryId)).toBe("failed");
  const row = await db().webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
  expect(row).toMatchObject({ status: "failed", attempts: 1, lastStatusCode: null, lastError: error, nextAttemptAt: null });
}

describe("attemptDelivery", () => {
  it("fails a delivery whose secret no longer opens at its first attempt, a test ping and a redelivery too, with the reason in the deliveries list", async () => {
    const { subscriptionId, deliveryId } = await pendingDelivery();
    // Sealed under another app secret: what a changed APP_SECRET leaves in the table.
    const foreign = sealSecret("another-app-secret-another-app-secret-0", "webhook secret v1", subscriptionId, Buffer.from("whsec_x"));
    await db().$executeRaw`UPDATE webhook_subscriptions SET secret_sealed = ${foreign} WHERE id = ${subscriptionId}::uuid`;

    await expectFailedAtOnce(deliveryId, WEBHOOK_MSG.secretUnreadable);
    const { deliveryId: pingId } = await world.callers.admin.webhooks.test({ id: subscriptionId });
    await expectFailedAtOnce(pingId, WEBHOOK_MSG.secretUnreadable);
    await world.callers.admin.webhooks.redeliver({ deliveryId });
    await expectFailedAtOnce(deliveryId, WEBHOOK_MSG.secretUnreadable);

    const page = await world.callers.admin.webhooks.deliveries({ subscriptionId });
    expect(page.items.map(({ id, status, error, nextAttemptAt }) => ({ id, status, error, nextAttemptAt })).sort((a, b) => a.id.localeCompare(b.id))).toEqual(
      [deliveryId, pingId].sort().map((id) => ({ id, status: "failed", error: WEBHOOK_MSG.secretUnreadable, nextAttemptAt: null })),
    );
  });

  it("fails a delivery whose body cannot be written at its first attempt", async () => {
    const { subscriptionId, deliveryId } = await pendingDelivery();
    // A Slack message needs the event's actor: a payload without one cannot be written, at any attempt.
    await db().$executeRaw`UPDATE webhook_subscriptions SET slack = true WHERE id = ${subscriptionId}::uuid`;
    await db().$executeRaw`UPDATE webhook_deliveries SET payload = payload #- '{data,actor}' WHERE id = ${deliveryId}::uuid`;
    expect(await attemptDelivery(deps(), deliveryId)).toBe("failed");
    const row = await db().webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
    expect(row).toMatchObject({ status: "failed", attempts: 1, nextAttemptAt: null });
    expect(row.lastError).toMatch(/\S/);
  });

  it.each(["http://10.1.2.3/hook", "http://[::1]:8080/hook", "http://127.0.0.1:8080/hook"])(
    "fails a delivery to %s, refused by the outbound rule, at its first attempt",
    async (url) => {
      const { subscriptionId, deliveryId } = await pendingDelivery();
      // Saved while private receivers were allowed; they no longer are.
      await db().$executeRaw`UPDATE webhook_subscriptions SET url = ${url} WHERE id = ${subscriptionId}::uuid`;
      await expectFailedAtOnce(deliveryId, WEBHOOK_MSG.urlPrivate);
    },
  );

  // Port 0 is on the Fetch standard's list but not (yet) undici's: refused here before fetch sees it.
  it.each(["https://hooks.example.com:25/hook", "http://93.184.215.14:6000/hook", "http://hooks.example.com:0/hook"])(
    "fails a delivery to %s, a port fetch never calls, at its first attempt",
    async (url) => {
      const { subscriptionId, deliveryId } = await pendingDelivery();
      await db().$executeRaw`UPDATE webhook_subscriptions SET url = ${url} WHERE id = ${subscriptionId}::uuid`;
      await expectFailedAtOnce(deliveryId, WEBHOOK_MSG.urlPortBlocked);
    },
  );

  it("refuses before sending every port undici's fetch refuses, and besides them only port 0", () => {
    const undiciBadPorts = (createRequire(import.meta.url)("undici/lib/web/fetch/constants.js") as { badPorts: readonly string[] }).badPorts;
    const blocked = Array.from({ length: 65536 }, (_, port) => String(port)).filter((port) => webhookPortBlocked(`https://hooks.example.com:${port}/hook`));
    expect(new Set(blocked)).toEqual(new Set(["0", ...undiciBadPorts]));
    expect(webhookPortBlocked("https://hooks.example.com/hook")).toBe(false);
  });

  it("retries a receiver that refuses the connection, with its delay, and fails it after the last attempt", async () => {
    const { subscriptionId, deliveryId } = await pendingDelivery();
    // A port nobody listens on, at an address counted as public.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await db().$executeRaw`UPDATE webhook_subscriptions SET url = ${`http://127.0.0.1:${port}/hook`} WHERE id = ${subscriptionId}::uuid`;
    const restore = countAsPublicInTests(["127.0.0.1"]);
    try {
      const twoAttempts = { ...deps(), timings: { ...deps().timings, maxAttempts: 2 } };
      const before = Date.now();
      expect(await attemptDelivery(twoAttempts, deliveryId)).toBe("retrying");
      const first = await db().webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
      expect(first).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: null });
      expect(first.lastError).toMatch(/ECONNREFUSED/);
      expect(first.nextAttemptAt!.getTime()).toBeGreaterThanOrEqual(before + 60_000);

      await db().$executeRaw`UPDATE webhook_deliveries SET next_attempt_at = now() WHERE id = ${deliveryId}::uuid`;
      expect(await attemptDelivery(twoAttempts, deliveryId)).toBe("failed");
      expect(await db().webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } })).toMatchObject({ status: "failed", attempts: 2, nextAttemptAt: null });
    } finally {
      restore();
    }
  });
});
