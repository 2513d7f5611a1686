// Every audited action writes exactly one event, with its actor, target and
// before/after, in the transaction of the change (a refused change writes none); the database refuses
// UPDATE and DELETE of an event; the label history lets a label be rolled back. Then who may read the
// organization's log and a prompt's activity, with filters and keyset pages.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { createHarness, uniqueEmail, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld, createPrompt, outcome } from "../../../testing/prompts-support.ts";
import { createSignedInAccount } from "../../../testing/teams-support.ts";
import { totp } from "../../../testing/security-support.ts";
import { setSuperUser } from "../../services/identity/super-users.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createLibraryWorld>>;

beforeAll(async () => {
  h = await createHarness({ rateLimits: false });
  world = await createLibraryWorld(h);
});
afterAll(async () => h?.close());

type Event = Awaited<ReturnType<Harness["database"]["db"]["auditEvent"]["findMany"]>>[number];
const allEvents = () => h.database.db.auditEvent.findMany({ orderBy: [{ createdAt: "asc" }, { seq: "asc" }] });

/** Runs `change` and answers the events it wrote, in order. */
async function eventsOf(change: () => Promise<unknown>): Promise<Event[]> {
  const before = new Set((await allEvents()).map((event) => event.id));
  h.clock.advance(1000);
  await change();
  return (await allEvents()).filter((event) => !before.has(event.id));
}

/** Runs `change` and answers the one event it wrote (failing when it wrote none or more). */
async function oneEvent(change: () => Promise<unknown>): Promise<Event> {
  const written = await eventsOf(change);
  expect(written.map((event) => event.action)).toHaveLength(1);
  return written[0]!;
}

interface Expectation {
  action: string;
  actorId: string | null;
  actorKind?: "user" | "api_key" | "cli";
  organizationId: string | null;
  targetType: string;
  targetId?: string;
  before?: unknown;
  after?: unknown;
}

function expectEvent(event: Event, expected: Expectation) {
  expect(event).toMatchObject({
    action: expected.action,
    actorKind: expected.actorKind ?? "user",
    actorId: expected.actorId,
    organizationId: expected.organizationId,
    targetType: expected.targetType,
    ...(expected.targetId ? { targetId: expected.targetId } : {}),
  });
  if (expected.before !== undefined) expect(event.before).toMatchObject(expected.before as object);
  if (expected.after !== undefined) expect(event.after).toMatchObject(expected.after as object);
  // Stamped with the services' clock at the change.
  expect(event.createdAt.getTime()).toBeLessThanOrEqual(h.clock.now().getTime());
  expect(event.createdAt.getTime()).toBeGreaterThan(h.clock.now().getTime() - 60_000);
}

