// auth.signUpWithInvite: signing up from an invitation link is one step (the account is created
// confirmed, the invitation accepted, the person signed in), and only for a live invitation sent to
// the address given. Anything else changes nothing: no account, the invitation still pending.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INVITE_TTL_DAYS, MSG } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createWorld, failure, uniqueEmail } from "../../../testing/teams-support.ts";
import { PASSWORD } from "../../../testing/auth-support.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createWorld>>;

beforeAll(async () => {
  h = await createHarness();
  world = await createWorld(h);
});
afterAll(() => h.close());

const DAY_MS = 24 * 60 * 60 * 1000;
const db = () => h.database.db;

/** An invitation and the token of the link its email carried (read from the real mail, as a person would). */
async function teamInvite(email = uniqueEmail("invitee")) {
  const team = await world.team();
  const result = await world.callers.admin.invites.create({ teamId: team.id, email, role: "editor" });
  if (result.status !== "invited") throw new Error("expected an invite");
  const mail = await h.mail.waitFor(email, /invited to join/);
  const link = /\/auth\/accept-invite\?id=([0-9a-f-]+)&token=([A-Za-z0-9_-]+)/.exec(mail.text);
  if (!link || link[1] !== result.invite.id) throw new Error(`no invitation link in: ${mail.text}`);
  return { team, email, inviteId: result.invite.id, token: link[2]! };
}

/** Nothing happened: no account for the address, the invitation still pending. */
async function expectUnchanged(email: string, inviteId: string) {
  expect(await db().user.count({ where: { email } })).toBe(0);
  expect(await db().pendingInvite.findUnique({ where: { id: inviteId }, select: { status: true } })).toEqual({ status: "pending" });
}

