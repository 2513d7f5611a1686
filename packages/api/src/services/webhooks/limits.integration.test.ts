// What bounds the deliveries one team can cause: every subscription gets its own delivery of each event,
// so a team has at most WEBHOOKS_PER_TEAM_MAX of them, and a webhook's test is sent at most once every
// WEBHOOK_TEST_INTERVAL_SECONDS.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WEBHOOK_MSG, WEBHOOKS_PER_TEAM_MAX } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createWorld, failure } from "../../../testing/teams-support.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createWorld>>;

beforeAll(async () => {
  h = await createHarness();
  world = await createWorld(h);
});
afterAll(() => h.close());

const db = () => h.database.db;
const settings = (n: number) => ({ url: `https://hooks.example.com/promptly/${n}`, events: ["prompt.created" as const] });

describe("webhook limits", () => {
  it(`refuses a team's webhook past ${WEBHOOKS_PER_TEAM_MAX}, writing nothing, while another team may still add one`, async () => {
    const team = await world.team();
    for (let n = 0; n < WEBHOOKS_PER_TEAM_MAX; n++) await world.callers.admin.webhooks.create({ teamId: team.id, ...settings(n) });
    const audited = () => db().auditEvent.count({ where: { teamId: team.id, action: "webhook.create" } });
    const auditedBefore = await audited();

    expect(await failure(world.callers.admin.webhooks.create({ teamId: team.id, ...settings(WEBHOOKS_PER_TEAM_MAX) }))).toEqual({
      code: "CONFLICT",
      message: WEBHOOK_MSG.tooManyWebhooks,
    });
    expect(await db().webhookSubscription.count({ where: { teamId: team.id } })).toBe(WEBHOOKS_PER_TEAM_MAX);
    expect(await audited()).toBe(auditedBefore);

    const other = await world.team();
    await world.callers.admin.webhooks.create({ teamId: other.id, ...settings(0) });
    // A deleted one makes room again.
    const [oldest] = await world.callers.admin.webhooks.list({ teamId: team.id });
    await world.callers.admin.webhooks.delete({ id: oldest!.id });
    await world.callers.admin.webhooks.create({ teamId: team.id, ...settings(WEBHOOKS_PER_TEAM_MAX) });
  });

  it("refuses a second create past the cap when both run at once", async () => {
    const team = await world.team();
    for (let n = 0; n < WEBHOOKS_PER_TEAM_MAX - 1; n++) await world.callers.admin.webhooks.create({ teamId: team.id, ...settings(n) });
    const results = await Promise.allSettled([0, 1, 2].map((n) => world.callers.admin.webhooks.create({ teamId: team.id, ...settings(100 + n) })));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await db().webhookSubscription.count({ where: { teamId: team.id } })).toBe(WEBHOOKS_PER_TEAM_MAX);
  });

  it("refuses a second test of the same webhook within the interval, and sends none for it; another webhook's test still goes", async () => {
    const team = await world.team();
    const first = await world.callers.admin.webhooks.create({ teamId: team.id, ...settings(0) });
    const second = await world.callers.admin.webhooks.create({ teamId: team.id, ...settings(1) });
    await world.callers.admin.webhooks.test({ id: first.id });

    expect(await failure(world.callers.admin.webhooks.test({ id: first.id }))).toEqual({ code: "TOO_MANY_REQUESTS", message: WEBHOOK_MSG.testTooSoon });
    expect(await db().webhookDelivery.count({ where: { subscriptionId: first.id, event: "ping" } })).toBe(1);
    await world.callers.admin.webhooks.test({ id: second.id });
    expect(await db().webhookDelivery.count({ where: { subscriptionId: second.id, event: "ping" } })).toBe(1);
  });

  it("sends one of two tests of a webhook asked at the same moment (its row is held while it looks)", async () => {
    const team = await world.team();
    const hook = await world.callers.admin.webhooks.create({ teamId: team.id, ...settings(0) });
    const results = await Promise.allSettled([world.callers.admin.webhooks.test({ id: hook.id }), world.callers.admin.webhooks.test({ id: hook.id })]);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    expect(await db().webhookDelivery.count({ where: { subscriptionId: hook.id, event: "ping" } })).toBe(1);
  });
});
