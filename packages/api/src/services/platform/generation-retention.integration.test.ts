// Production generations are kept per organization for its retention (90 days unless its admins
// set another, 1 to 3,650): housekeeping drops a month's partition whole once every organization is
// done with it, and deletes row by row the older generations of an organization keeping fewer days.
// The hourly rollups stay, so the figures read from them do not change.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { CALLER_KINDS, createWorld, failure, outcome } from "../../../testing/teams-support.ts";
import { pruneExpired } from "./housekeeping.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createWorld>>;
beforeAll(async () => {
  h = await createHarness();
  world = await createWorld(h);
});
afterAll(() => h.close());

const DAY = 24 * 60 * 60_000;

/** Organization admins (and super users) change the organization's settings; nobody else. */
const EXPECTED: Record<(typeof CALLER_KINDS)[number], string> = {
  anonymous: "UNAUTHORIZED",
  outsider: "NOT_FOUND",
  orgMember: "FORBIDDEN",
  viewer: "FORBIDDEN",
  editor: "FORBIDDEN",
  admin: "FORBIDDEN",
  orgAdmin: "OK",
  superUser: "OK",
};

describe("organizations.settings and organizations.updateSettings", () => {
  it.each(CALLER_KINDS)("as %s", async (kind) => {
    const organizationId = world.organization.id;
    expect(await outcome(world.callers[kind].organizations.settings({ organizationId }))).toBe(EXPECTED[kind]);
    expect(await outcome(world.callers[kind].organizations.updateSettings({ organizationId, generationRetentionDays: 45 }))).toBe(EXPECTED[kind]);
  });

  it("keeps 90 days by default, takes 1 to 3,650, and audits a change", async () => {
    const organization = await h.database.db.organization.create({ data: { name: "Retention defaults" } });
    await h.database.db.organizationMember.create({ data: { organizationId: organization.id, userId: world.accounts.orgAdmin.id, role: "admin" } });
    const admin = world.callers.orgAdmin.organizations;
    expect(await admin.settings({ organizationId: organization.id })).toEqual({ generationRetentionDays: 90 });
    expect(await failure(admin.updateSettings({ organizationId: organization.id, generationRetentionDays: 0 }))).toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("at least 1 day") });
    expect(await failure(admin.updateSettings({ organizationId: organization.id, generationRetentionDays: 3651 }))).toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("at most 3,650 days") });
    expect(await failure(admin.updateSettings({ organizationId: organization.id, generationRetentionDays: 7.5 }))).toMatchObject({ code: "BAD_REQUEST" });
    expect(await admin.updateSettings({ organizationId: organization.id, generationRetentionDays: 30 })).toEqual({ generationRetentionDays: 30 });
    expect(await admin.settings({ organizationId: organization.id })).toEqual({ generationRetentionDays: 30 });
    const audited = await h.database.db.auditEvent.findMany({ where: { organizationId: organization.id, action: "organization.settings" }, select: { before: true, after: true } });
    expect(audited).toEqual([{ before: { generationRetentionDays: 90 }, after: { generationRetentionDays: 30 } }]);
  });
});

describe("housekeeping keeps generations for their organization's retention", () => {
  it("drops a month past every organization's retention whole, deletes the older rows of an organization keeping fewer days, keeps rollups", async () => {
    const db = h.database.db;
    // The databases of this file are its own: only these organizations' retentions count.
    const now = h.clock.now();
    const longKeeper = await db.organization.create({ data: { name: "Keeps 120 days", generationRetentionDays: 120 } });
    const shortKeeper = await db.organization.create({ data: { name: "Keeps 30 days", generationRetentionDays: 30 } });
    await db.organization.updateMany({ where: { id: { notIn: [longKeeper.id, shortKeeper.id] } }, data: { generationRetentionDays: 120 } });
    const teams = {
      long: await db.team.create({ data: { name: "Long", organizationId: longKeeper.id } }),
      short: await db.team.create({ data: { name: "Short", organizationId: shortKeeper.id } }),
    };
    const ago = (days: number) => new Date(now.getTime() - days * DAY);
    // Each month these rows fall in gets its partition first (as housekeeping would have made it then).
    const ages = [10, 45, 100, 200];
    for (const days of ages) await db.$queryRaw`SELECT production_ensure_generation_partition(${ago(days)}::timestamptz)::text`;
    for (const [who, team] of Object.entries(teams)) {
      for (const days of ages) {
        await db.$executeRaw`INSERT INTO generations (organization_id, team_id, prompt_name, observation_id, source, started_at, status)
                             VALUES (${team.organizationId}::uuid, ${team.id}::uuid, 'p', ${`${who}-${days}`}, 'api', ${ago(days)}, 'ok')`;
      }
    }
    const prompt = await db.prompt.create({
      data: { organizationId: longKeeper.id, teamId: teams.long.id, name: "kept-figures", title: "Kept figures", visibility: "team", latestVersion: 1 },
    });
    await db.$executeRaw`INSERT INTO generation_rollups (prompt_id, version, environment, model, hour, generations) VALUES (${prompt.id}::uuid, 1, 'default', '', ${ago(200)}, 3)`;
    const partitionOf = (date: Date) => `generations_${date.getUTCFullYear()}_${String(date.getUTCMonth() + 1).padStart(2, "0")}`;
    const exists = async (name: string) => (await db.$queryRaw<{ found: boolean }[]>`SELECT to_regclass(${name}) IS NOT NULL AS found`)[0]!.found;
    const kept = async () =>
      (await db.$queryRaw<{ observation_id: string }[]>`SELECT observation_id FROM generations WHERE observation_id ~ '^(long|short)-' ORDER BY 1`).map((row) => row.observation_id);

    const result = await pruneExpired(db, now);
    // 200 days ago: the month ended before 120 days ago, past everyone's retention: its partition is gone.
    expect(await exists(partitionOf(ago(200)))).toBe(false);
    // 100 days ago: inside the longest retention, so its month stays (unless it is the 200 days' month, as never: they are months apart).
    expect(await exists(partitionOf(ago(100)))).toBe(true);
    // The 30-day organization loses its rows of 45 and 100 days row by row; the 120-day one keeps them.
    expect(await kept()).toEqual(["long-10", "long-100", "long-45", "short-10"]);
    expect(result.generationPartitions).toBeGreaterThanOrEqual(1);
    expect(result.generations).toBe(2);
    // The rollups are kept, the 200 days' hour among them.
    expect(await db.$queryRaw`SELECT generations FROM generation_rollups WHERE prompt_id = ${prompt.id}::uuid`).toEqual([{ generations: 3 }]);

    // Run again: nothing more to delete.
    expect(await pruneExpired(db, now)).toMatchObject({ generations: 0, generationPartitions: 0 });
    expect(await kept()).toEqual(["long-10", "long-100", "long-45", "short-10"]);
  });
});
