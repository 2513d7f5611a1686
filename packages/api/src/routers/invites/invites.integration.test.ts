import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INVITE_TTL_DAYS, MSG } from "@promptly/shared";
import { createHarness, type Harness } from "../../testing.ts";
import { createSmtpMailer } from "../../services/mailer.ts";
import {
  CALLER_KINDS, createAccount, createWorld, failure, outcome, advanceClock, uniqueEmail, EXPECTED_AT_LEVEL,
} from "../teams/test-fixtures.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createWorld>>;

beforeAll(async () => {
  h = await createHarness();
  world = await createWorld(h);
});
afterAll(() => h.close());

const DAY_MS = 24 * 60 * 60 * 1000;
const adminLevel = EXPECTED_AT_LEVEL.admin;

const db = () => h.database.db;
const inviteRow = (id: string) => db().pendingInvite.findUnique({ where: { id }, select: { status: true, role: true, expiresAt: true } });
const memberships = async (userId: string) => ({
  organizations: await db().organizationMember.count({ where: { userId } }),
  teams: await db().teamMember.count({ where: { userId } }),
});

async function pendingInvite(email = uniqueEmail("invitee"), role: "admin" | "editor" | "viewer" = "editor") {
  const team = await world.team();
  const result = await world.callers.admin.invites.create({ teamId: team.id, email, role });
  if (result.status !== "invited") throw new Error("expected an invite");
  return { team, email, invite: result.invite };
}

describe("invites procedures × caller kinds (spec 5, 6)", () => {
  it.each(CALLER_KINDS)("invites.create as %s", async (kind) => {
    const team = await world.team();
    const email = uniqueEmail("matrix");
    const result = await outcome(world.callers[kind].invites.create({ teamId: team.id, email, role: "viewer" }));
    expect(result).toBe(adminLevel[kind]);
    expect(await db().pendingInvite.count({ where: { teamId: team.id, email } })).toBe(result === "OK" ? 1 : 0);
  });

  it.each(CALLER_KINDS)("invites.listPending as %s", async (kind) => {
    const { team } = await pendingInvite();
    expect(await outcome(world.callers[kind].invites.listPending({ teamId: team.id }))).toBe(adminLevel[kind]);
  });

  it.each(CALLER_KINDS)("invites.cancel as %s", async (kind) => {
    const { invite } = await pendingInvite();
    const result = await outcome(world.callers[kind].invites.cancel({ id: invite.id }));
    expect(result).toBe(adminLevel[kind]);
    expect(await inviteRow(invite.id)).toEqual(result === "OK" ? null : expect.objectContaining({ status: "pending" }));
  });

  it.each(CALLER_KINDS)("invites.get as %s shows team, organization and role", async (kind) => {
    const { invite } = await pendingInvite();
    const summary = await world.callers[kind].invites.get({ id: invite.id });
    expect(summary).toMatchObject({ teamName: "Core", organizationName: "Acme", role: "editor", emailMatches: kind === "anonymous" ? null : false });
    expect(summary.email).toMatch(/^i•••@example\.test$/);
  });
});

