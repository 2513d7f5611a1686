import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INVITE_TTL_DAYS, MSG, TEAM_MSG } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createSmtpMailer } from "../../services/platform/mailer.ts";
import {
  CALLER_KINDS, createSignedInAccount, createWorld, failure, outcome, advanceClock, uniqueEmail, EXPECTED_AT_LEVEL,
} from "../../../testing/teams-support.ts";

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

describe("invites procedures × caller kinds", () => {
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
    expect(summary.email).toBe(invite.email);
  });
});

describe("invites.create", () => {
  it("adds a colleague already in the organization at once, with no pending invite and no mail", async () => {
    const other = await world.team("Other");
    const colleague = world.accounts.orgMember;
    const result = await world.callers.admin.invites.create({ teamId: other.id, email: colleague.email.toUpperCase(), role: "editor" });
    expect(result).toEqual({ status: "added", userId: colleague.id, email: colleague.email, role: "editor", addedToOrganization: false });
    expect(await db().teamMember.findFirst({ where: { teamId: other.id, userId: colleague.id }, select: { role: true } })).toEqual({ role: "editor" });
    expect(await world.callers.admin.invites.listPending({ teamId: other.id })).toEqual([]);
    await h.mail.settled();
    expect(await h.mail.list(colleague.email)).toEqual([]);
  });

  it("invites an account of another organization exactly as an unknown address: nobody joins without accepting", async () => {
    const team = await world.team();
    const stranger = world.accounts.outsider;
    const unknown = uniqueEmail("nobody");
    const forStranger = await world.callers.admin.invites.create({ teamId: team.id, email: stranger.email, role: "viewer" });
    const forUnknown = await world.callers.admin.invites.create({ teamId: team.id, email: unknown, role: "viewer" });
    // The same answer, field for field, but for the address and the ids and times of the invitation.
    const shape = (result: typeof forStranger) =>
      result.status === "invited" ? { ...result, invite: { ...result.invite, id: "-", email: "-", createdAt: "-", expiresAt: "-" } } : result;
    expect(shape(forStranger)).toEqual(shape(forUnknown));
    expect(forStranger).toMatchObject({ status: "invited", resent: false, invite: { email: stranger.email, role: "viewer", expired: false } });
    expect(await memberships(stranger.id)).toEqual({ organizations: 1, teams: 0 });
    const listed = await world.callers.admin.teamMembers.list({ teamId: team.id });
    expect(listed.map((m) => m.userId)).not.toContain(stranger.id);
    await h.mail.waitFor(stranger.email, /invited to join Core/);
    await h.mail.waitFor(unknown, /invited to join Core/);
  });

  it("organizationMembers.add follows the same rule: an outside account is invited, not added", async () => {
    const stranger = await createSignedInAccount(h);
    const result = await world.callers.orgAdmin.organizationMembers.add({ organizationId: world.organization.id, email: stranger.email, role: "member" });
    expect(result).toMatchObject({ status: "invited", resent: false, invite: { email: stranger.email, role: "member" } });
    expect(await memberships(stranger.id)).toEqual({ organizations: 0, teams: 0 });
    await h.mail.waitFor(stranger.email, /invited to join Acme/);
    if (result.status !== "invited") throw new Error("unreachable");
    const accepted = await stranger.api.invites.accept({ id: result.invite.id });
    expect(accepted).toMatchObject({ kind: "organization", teamId: null, organizationId: world.organization.id, role: "member", addedToOrganization: true });
    expect(await memberships(stranger.id)).toEqual({ organizations: 1, teams: 0 });
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
    expect(again).toMatchObject({ status: "invited", resent: true, emailQueued: true, invite: { id: invite.id, role: "editor" } });
    if (again.status !== "invited") throw new Error("unreachable");
    expect(again.invite.expiresAt.getTime()).toBeGreaterThan(invite.expiresAt.getTime());
    expect(await db().pendingInvite.count({ where: { teamId: team.id, email } })).toBe(1);
    // The re-sent invitation arrives as a second mail (one invite row, two emails).
    await expect.poll(async () => (await h.mail.list(email)).length, { timeout: 10_000 }).toBe(2);
  });

  it("two invitations of one address at the same moment make one invitation and one mail, and both are answered", async () => {
    const team = await world.team();
    const email = uniqueEmail("race");
    const results = await Promise.all([
      world.callers.admin.invites.create({ teamId: team.id, email, role: "viewer" }),
      world.callers.orgAdmin.invites.create({ teamId: team.id, email, role: "editor" }),
    ]);
    expect(results.map((r) => r.status)).toEqual(["invited", "invited"]);
    expect(await db().pendingInvite.count({ where: { teamId: team.id, email } })).toBe(1);
    await h.mail.settled();
    expect(await h.mail.list(email)).toHaveLength(1);
  });

  it("inviting the same address again within minutes sends nothing new; only the role follows", async () => {
    const { team, email, invite } = await pendingInvite(uniqueEmail("twice"), "viewer");
    await h.mail.waitFor(email, /invited to join Core/);
    await advanceClock(h, 60_000);
    const again = await world.callers.admin.invites.create({ teamId: team.id, email, role: "editor" });
    expect(again).toMatchObject({ status: "invited", resent: true, emailQueued: false, invite: { id: invite.id, role: "editor" } });
    await h.mail.settled();
    expect(await h.mail.list(email)).toHaveLength(1);
  });

  it("limits invitations per inviter and per address (429), sending nothing past the limit", async () => {
    h.services.config.rateLimits = true;
    try {
      // Per address: five mails an hour, whichever teams they come from.
      const email = uniqueEmail("popular");
      for (let i = 0; i < 5; i++) {
        const team = await world.team(`Limit ${i}`);
        await world.callers.admin.invites.create({ teamId: team.id, email, role: "viewer" });
      }
      const sixth = await world.team("Limit 6");
      expect(await failure(world.callers.admin.invites.create({ teamId: sixth.id, email, role: "viewer" }))).toEqual({
        code: "TOO_MANY_REQUESTS",
        message: TEAM_MSG.tooManyInvitations,
      });
      expect(await db().pendingInvite.count({ where: { teamId: sixth.id } })).toBe(0);
      await h.mail.settled();
      expect(await h.mail.list(email)).toHaveLength(5);
      // Per inviter: 50 an hour.
      const team = await world.team("Many");
      for (let i = 0; i < 50; i++) await world.callers.orgAdmin.invites.create({ teamId: team.id, email: uniqueEmail(`bulk${i}`), role: "viewer" });
      expect((await failure(world.callers.orgAdmin.invites.create({ teamId: team.id, email: uniqueEmail("over"), role: "viewer" }))).code).toBe(
        "TOO_MANY_REQUESTS",
      );
    } finally {
      h.services.config.rateLimits = false;
      await h.services.rateLimits.reset();
    }
  });

  it("queues the invitation mail: with SMTP failing it waits and is retried, never lost", async () => {
    const working = h.services.mailer;
    // A real SMTP client pointed at a port where nothing listens: the real failure path.
    const broken = createSmtpMailer({ host: "127.0.0.1", port: 1, secure: false, from: "Promptly <no-reply@promptly.test>" });
    h.services.mailer = broken;
    const email = uniqueEmail("later");
    try {
      const team = await world.team();
      const result = await world.callers.admin.invites.create({ teamId: team.id, email, role: "viewer" });
      expect(result).toMatchObject({ status: "invited" });
      await h.mail.settled();
      const queued = await db().outboxMessage.findFirstOrThrow({ where: { recipient: email }, select: { status: true, attempts: true, lastError: true } });
      expect(queued).toMatchObject({ status: "pending", attempts: 1, lastError: expect.stringMatching(/ECONNREFUSED/) });
    } finally {
      h.services.mailer = working;
      broken.close();
    }
    await advanceClock(h, 60_000);
    await h.mail.settled();
    await h.mail.waitFor(email, /invited to join Core/);
    expect(await db().outboxMessage.findFirstOrThrow({ where: { recipient: email }, select: { status: true } })).toEqual({ status: "sent" });
    expect(await h.mail.list(email)).toHaveLength(1);
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
    const accepted = await createSignedInAccount(h, { email: emails[1] });
    const second = await db().pendingInvite.findFirstOrThrow({ where: { teamId: team.id, email: emails[1] } });
    await accepted.api.invites.accept({ id: second.id });
    const pending = await world.callers.admin.invites.listPending({ teamId: team.id });
    expect(pending.map((i) => i.email)).toEqual([emails[2], emails[0]]);
  });
});