describe("every audited action writes exactly one event", () => {
  it("organizations, teams, members, invitations, prompts, labels, keys, two-factor and super users", async () => {
    const { superUser, orgAdmin, orgMember, author } = world.accounts;
    const su = superUser.api;
    const state: Record<string, string> = {};
    const orgId = world.organization.id;
    const newcomer = await createSignedInAccount(h, { fullName: "Nina Newcomer" });
    state.newcomer = newcomer.id;

    // [what, change, expected event]: run in order, each on what the ones before made.
    const table: [string, () => Promise<unknown>, () => Expectation][] = [
      ["organization.create", async () => (state.org = (await su.organizations.create({ name: "Audited" })).id),
        () => ({ action: "organization.create", actorId: superUser.id, organizationId: state.org!, targetType: "organization", targetId: state.org!, after: { name: "Audited" } })],
      ["organization.rename", () => su.organizations.update({ id: state.org!, name: "Audited Inc" }),
        () => ({ action: "organization.rename", actorId: superUser.id, organizationId: state.org!, targetType: "organization", before: { name: "Audited" }, after: { name: "Audited Inc" } })],
      ["team.create", async () => (state.team = (await orgAdmin.api.teams.create({ organizationId: orgId, name: "Audit" })).id),
        () => ({ action: "team.create", actorId: orgAdmin.id, organizationId: orgId, targetType: "team", targetId: state.team!, after: { name: "Audit" } })],
      ["team.rename", () => orgAdmin.api.teams.rename({ id: state.team!, name: "Audit 2" }),
        () => ({ action: "team.rename", actorId: orgAdmin.id, organizationId: orgId, targetType: "team", before: { name: "Audit" }, after: { name: "Audit 2" } })],
      ["team.settings", () => orgAdmin.api.teams.updateSettings({ id: state.team!, requiredApprovals: 2 }),
        () => ({ action: "team.settings", actorId: orgAdmin.id, organizationId: orgId, targetType: "team", before: { requiredApprovals: 0 }, after: { requiredApprovals: 2 } })],
      ["member.add (a colleague joins the team at once)", () => orgAdmin.api.invites.create({ teamId: state.team!, email: orgMember.email, role: "viewer" }),
        () => ({ action: "member.add", actorId: orgAdmin.id, organizationId: orgId, targetType: "user", targetId: orgMember.id, after: { role: "viewer" } })],
      ["member.role (team)", async () => {
        const member = (await orgAdmin.api.teamMembers.list({ teamId: state.team! })).find((m) => m.userId === orgMember.id)!;
        state.teamMember = member.id;
        return orgAdmin.api.teamMembers.updateRole({ id: member.id, role: "editor" });
      }, () => ({ action: "member.role", actorId: orgAdmin.id, organizationId: orgId, targetType: "user", targetId: orgMember.id, before: { role: "viewer" }, after: { role: "editor" } })],
      ["member.remove (team)", () => orgAdmin.api.teamMembers.remove({ id: state.teamMember! }),
        () => ({ action: "member.remove", actorId: orgAdmin.id, organizationId: orgId, targetType: "user", targetId: orgMember.id, before: { role: "editor" } })],
      ["invite.create (team)", async () => {
        const answer = await orgAdmin.api.invites.create({ teamId: state.team!, email: (state.email = uniqueEmail("invitee")), role: "editor" });
        if (answer.status === "invited") state.invite = answer.invite.id;
      }, () => ({ action: "invite.create", actorId: orgAdmin.id, organizationId: orgId, targetType: "invite", targetId: state.invite!, after: { role: "editor" } })],
      ["invite.revoke (team)", () => orgAdmin.api.invites.cancel({ id: state.invite! }),
        () => ({ action: "invite.revoke", actorId: orgAdmin.id, organizationId: orgId, targetType: "invite", targetId: state.invite!, before: { role: "editor" } })],
      ["invite.create (organization)", async () => {
        const answer = await orgAdmin.api.organizationMembers.add({ organizationId: orgId, email: uniqueEmail("org-invitee"), role: "member" });
        if (answer.status === "invited") state.orgInvite = answer.invite.id;
      }, () => ({ action: "invite.create", actorId: orgAdmin.id, organizationId: orgId, targetType: "invite", targetId: state.orgInvite!, after: { role: "member" } })],
      ["invite.revoke (organization)", () => orgAdmin.api.organizationInvites.cancel({ id: state.orgInvite! }),
        () => ({ action: "invite.revoke", actorId: orgAdmin.id, organizationId: orgId, targetType: "invite", targetId: state.orgInvite! })],
      ["invite.create (team, someone with an account outside the organization)", async () => {
        const answer = await orgAdmin.api.invites.create({ teamId: state.team!, email: newcomer.email, role: "viewer" });
        if (answer.status === "invited") state.acceptedInvite = answer.invite.id;
      }, () => ({ action: "invite.create", actorId: orgAdmin.id, organizationId: orgId, targetType: "invite", targetId: state.acceptedInvite!, after: { role: "viewer" } })],
      ["invite.accept", () => newcomer.api.invites.accept({ id: state.acceptedInvite! }), () => ({ action: "invite.accept", actorId: state.newcomer!, organizationId: orgId, targetType: "invite", targetId: state.acceptedInvite!, after: { addedToOrganization: true, addedToTeam: true } })],
      ["member.role (organization)", async () => {
        const member = (await orgAdmin.api.organizationMembers.list({ organizationId: orgId })).find((m) => m.userId === state.newcomer)!;
        state.orgMember = member.id;
        return orgAdmin.api.organizationMembers.updateRole({ id: member.id, role: "admin" });
      }, () => ({ action: "member.role", actorId: orgAdmin.id, organizationId: orgId, targetType: "user", targetId: state.newcomer!, before: { role: "member" }, after: { role: "admin" } })],
      ["member.remove (organization)", () => orgAdmin.api.organizationMembers.remove({ id: state.orgMember! }),
        () => ({ action: "member.remove", actorId: orgAdmin.id, organizationId: orgId, targetType: "user", targetId: state.newcomer!, before: { role: "admin" } })],
      ["api_key.create", async () => (state.key = (await orgAdmin.api.apiKeys.create({ teamId: state.team!, name: "Deploy bot" })).id),
        () => ({ action: "api_key.create", actorId: orgAdmin.id, organizationId: orgId, targetType: "api_key", targetId: state.key!, after: { name: "Deploy bot" } })],
      ["api_key.revoke", () => orgAdmin.api.apiKeys.revoke({ id: state.key! }),
        () => ({ action: "api_key.revoke", actorId: orgAdmin.id, organizationId: orgId, targetType: "api_key", targetId: state.key! })],
      ["team.delete", () => orgAdmin.api.teams.delete({ id: state.team! }),
        () => ({ action: "team.delete", actorId: orgAdmin.id, organizationId: orgId, targetType: "team", targetId: state.team!, before: { name: "Audit 2" } })],
      ["organization.delete", () => su.organizations.delete({ id: state.org! }),
        () => ({ action: "organization.delete", actorId: superUser.id, organizationId: state.org!, targetType: "organization", targetId: state.org! })],
      ["super_user.grant (command line)", () => setSuperUser(h.database.db, author.id, true, h.clock.now()),
        () => ({ action: "super_user.grant", actorId: null, actorKind: "cli", organizationId: null, targetType: "user", targetId: author.id, after: { superUser: true } })],
      ["super_user.revoke (command line)", () => setSuperUser(h.database.db, author.id, false, h.clock.now()),
        () => ({ action: "super_user.revoke", actorId: null, actorKind: "cli", organizationId: null, targetType: "user", targetId: author.id, after: { superUser: false } })],
    ];
    for (const [what, change, expected] of table) {
      const event = await oneEvent(change);
      expect([what, event.action]).toEqual([what, expected().action]);
      expectEvent(event, expected());
    }
    // What names it outlives what it names: the organization, team and key are gone, their rows stay readable.
    const gone = await h.database.db.auditEvent.findMany({ where: { organizationId: state.org! }, orderBy: [{ createdAt: "asc" }, { seq: "asc" }] });
    expect(gone.map((event) => [event.action, event.targetName])).toEqual([
      ["organization.create", "Audited"],
      ["organization.rename", "Audited Inc"],
      ["organization.delete", "Audited Inc"],
    ]);
    expect(await h.database.db.auditEvent.count({ where: { teamId: state.team! } })).toBeGreaterThan(5);
  });

  it("prompts: create, version, details, rename, labels, archive, restore, delete", async () => {
    const team = await world.team("Prompts");
    const { admin, author } = world.accounts;
    const org = world.organization.id;
    let promptId = "";
    const prompt = (expected: Omit<Expectation, "organizationId" | "targetType" | "targetId">) => () => ({ ...expected, organizationId: org, targetType: "prompt", targetId: promptId });
    const table: [() => Promise<unknown>, () => Expectation][] = [
      [async () => (promptId = (await createPrompt(author.api, team.id, { name: "audited-prompt", visibility: "team" })).id),
        prompt({ action: "prompt.create", actorId: author.id, after: { name: "audited-prompt", version: 1 } })],
      [() => author.api.promptVersions.create({ promptId, type: "text", template: "Version 2", commitMessage: "Second" }),
        prompt({ action: "prompt.version", actorId: author.id, after: { version: 2, commitMessage: "Second" } })],
      [() => author.api.prompts.update({ id: promptId, title: "Better title" }), prompt({ action: "prompt.update", actorId: author.id, after: { title: "Better title" } })],
      [() => admin.api.prompts.rename({ id: promptId, name: "audited-renamed" }),
        prompt({ action: "prompt.rename", actorId: admin.id, before: { name: "audited-prompt" }, after: { name: "audited-renamed" } })],
      [() => admin.api.promptLabels.set({ promptId, label: "production", version: 1 }),
        prompt({ action: "prompt.label.set", actorId: admin.id, before: { label: "production", version: null }, after: { label: "production", version: 1 } })],
      [() => admin.api.promptLabels.set({ promptId, label: "production", version: 2 }),
        prompt({ action: "prompt.label.set", actorId: admin.id, before: { label: "production", version: 1 }, after: { label: "production", version: 2 } })],
      [() => author.api.promptLabels.set({ promptId, label: "staging", version: 2 }), prompt({ action: "prompt.label.set", actorId: author.id, after: { label: "staging", version: 2 } })],
      [() => author.api.promptLabels.remove({ promptId, label: "staging" }),
        prompt({ action: "prompt.label.remove", actorId: author.id, before: { label: "staging", version: 2 }, after: { label: "staging", version: null } })],
      [() => admin.api.prompts.archive({ id: promptId }), prompt({ action: "prompt.archive", actorId: admin.id })],
      [() => admin.api.prompts.restore({ id: promptId }), prompt({ action: "prompt.restore", actorId: admin.id })],
      [() => admin.api.prompts.archive({ id: promptId }), prompt({ action: "prompt.archive", actorId: admin.id })],
      [() => admin.api.prompts.delete({ id: promptId }), prompt({ action: "prompt.delete", actorId: admin.id })],
    ];
    for (const [change, expected] of table) expectEvent(await oneEvent(change), expected());
    // The prompt is gone; its history stays, with its name.
    const history = await h.database.db.auditEvent.findMany({ where: { promptId }, orderBy: [{ createdAt: "asc" }, { seq: "asc" }] });
    expect(history).toHaveLength(table.length);
    expect(history.at(-1)).toMatchObject({ action: "prompt.delete", targetName: "audited-renamed", teamId: team.id });
  });

  it("change requests: the request (review requested), approve (which moves the label, recorded too) and reject", async () => {
    const team = await world.team("Reviewed");
    const { admin, author } = world.accounts;
    await h.database.db.team.update({ where: { id: team.id }, data: { requiredApprovals: 1 } });
    const { id: promptId } = await createPrompt(author.api, team.id, { visibility: "team" });
    await author.api.promptVersions.create({ promptId, type: "text", template: "Two" });
    let first = { id: "" };
    const requested = await oneEvent(async () => (first = await author.api.changeRequests.create({ promptId, label: "production", version: 2, message: "Ship" })));
    expect(requested).toMatchObject({
      action: "change_request.create", actorId: author.id, promptId, teamId: team.id, targetType: "change_request", targetId: first.id,
      before: { label: "production", version: null }, after: { label: "production", version: 2, message: "Ship" },
    });
    const approved = await eventsOf(() => admin.api.changeRequests.approve({ id: first.id }));
    expect(approved.map((event) => event.action)).toEqual(["prompt.label.set", "change_request.approve"]);
    expect(approved[1]).toMatchObject({ actorId: admin.id, promptId, targetType: "change_request", targetId: first.id, after: { label: "production", version: 2, status: "approved" } });
    const second = await author.api.changeRequests.create({ promptId, label: "production", version: 1, message: "Back" });
    const rejected = await oneEvent(() => admin.api.changeRequests.reject({ id: second.id, comment: "No" }));
    expect(rejected).toMatchObject({ action: "change_request.reject", actorId: admin.id, promptId, before: { version: 2 }, after: { version: 1, status: "rejected", comment: "No" } });
  });

  it("two-factor on and off, as the person themselves", async () => {
    const person = await createSignedInAccount(h);
    const { secret } = await person.api.security.setupTwoFactor();
    expectEvent(await oneEvent(() => person.api.security.enableTwoFactor({ code: totp(h, secret) })), {
      action: "two_factor.enable", actorId: person.id, organizationId: null, targetType: "user", targetId: person.id,
    });
    h.clock.advance(60_000);
    expectEvent(await oneEvent(() => person.api.security.disableTwoFactor({ code: totp(h, secret) })), {
      action: "two_factor.disable", actorId: person.id, organizationId: null, targetType: "user", targetId: person.id,
    });
  });

  it("a team API key is the actor of what it writes, with the request's client address", async () => {
    const team = await world.team("Keyed");
    const { key, id: keyId } = await world.accounts.admin.api.apiKeys.create({ teamId: team.id, name: "Writer", scopes: ["write"] });
    const tool = h.client({ authorization: `Bearer ${key}`, ip: "203.0.113.9" }).api;
    const event = await oneEvent(() => createPrompt(tool, team.id, { visibility: "team" }));
    expect(event).toMatchObject({ action: "prompt.create", actorKind: "api_key", actorId: keyId, actorName: "Writer", ip: "203.0.113.9" });
  });

  it("a refused change writes no event (same transaction): a taken name, a missing version, the last admin", async () => {
    const team = await world.team("Refusals");
    const { admin, author } = world.accounts;
    const { id: promptId } = await createPrompt(author.api, team.id, { name: "taken-name", visibility: "team" });
    const other = await createPrompt(author.api, team.id, { visibility: "team" });
    const refusals: [string, () => Promise<unknown>][] = [
      ["prompt.create with a taken name", () => author.api.prompts.create({ teamId: team.id, name: "taken-name", title: "T", type: "text", template: "x", visibility: "team" })],
      ["prompt.rename to a taken name", () => admin.api.prompts.rename({ id: other.id, name: "taken-name" })],
      ["a label on a missing version", () => admin.api.promptLabels.set({ promptId, label: "staging", version: 9 })],
      ["removing a label that is not there", () => admin.api.promptLabels.remove({ promptId, label: "staging" })],
      ["deleting a prompt that is not archived", () => admin.api.prompts.delete({ id: promptId })],
      ["removing the team's last admin", () => admin.api.teamMembers.remove({ id: team.memberId(admin.id) })],
      ["organization.create with a taken slug", async () => {
        await world.accounts.superUser.api.organizations.create({ name: "Slugged", slug: "slugged-audit" });
        return world.accounts.superUser.api.organizations.create({ name: "Again", slug: "slugged-audit" });
      }],
    ];
    for (const [what, change] of refusals) {
      const before = await h.database.db.auditEvent.count({ where: { action: { not: "organization.create" } } });
      const result = await outcome(change());
      expect([what, result === "OK"]).toEqual([what, false]);
      expect([what, await h.database.db.auditEvent.count({ where: { action: { not: "organization.create" } } })]).toEqual([what, before]);
    }
    expect(await h.database.db.auditEvent.count({ where: { targetName: "Again" } })).toBe(0);
  });
});