describe("signing up from an invitation", () => {
  it("creates the account confirmed, with its name, accepts the invitation and signs in, in one call", async () => {
    const { team, email, inviteId, token } = await teamInvite();
    const browser = h.client();
    const answer = await browser.api.auth.signUpWithInvite({ inviteId, token, email: email.toUpperCase(), password: PASSWORD, fullName: "  Ivy Invited " });
    expect(answer).toMatchObject({
      status: "signed_in",
      firstSignIn: true,
      accepted: { kind: "team", teamId: team.id, organizationId: world.organization.id, role: "editor", addedToOrganization: true, addedToTeam: true },
    });
    const user = await db().user.findUniqueOrThrow({
      where: { email },
      select: { id: true, emailVerifiedAt: true, profile: { select: { fullName: true, superUser: true } } },
    });
    expect(user.emailVerifiedAt).not.toBeNull();
    expect(user.profile).toEqual({ fullName: "Ivy Invited", superUser: false });
    expect(await db().teamMember.findFirst({ where: { teamId: team.id, userId: user.id }, select: { role: true } })).toEqual({ role: "editor" });
    expect(await db().organizationMember.findFirst({ where: { organizationId: world.organization.id, userId: user.id }, select: { role: true } })).toEqual({
      role: "member",
    });
    expect(await db().pendingInvite.findUnique({ where: { id: inviteId }, select: { status: true } })).toEqual({ status: "accepted" });
    expect((await browser.api.auth.me())?.user.email).toBe(email);
    // No verification mail: the invitation's link was the confirmation.
    await h.mail.settled();
    expect((await h.mail.list(email)).filter((mail) => /confirm/i.test(mail.subject))).toEqual([]);
  });

  it("refuses the invitation's id without its link's token: the id is no proof (the inviting admins see it)", async () => {
    const { email, inviteId, token } = await teamInvite();
    // Another invitation's token, a made-up one, and the id itself: each reads as an unknown invitation.
    const { token: othersToken } = await teamInvite();
    for (const wrong of [othersToken, "A".repeat(43), inviteId]) {
      expect(await failure(h.client().api.auth.signUpWithInvite({ inviteId, token: wrong, email, password: PASSWORD }))).toEqual({
        code: "NOT_FOUND",
        message: MSG.inviteNotFound,
      });
    }
    await expectUnchanged(email, inviteId);
    // The link's own token still works afterwards.
    expect((await h.client().api.auth.signUpWithInvite({ inviteId, token, email, password: PASSWORD })).status).toBe("signed_in");
  });

  it("refuses an address other than the invited one", async () => {
    const { email, inviteId, token } = await teamInvite();
    const other = uniqueEmail("other");
    expect(await failure(h.client().api.auth.signUpWithInvite({ inviteId, token, email: other, password: PASSWORD }))).toEqual({
      code: "FORBIDDEN",
      message: MSG.inviteWrongEmail,
    });
    await expectUnchanged(other, inviteId);
    await expectUnchanged(email, inviteId);
  });

  it.each([
    ["an unknown invitation", async () => ({ ...(await teamInvite()), inviteId: "00000000-0000-4000-8000-000000000000" })],
    [
      "an expired invitation",
      async () => {
        const invite = await teamInvite();
        await db().pendingInvite.update({ where: { id: invite.inviteId }, data: { expiresAt: new Date(Date.now() - INVITE_TTL_DAYS * DAY_MS) } });
        return invite;
      },
    ],
    [
      "a cancelled invitation",
      async () => {
        const invite = await teamInvite();
        await world.callers.admin.invites.cancel({ id: invite.inviteId });
        return invite;
      },
    ],
  ])("refuses %s and changes nothing", async (_case, make) => {
    const { email, inviteId, token } = await make();
    expect(await failure(h.client().api.auth.signUpWithInvite({ inviteId, token, email, password: PASSWORD }))).toEqual({
      code: "NOT_FOUND",
      message: MSG.inviteNotFound,
    });
    expect(await db().user.count({ where: { email } })).toBe(0);
  });

  it("refuses an invitation used already: the second sign-up gets nothing", async () => {
    const { email, inviteId, token } = await teamInvite();
    await h.client().api.auth.signUpWithInvite({ inviteId, token, email, password: PASSWORD });
    const users = await db().user.count();
    expect(await failure(h.client().api.auth.signUpWithInvite({ inviteId, token, email, password: "another-password" }))).toEqual({
      code: "NOT_FOUND",
      message: MSG.inviteNotFound,
    });
    expect(await db().user.count()).toBe(users);
  });

  it("tells an address that has an account to sign in, and leaves account and invitation alone", async () => {
    const existing = world.accounts.outsider;
    const { inviteId, token } = await teamInvite(existing.email);
    const before = await db().user.findUniqueOrThrow({ where: { email: existing.email } });
    expect(await failure(h.client().api.auth.signUpWithInvite({ inviteId, token, email: existing.email, password: "another-password" }))).toEqual({
      code: "CONFLICT",
      message: MSG.inviteAccountExists,
    });
    expect(await db().user.findUniqueOrThrow({ where: { email: existing.email } })).toEqual(before);
    expect(await db().pendingInvite.findUnique({ where: { id: inviteId }, select: { status: true } })).toEqual({ status: "pending" });
  });

  it("validates the optional name with the profile's rule", async () => {
    const { email, inviteId, token } = await teamInvite();
    const tooLong = await failure(h.client().api.auth.signUpWithInvite({ inviteId, token, email, password: PASSWORD, fullName: "x".repeat(101) }));
    expect(tooLong.code).toBe("BAD_REQUEST");
    expect(tooLong.message).toContain("Full name cannot exceed");
    await expectUnchanged(email, inviteId);
  });
});

describe("auth.signUp with a name", () => {
  it("keeps the optional name on the profile; a name with control characters is refused", async () => {
    const email = uniqueEmail("named");
    await h.client().api.auth.signUp({ email, password: PASSWORD, fullName: "Nina Named" });
    expect(await db().profile.findFirst({ where: { user: { email } }, select: { fullName: true } })).toEqual({ fullName: "Nina Named" });
    const refused = await failure(h.client().api.auth.signUp({ email: uniqueEmail("bad"), password: PASSWORD, fullName: "a\u0000b" }));
    expect(refused.code).toBe("BAD_REQUEST");
  });
});