describe("invites.mine", () => {
  it("lists the live team and organization invitations sent to the caller's address, newest first, and nothing else", async () => {
    const { email, invite: first } = await pendingInvite(uniqueEmail("mine"), "viewer");
    const invitee = await createSignedInAccount(h, { email });
    const organizationInvite = await world.callers.orgAdmin.organizationMembers.add({ organizationId: world.organization.id, email, role: "member" });
    if (organizationInvite.status !== "invited") throw new Error("expected an invite");
    const { invite: second } = await pendingInvite(email.toUpperCase(), "editor");
    await pendingInvite(); // someone else's

    expect(await invitee.api.invites.mine()).toEqual([
      { id: second.id, kind: "team", teamName: "Core", organizationName: "Acme", role: "editor", expiresAt: expect.any(Date) },
      { id: organizationInvite.invite.id, kind: "organization", teamName: null, organizationName: "Acme", role: "member", expiresAt: expect.any(Date) },
      { id: first.id, kind: "team", teamName: "Core", organizationName: "Acme", role: "viewer", expiresAt: expect.any(Date) },
    ]);
    await world.callers.admin.invites.cancel({ id: first.id });
    await invitee.api.invites.accept({ id: second.id });
    expect((await invitee.api.invites.mine()).map((invite) => invite.id)).toEqual([organizationInvite.invite.id]);
    await advanceClock(h, INVITE_TTL_DAYS * DAY_MS + 1000);
    expect(await invitee.api.invites.mine()).toEqual([]);
    expect(await failure(world.callers.anonymous.invites.mine())).toMatchObject({ code: "UNAUTHORIZED" });
  });
});

