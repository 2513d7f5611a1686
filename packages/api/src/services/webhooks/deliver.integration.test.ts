// A delivery whose subscription's secret no longer opens (the app secret was changed, or the database
// restored under another one) fails its attempts like an unreachable receiver does: each attempt counts,
// is recorded with a reason and waits its delay, and the last one fails it for good. It never throws out
// of the attempt, which left the delivery pending for the sweep to queue again every few minutes, forever.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WEBHOOK_MSG } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createWorld } from "../../../testing/teams-support.ts";
import { sealSecret } from "../platform/secret-box.ts";
import { attemptDelivery } from "./deliver.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createWorld>>;

beforeAll(async () => {
  h = await createHarness();
  world = await createWorld(h);
});
afterAll(() => h.close());

describe("attemptDelivery", () => {
  it("counts a secret that no longer opens as a failed attempt, retried with its delay and given up after the last", async () => {
    const db = h.database.db;
    const team = await world.team();
    const { id } = await world.callers.admin.webhooks.create({ teamId: team.id, url: "https://hooks.example.com/promptly", events: ["prompt.created"] });
    await world.callers.admin.prompts.create({ teamId: team.id, name: "p", title: "P", visibility: "team", type: "text", template: "Hi" });
    const delivery = await db.webhookDelivery.findFirstOrThrow({ where: { subscriptionId: id } });
    // Sealed under another app secret: what a changed APP_SECRET leaves in the table.
    const foreign = sealSecret("another-app-secret-another-app-secret-0", "webhook secret v1", id, Buffer.from("whsec_x"));
    await db.$executeRaw`UPDATE webhook_subscriptions SET secret_sealed = ${foreign} WHERE id = ${id}::uuid`;

    const deps = { db, config: h.services.config, timings: { retryBaseMs: 60_000, maxAttempts: 2, timeoutMs: 2_000 } };
    const before = Date.now();
    expect(await attemptDelivery(deps, delivery.id)).toBe("retrying");
    const first = await db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } });
    expect(first).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: null });
    expect(first.lastError).toBe(WEBHOOK_MSG.secretUnreadable);
    expect(first.nextAttemptAt!.getTime()).toBeGreaterThanOrEqual(before + 60_000);

    await db.$executeRaw`UPDATE webhook_deliveries SET next_attempt_at = now() WHERE id = ${delivery.id}::uuid`;
    expect(await attemptDelivery(deps, delivery.id)).toBe("failed");
    const last = await db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } });
    expect(last).toMatchObject({ status: "failed", attempts: 2, nextAttemptAt: null });
    expect(last.lastError).toBe(WEBHOOK_MSG.secretUnreadable);
  });
});