describe("audit_events is append-only in the database", () => {
  it("refuses UPDATE, DELETE and TRUNCATE, also for the table's owner; deleting what an event names keeps the event", async () => {
    const person = await createSignedInAccount(h, { superUser: true });
    const { id: organizationId } = await person.api.organizations.create({ name: "Short-lived" });
    const client = new pg.Client({ connectionString: h.database.url });
    await client.connect();
    try {
      const { rows: [owner] } = await client.query<{ owner: string; me: string }>(
        "SELECT tableowner AS owner, current_user AS me FROM pg_tables WHERE tablename = 'audit_events'",
      );
      expect(owner!.owner).toBe(owner!.me);
      for (const statement of [
        "UPDATE audit_events SET action = 'tampered'",
        "DELETE FROM audit_events",
        "TRUNCATE audit_events",
      ]) {
        await expect(client.query(statement)).rejects.toThrow(/audit events are append-only/);
      }
      // Deleting the organization and the person still works, and their events stay.
      await person.api.organizations.delete({ id: organizationId });
      await h.database.db.user.delete({ where: { id: person.id } });
      const { rows } = await client.query("SELECT action, actor_name FROM audit_events WHERE organization_id = $1 ORDER BY created_at, seq", [organizationId]);
      expect(rows.map((row) => row.action)).toEqual(["organization.create", "organization.delete"]);
      expect(rows[0].actor_name).toBe("Test Person");
    } finally {
      await client.end();
    }
  });
});