describe("invites.accept", () => {
  it("adds the invitee to the organization and the team with the invited role; email compared case-insensitively", async () => {
    const { team, email, invite } = await pendingInvite(uniqueEmail("Mixed.Case").replace("mixed", "Mixed"), "editor");
    const invitee = await createSignedInAccount(h, { email });
    expect(await invitee.api.invites.get({ id: invite.id })).toMatchObject({ email: email.toLowerCase(), emailMatches: true });
    const accepted = await invitee.api.invites.accept({ id: invite.id });
    expect(accepted).toEqual({
      kind: "team",
      teamId: team.id,
      teamName: "Core",
      organizationId: world.organization.id,
      organizationName: "Acme",
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
    const stranger = await createSignedInAccount(h);
    expect(await failure(stranger.api.invites.accept({ id: invite.id }))).toEqual({ code: "FORBIDDEN", message: MSG.inviteWrongEmail });
    expect(await inviteRow(invite.id)).toMatchObject({ status: "pending" });
    expect(await memberships(stranger.id)).toEqual({ organizations: 0, teams: 0 });
  });

  it("refuses a second accept, adding nothing twice", async () => {
    const { invite, email } = await pendingInvite();
    const invitee = await createSignedInAccount(h, { email });
    await invitee.api.invites.accept({ id: invite.id });
    const before = await memberships(invitee.id);
    expect(await failure(invitee.api.invites.accept({ id: invite.id }))).toEqual({ code: "NOT_FOUND", message: MSG.inviteNotFound });
    expect(await memberships(invitee.id)).toEqual(before);
    expect(before).toEqual({ organizations: 1, teams: 1 });
  });

  it("lets only one of two concurrent accepts through", async () => {
    const { invite, email } = await pendingInvite();
    const invitee = await createSignedInAccount(h, { email });
    const results = await Promise.allSettled([invitee.api.invites.accept({ id: invite.id }), invitee.api.invites.accept({ id: invite.id })]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await memberships(invitee.id)).toEqual({ organizations: 1, teams: 1 });
  });

  it("refuses an expired invite (after 7 days), changing nothing", async () => {
    const { invite, email } = await pendingInvite();
    const invitee = await createSignedInAccount(h, { email });
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
    const invitee = await createSignedInAccount(h, { email });
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