describe("invites.create", () => {
  it("adds an existing account at once, also to the organization, with no pending invite", async () => {
    const other = await world.team("Other");
    const newcomer = await createAccount(h);
    const result = await world.callers.admin.invites.create({ teamId: other.id, email: newcomer.email.toUpperCase(), role: "editor" });
    expect(result).toEqual({ status: "added", userId: newcomer.id, email: newcomer.email, role: "editor", addedToOrganization: true });
    expect(await db().teamMember.findFirst({ where: { teamId: other.id, userId: newcomer.id }, select: { role: true } })).toEqual({ role: "editor" });
    expect(await db().organizationMember.findFirst({ where: { organizationId: world.organization.id, userId: newcomer.id }, select: { role: true } })).toEqual({ role: "member" });
    expect(await world.callers.admin.invites.listPending({ teamId: other.id })).toEqual([]);
    expect(await h.mail.list(newcomer.email)).toEqual([]);
    // Already in the organization: only the team membership is new.
    const third = await world.team("Third");
    expect(await world.callers.admin.invites.create({ teamId: third.id, email: newcomer.email, role: "viewer" })).toMatchObject({
      status: "added",
      addedToOrganization: false,
    });
  });

  it("refuses to add someone who is already a member, changing nothing", async () => {
    const team = await world.team();
    expect(await failure(world.callers.admin.invites.create({ teamId: team.id, email: world.accounts.viewer.email, role: "admin" }))).toEqual({
      code: "CONFLICT",
      message: "This person is already a member of this team.",
    });
    expect(await db().teamMember.findFirst({ where: { teamId: team.id, userId: world.accounts.viewer.id }, select: { role: true } })).toEqual({ role: "viewer" });
  });

  it("stores a pending invite for an unknown address and emails the accept link; inviting again re-sends the same invite", async () => {
    const { team, email, invite } = await pendingInvite(uniqueEmail("new"), "viewer");
    expect(invite).toMatchObject({ email, role: "viewer", expired: false });
    expect(invite.expiresAt.getTime() - invite.createdAt.getTime()).toBe(INVITE_TTL_DAYS * DAY_MS);
    const mail = await h.mail.waitFor(email, /invited to join Core/);
    const link = `http://localhost:3000/auth/accept-invite?id=${invite.id}`;
    expect(mail.text).toContain(link);
    expect(mail.html).toContain(link);
    expect(mail.text).toContain("Ada Admin invited you to join the team Core in Acme as Viewer.");

    await advanceClock(h, DAY_MS);
    const again = await world.callers.orgAdmin.invites.create({ teamId: team.id, email, role: "editor" });
    expect(again).toMatchObject({ status: "invited", emailSent: true, resent: true, invite: { id: invite.id, role: "editor" } });
    if (again.status !== "invited") throw new Error("unreachable");
    expect(again.invite.expiresAt.getTime()).toBeGreaterThan(invite.expiresAt.getTime());
    expect(await db().pendingInvite.count({ where: { teamId: team.id, email } })).toBe(1);
    // The re-sent invitation arrives as a second mail (one invite row, two emails).
    await expect.poll(async () => (await h.mail.list(email)).length, { timeout: 10_000 }).toBe(2);
  });

  it("keeps the invite when the email cannot be sent, and says so", async () => {
    const working = h.services.mailer;
    // A real SMTP client pointed at a port where nothing listens: the real failure path.
    const broken = createSmtpMailer({ host: "127.0.0.1", port: 1, secure: false, from: "Promptly <no-reply@promptly.test>" });
    h.services.mailer = broken;
    try {
      const team = await world.team();
      const result = await world.callers.admin.invites.create({ teamId: team.id, email: uniqueEmail("lost"), role: "viewer" });
      expect(result).toMatchObject({ status: "invited", emailSent: false });
      expect(await world.callers.admin.invites.listPending({ teamId: team.id })).toHaveLength(1);
    } finally {
      h.services.mailer = working;
      broken.close();
    }
  });

  it.each([
    [{ email: "", role: "viewer" }, MSG.required],
    [{ email: "not-an-email", role: "viewer" }, MSG.invalidEmail],
    [{ email: "x@example.test", role: "owner" }, /admin.*editor.*viewer/],
  ])("rejects %j and stores nothing", async (input, message) => {
    const team = await world.team();
    const result = await failure(world.callers.admin.invites.create({ teamId: team.id, ...(input as { email: string; role: "viewer" }) }));
    expect(result.code).toBe("BAD_REQUEST");
    expect(result.message).toMatch(message);
    expect(await db().pendingInvite.count({ where: { teamId: team.id } })).toBe(0);
  });
});

describe("invites.listPending", () => {
  it("lists pending invites newest first, without accepted ones", async () => {
    const team = await world.team();
    const emails = [uniqueEmail("first"), uniqueEmail("second"), uniqueEmail("third")];
    for (const email of emails) {
      await world.callers.admin.invites.create({ teamId: team.id, email, role: "viewer" });
      await advanceClock(h, 1000);
    }
    const accepted = await createAccount(h, { email: emails[1] });
    const second = await db().pendingInvite.findFirstOrThrow({ where: { teamId: team.id, email: emails[1] } });
    await accepted.api.invites.accept({ id: second.id });
    const pending = await world.callers.admin.invites.listPending({ teamId: team.id });
    expect(pending.map((i) => i.email)).toEqual([emails[2], emails[0]]);
  });
});