describe("the label history lets a label be rolled back", () => {
  it("points production back at the version it had before a move, through promptLabels.set", async () => {
    const team = await world.team("Rollback");
    const { admin, author, viewer } = world.accounts;
    const { id: promptId } = await createPrompt(author.api, team.id, { visibility: "team" });
    await author.api.promptVersions.create({ promptId, type: "text", template: "Two" });
    await admin.api.promptLabels.set({ promptId, label: "production", version: 1 });
    h.clock.advance(1000);
    await admin.api.promptLabels.set({ promptId, label: "production", version: 2 });
    const activity = (await viewer.api.auditLog.forPrompt({ promptId })).items;
    expect(activity.map((event) => event.action)).toEqual(["prompt.label.set", "prompt.label.set", "prompt.version", "prompt.create"]);
    expect(activity[0]).not.toHaveProperty("ip");
    const move = activity[0]!;
    expect(move.before).toEqual({ label: "production", version: 1 });
    await admin.api.promptLabels.set({ promptId, label: "production", version: (move.before as { version: number }).version });
    expect((await viewer.api.prompts.get({ id: promptId, label: "production" })).version.version).toBe(1);
    const after = (await viewer.api.auditLog.forPrompt({ promptId })).items;
    // Back to a version that held production: audited as a rollback.
    expect(after[0]).toMatchObject({ action: "prompt.label.rolled_back", before: { version: 2 }, after: { version: 1 } });
  });
});