describe("invites.accept (spec 4, 5)", () => {
  it("adds the invitee to the organization and the team with the invited role; email compared case-insensitively", async () => {
    const { team, email, invite } = await pendingInvite(uniqueEmail("Mixed.Case").replace("mixed", "Mixed"), "editor");
    const invitee = await createAccount(h, { email });
    expect(await invitee.api.invites.get({ id: invite.id })).toMatchObject({ email: email.toLowerCase(), emailMatches: true });
    const accepted = await invitee.api.invites.accept({ id: invite.id });
    expect(accepted).toEqual({
      teamId: team.id,
      teamName: "Core",
      organizationId: world.organization.id,
      role: "editor",
      addedToOrganization: true,
      addedToTeam: true,
    });
    expect(await inviteRow(invite.id)).toMatchObject({ status: "accepted" });
    expect((await invitee.api.teamMembers.list({ teamId: team.id })).find((m) => m.userId === invitee.id)).toMatchObject({ role: "editor" });
    expect((await invitee.api.organizations.list()).map((o) => o.id)).toEqual([world.organization.id]);
  });

  it("asks an anonymous caller to sign in, changing nothing", async () => {
    const { invite } = await pendingInvite();
    expect(await failure(world.callers.anonymous.invites.accept({ id: invite.id }))).toEqual({
      code: "UNAUTHORIZED",
      message: MSG.inviteSignInRequired,
    });
    expect(await inviteRow(invite.id)).toMatchObject({ status: "pending" });
  });

  it("refuses a different email address, changing nothing", async () => {
    const { invite } = await pendingInvite();
    const stranger = await createAccount(h);
    expect(await failure(stranger.api.invites.accept({ id: invite.id }))).toEqual({ code: "FORBIDDEN", message: MSG.inviteWrongEmail });
    expect(await inviteRow(invite.id)).toMatchObject({ status: "pending" });
    expect(await memberships(stranger.id)).toEqual({ organizations: 0, teams: 0 });
  });

  it("refuses a second accept, adding nothing twice", async () => {
    const { invite, email } = await pendingInvite();
    const invitee = await createAccount(h, { email });
    await invitee.api.invites.accept({ id: invite.id });
    const before = await memberships(invitee.id);
    expect(await failure(invitee.api.invites.accept({ id: invite.id }))).toEqual({ code: "NOT_FOUND", message: MSG.inviteNotFound });
    expect(await memberships(invitee.id)).toEqual(before);
    expect(before).toEqual({ organizations: 1, teams: 1 });
  });

  it("lets only one of two concurrent accepts through", async () => {
    const { invite, email } = await pendingInvite();
    const invitee = await createAccount(h, { email });
    const results = await Promise.allSettled([invitee.api.invites.accept({ id: invite.id }), invitee.api.invites.accept({ id: invite.id })]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await memberships(invitee.id)).toEqual({ organizations: 1, teams: 1 });
  });

  it("refuses an expired invite (after 7 days), changing nothing", async () => {
    const { invite, email } = await pendingInvite();
    const invitee = await createAccount(h, { email });
    await advanceClock(h, INVITE_TTL_DAYS * DAY_MS + 1000);
    expect(await failure(invitee.api.invites.accept({ id: invite.id }))).toEqual({ code: "NOT_FOUND", message: MSG.inviteNotFound });
    expect(await outcome(invitee.api.invites.get({ id: invite.id }))).toBe("NOT_FOUND");
    expect(await inviteRow(invite.id)).toMatchObject({ status: "pending" });
    expect(await memberships(invitee.id)).toEqual({ organizations: 0, teams: 0 });
    const [listed] = await world.callers.admin.invites.listPending({ teamId: invite.teamId });
    expect(listed).toMatchObject({ id: invite.id, expired: true });
  });

  it("refuses a cancelled invite, changing nothing", async () => {
    const { invite, email } = await pendingInvite();
    await world.callers.admin.invites.cancel({ id: invite.id });
    const invitee = await createAccount(h, { email });
    expect(await failure(invitee.api.invites.accept({ id: invite.id }))).toEqual({ code: "NOT_FOUND", message: MSG.inviteNotFound });
    expect(await outcome(world.callers.admin.invites.cancel({ id: invite.id }))).toBe("NOT_FOUND");
    expect(await memberships(invitee.id)).toEqual({ organizations: 0, teams: 0 });
  });

  it("answers NOT_FOUND for an unknown or malformed id", async () => {
    expect(await outcome(world.callers.anonymous.invites.get({ id: "00000000-0000-4000-8000-000000000000" }))).toBe("NOT_FOUND");
    expect(await failure(world.callers.viewer.invites.accept({ id: "00000000-0000-4000-8000-000000000000" }))).toEqual({
      code: "NOT_FOUND",
      message: MSG.inviteNotFound,
    });
    expect((await failure(world.callers.viewer.invites.accept({ id: "nope" }))).code).toBe("BAD_REQUEST");
  });
});