describe("auditLog.list and auditLog.forPrompt: who may read", () => {
  it("organization admins and super users read the log; members are refused, outsiders do not see it", async () => {
    const expected = { anonymous: "UNAUTHORIZED", outsider: "NOT_FOUND", otherOrgMember: "NOT_FOUND", orgMember: "FORBIDDEN", viewer: "FORBIDDEN", editor: "FORBIDDEN", admin: "FORBIDDEN", orgAdmin: "OK", superUser: "OK", author: "FORBIDDEN" };
    const got: Record<string, string> = {};
    for (const kind of Object.keys(expected) as (keyof typeof expected)[]) {
      got[kind] = (await outcome(world.callers[kind].auditLog.list({ organizationId: world.organization.id })));
    }
    expect(got).toEqual(expected);
    expect((await outcome(world.callers.orgMember.auditLog.actors({ organizationId: world.organization.id })))).toBe("FORBIDDEN");
  });

  it("names a person by name, else by the address's local part, with the address beside it (shown on hover)", async () => {
    const team = await world.team("Named");
    const { author, orgAdmin } = world.accounts;
    const { id: promptId } = await createPrompt(author.api, team.id, { visibility: "team" });
    const organizationId = world.organization.id;
    const newest = async () => (await orgAdmin.api.auditLog.list({ organizationId, actorId: author.id, limit: 1 })).items[0]!.actor;
    expect(await newest()).toEqual({ kind: "user", id: author.id, name: "Alex Author", email: author.email });
    await h.database.db.profile.update({ where: { userId: author.id }, data: { fullName: null } });
    try {
      expect(await newest()).toEqual({ kind: "user", id: author.id, name: author.email.split("@")[0], email: author.email });
      expect((await orgAdmin.api.auditLog.actors({ organizationId })).find((actor) => actor.id === author.id)).toEqual({
        kind: "user", id: author.id, name: author.email.split("@")[0], email: author.email,
      });
      expect((await author.api.auditLog.forPrompt({ promptId })).items[0]!.actor).toMatchObject({ name: author.email.split("@")[0], email: author.email });
    } finally {
      await h.database.db.profile.update({ where: { userId: author.id }, data: { fullName: "Alex Author" } });
    }
  });

  it("filters by actor, action and time, and pages newest first without repeats", async () => {
    const team = await world.team("Paging");
    const { author, admin, orgAdmin } = world.accounts;
    const { id: promptId } = await createPrompt(author.api, team.id, { visibility: "team" });
    const start = h.clock.now();
    for (let n = 0; n < 5; n++) {
      h.clock.advance(1000);
      await author.api.promptVersions.create({ promptId, type: "text", template: `v${n + 2}` });
    }
    h.clock.advance(1000);
    await admin.api.promptLabels.set({ promptId, label: "production", version: 3 });
    const organizationId = world.organization.id;
    const versions = await orgAdmin.api.auditLog.list({ organizationId, action: "prompt.version", actorId: author.id, from: start });
    expect(versions.items.map((item) => (item.after as { version: number }).version)).toEqual([6, 5, 4, 3, 2]);
    expect(versions.items[0]).toMatchObject({ actor: { kind: "user", id: author.id, name: "Alex Author" }, target: { type: "prompt", id: promptId }, teamName: "Paging" });
    const byAdmin = await orgAdmin.api.auditLog.list({ organizationId, actorId: admin.id, from: start });
    expect(byAdmin.items.map((item) => item.action)).toEqual(["prompt.label.set"]);
    const until = await orgAdmin.api.auditLog.list({ organizationId, action: "prompt.version", actorId: author.id, from: start, to: new Date(start.getTime() + 2500) });
    expect(until.items.map((item) => (item.after as { version: number }).version)).toEqual([3, 2]);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await orgAdmin.api.auditLog.list({ organizationId, from: start, limit: 2, cursor });
      seen.push(...page.items.map((item) => item.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    const all = await world.callers.superUser.auditLog.list({ organizationId, from: start });
    expect(seen).toEqual(all.items.map((item) => item.id));
    expect(seen).toHaveLength(6);
    const actors = await orgAdmin.api.auditLog.actors({ organizationId });
    expect(actors.map((actor) => actor.id)).toEqual(expect.arrayContaining([author.id, admin.id]));
  });

  it("a prompt's activity is for those who read the prompt; a private one does not exist for others", async () => {
    const team = await world.team("Activity");
    const { author, viewer, orgMember, outsider } = world.accounts;
    const shared = await createPrompt(author.api, team.id, { visibility: "team" });
    const mine = await createPrompt(author.api, team.id, { visibility: "private" });
    expect((await outcome(viewer.api.auditLog.forPrompt({ promptId: shared.id })))).toBe("OK");
    expect((await outcome(orgMember.api.auditLog.forPrompt({ promptId: shared.id })))).toBe("NOT_FOUND");
    expect((await outcome(outsider.api.auditLog.forPrompt({ promptId: shared.id })))).toBe("NOT_FOUND");
    expect((await outcome(viewer.api.auditLog.forPrompt({ promptId: mine.id })))).toBe("NOT_FOUND");
    expect((await outcome(author.api.auditLog.forPrompt({ promptId: mine.id })))).toBe("OK");
    expect((await outcome(world.callers.anonymous.auditLog.forPrompt({ promptId: shared.id })))).toBe("UNAUTHORIZED");
  });
});
