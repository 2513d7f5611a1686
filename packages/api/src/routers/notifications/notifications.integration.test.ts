// Notifications: who hears of each event (never the actor, never someone who cannot read
// the thing), one notification per person and comment, the preferences, the bell's procedures, and
// notification mail as one message or a digest through the outbox.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount, createHarness, createOrganization, createTeam, outcome, type Harness, type TestAccount } from "../../../testing/harness.ts";
import { notify, type NotificationEvent } from "../../services/notifications/notify.ts";

let h: Harness;
const db = () => h.database.db;

let people: Record<"author" | "bookmarker" | "admin" | "editor" | "orgAdmin" | "orgMember" | "outsider" | "superUser" | "superMember", TestAccount>;
let organization: Awaited<ReturnType<typeof createOrganization>>;
let team: Awaited<ReturnType<typeof createTeam>>;

beforeAll(async () => {
  h = await createHarness();
  const named = async (fullName: string, options: { superUser?: boolean } = {}) => createAccount(h, { fullName, ...options });
  people = {
    author: await named("Ana Author"),
    bookmarker: await named("Bo Bookmarker"),
    admin: await named("Ada Admin"),
    editor: await named("Ed Editor"),
    orgAdmin: await named("Olga OrgAdmin"),
    orgMember: await named("Omar Member"),
    outsider: await named("Otto Outsider"),
    superUser: await named("Sue Super", { superUser: true }),
    superMember: await named("Sam SuperMember", { superUser: true }),
  };
  organization = await createOrganization(h, [
    { userId: people.author.id, role: "member" },
    { userId: people.bookmarker.id, role: "member" },
    { userId: people.admin.id, role: "member" },
    { userId: people.editor.id, role: "member" },
    { userId: people.orgAdmin.id, role: "admin" },
    { userId: people.orgMember.id, role: "member" },
    { userId: people.superMember.id, role: "member" },
  ]);
  team = await createTeam(h, organization.id, [
    { userId: people.author.id, role: "editor" },
    { userId: people.bookmarker.id, role: "viewer" },
    { userId: people.admin.id, role: "admin" },
    { userId: people.editor.id, role: "editor" },
    { userId: people.superMember.id, role: "viewer" },
  ]);
});
afterAll(() => h.close());

let promptCounter = 0;
/** A prompt of the team by `author`, bookmarked by `bookmarkers` (written straight into the database). */
async function newPrompt(visibility: "private" | "team" | "organization" = "team", bookmarkers: string[] = [people.bookmarker.id]) {
  return db().prompt.create({
    data: {
      organizationId: organization.id, teamId: team.id, name: `support/refund-policy-${++promptCounter}`, title: "Refund policy", visibility,
      authorId: people.author.id, bookmarks: { create: bookmarkers.map((userId) => ({ userId })) },
    },
    select: { id: true, name: true },
  });
}

const send = (event: NotificationEvent) => notify(db(), event, h.clock.now());

/** Who has a notification about `where` (a prompt, a comment or a team), with what kind. */
async function recipients(where: { promptId?: string; commentId?: string; teamId?: string; changeRequestId?: string }) {
  const rows = await db().notification.findMany({ where, select: { userId: true, kind: true } });
  const names = Object.fromEntries(Object.entries(people).map(([name, person]) => [person.id, name]));
  return rows.map((row) => `${names[row.userId] ?? row.userId}:${row.kind}`).sort();
}

async function setPreferences(userId: string, preferences: { inAppNotifications?: boolean; emailNotifications?: boolean }) {
  const values = { emailNotifications: true, pushNotifications: false, inAppNotifications: true, marketingEmails: false, ...preferences };
  await db().notificationPreferences.upsert({ where: { userId }, create: { userId, ...values }, update: values });
}

const api = async (person: TestAccount) => (await h.signedInClient(person.id)).api;

/** A team viewer with these preferences who bookmarked a new prompt of the team (so hears of it). */
async function follower(fullName: string, preferences: Parameters<typeof setPreferences>[1] = {}) {
  const person = await createAccount(h, { fullName });
  await db().teamMember.create({ data: { teamId: team.id, userId: person.id, role: "viewer" } });
  await setPreferences(person.id, preferences);
  const prompt = await newPrompt("team", [person.id]);
  return { person, prompt };
}
/** `production` of the prompt moved to `version` by the team's admin. */
const moved = (promptId: string, version: number) => send({ kind: "production_moved", promptId, version, actorId: people.admin.id });

describe("who hears of each event", () => {
  it("comment: the prompt's author and bookmarkers, never the actor", async () => {
    const prompt = await newPrompt("team", [people.bookmarker.id, people.editor.id]);
    const commentId = randomUUID();
    await send({ kind: "comment", promptId: prompt.id, commentId, actorId: people.editor.id });
    expect(await recipients({ commentId })).toEqual(["author:comment", "bookmarker:comment"]);

    const own = randomUUID();
    await send({ kind: "comment", promptId: prompt.id, commentId: own, actorId: people.author.id });
    expect(await recipients({ commentId: own })).toEqual(["bookmarker:comment", "editor:comment"]);
  });

  it("an author who also bookmarked their prompt hears once", async () => {
    const prompt = await newPrompt("team", [people.author.id, people.bookmarker.id]);
    const commentId = randomUUID();
    await send({ kind: "comment", promptId: prompt.id, commentId, actorId: people.admin.id });
    expect(await recipients({ commentId })).toEqual(["author:comment", "bookmarker:comment"]);
  });

  it("reply: the author of the comment replied to, unless they replied themselves", async () => {
    const prompt = await newPrompt("team", []);
    const commentId = randomUUID();
    await send({ kind: "reply", promptId: prompt.id, commentId, parentAuthorId: people.editor.id, actorId: people.admin.id });
    expect(await recipients({ commentId })).toEqual(["editor:reply"]);
    const own = randomUUID();
    await send({ kind: "reply", promptId: prompt.id, commentId: own, parentAuthorId: people.editor.id, actorId: people.editor.id });
    expect(await recipients({ commentId: own })).toEqual([]);
  });

  it("mention: the people named who may read the prompt; not the outsider, not an organization member on a team prompt", async () => {
    const prompt = await newPrompt("team", []);
    const commentId = randomUUID();
    const mentioned = [people.editor.id, people.outsider.id, people.orgMember.id, people.admin.id];
    await send({ kind: "mention", promptId: prompt.id, commentId, mentionedUserIds: mentioned, actorId: people.admin.id });
    expect(await recipients({ commentId })).toEqual(["editor:mention"]);

    const open = await newPrompt("organization", []);
    const onOpen = randomUUID();
    await send({ kind: "mention", promptId: open.id, commentId: onOpen, mentionedUserIds: mentioned, actorId: people.admin.id });
    expect(await recipients({ commentId: onOpen })).toEqual(["editor:mention", "orgMember:mention"]);
  });

  it("a mention and a comment on one comment reach a person once, as the mention, in either order", async () => {
    const prompt = await newPrompt("team", []);
    const first = randomUUID();
    await send({ kind: "comment", promptId: prompt.id, commentId: first, actorId: people.admin.id });
    await send({ kind: "mention", promptId: prompt.id, commentId: first, mentionedUserIds: [people.author.id], actorId: people.admin.id });
    expect(await recipients({ commentId: first })).toEqual(["author:mention"]);

    const second = randomUUID();
    await send({ kind: "mention", promptId: prompt.id, commentId: second, mentionedUserIds: [people.author.id], actorId: people.admin.id });
    await send({ kind: "comment", promptId: prompt.id, commentId: second, actorId: people.admin.id });
    await send({ kind: "reply", promptId: prompt.id, commentId: second, parentAuthorId: people.author.id, actorId: people.admin.id });
    expect(await recipients({ commentId: second })).toEqual(["author:mention"]);
  });

  it("a private prompt: nobody but its author hears, even someone who bookmarked it before", async () => {
    const prompt = await newPrompt("private", [people.bookmarker.id]);
    const commentId = randomUUID();
    await send({ kind: "comment", promptId: prompt.id, commentId, actorId: people.superUser.id });
    expect(await recipients({ commentId })).toEqual(["author:comment"]);
  });

  it("someone removed from the team hears nothing more of its prompts", async () => {
    const leaver = await createAccount(h, { fullName: "Lee Leaver" });
    await db().organizationMember.create({ data: { organizationId: organization.id, userId: leaver.id, role: "member" } });
    const membership = await db().teamMember.create({ data: { teamId: team.id, userId: leaver.id, role: "viewer" } });
    const prompt = await newPrompt("team", [leaver.id]);
    await moved(prompt.id, 2);
    expect(await db().notification.count({ where: { promptId: prompt.id, userId: leaver.id } })).toBe(1);
    await db().teamMember.delete({ where: { id: membership.id } });
    await moved(prompt.id, 3);
    expect(await db().notification.count({ where: { promptId: prompt.id, userId: leaver.id } })).toBe(1);
    // And what they heard before is gone from their bell: they cannot read the prompt any more.
    const leaverApi = await api(leaver);
    expect((await leaverApi.notifications.list()).items.filter((item) => item.href.includes(prompt.id))).toEqual([]);
  });

  it("review_requested: the team's admin level (team admins, organization admins, super users who belong), not the requester", async () => {
    const prompt = await newPrompt("team", []);
    const changeRequestId = randomUUID();
    await send({ kind: "review_requested", changeRequestId, promptId: prompt.id, teamId: team.id, actorId: people.editor.id });
    expect(await recipients({ changeRequestId })).toEqual(["admin:review_requested", "orgAdmin:review_requested", "superMember:review_requested"]);

    const byAdmin = randomUUID();
    await send({ kind: "review_requested", changeRequestId: byAdmin, promptId: prompt.id, teamId: team.id, actorId: people.admin.id });
    expect(await recipients({ changeRequestId: byAdmin })).toEqual(["orgAdmin:review_requested", "superMember:review_requested"]);
  });

  it("review_decided: the requester; production_moved by an API key: author and bookmarkers, worded without an actor", async () => {
    const prompt = await newPrompt("team", [people.bookmarker.id]);
    const changeRequestId = randomUUID();
    await send({ kind: "review_decided", changeRequestId, promptId: prompt.id, requesterId: people.editor.id, decision: "approved", actorId: people.admin.id });
    expect(await recipients({ changeRequestId })).toEqual(["editor:review_decided"]);

    await send({ kind: "production_moved", promptId: prompt.id, version: 4, actorId: null });
    expect(await recipients({ promptId: prompt.id, changeRequestId: undefined })).toEqual(
      expect.arrayContaining(["author:production_moved", "bookmarker:production_moved"]),
    );
    const bell = await (await api(people.bookmarker)).notifications.list();
    expect(bell.items.find((item) => item.href === `/prompts/${prompt.id}?tab=history`)).toMatchObject({
      kind: "production_moved",
      text: `Production of ${prompt.name} now serves v4`,
      readAt: null,
    });
    const editorBell = await (await api(people.editor)).notifications.list();
    expect(editorBell.items.find((item) => item.href === `/reviews/${changeRequestId}`)?.text).toBe(
      `Ada Admin approved your change request on ${prompt.name}`,
    );
  });

  it("team_added: a colleague added to a team by an admin hears of it; invite_accepted: the inviter hears of it", async () => {
    const colleague = await createAccount(h, { fullName: "Cole Colleague" });
    await db().organizationMember.create({ data: { organizationId: organization.id, userId: colleague.id, role: "member" } });
    const adminApi = await api(people.admin);
    const other = await createTeam(h, organization.id, [{ userId: people.admin.id, role: "admin" }], "Support");
    await adminApi.invites.create({ teamId: other.id, email: colleague.email, role: "editor" });
    const bell = await (await api(colleague)).notifications.list();
    expect(bell.items).toEqual([
      expect.objectContaining({ kind: "team_added", text: "Ada Admin added you to team Support", href: `/?organizationId=${organization.id}&teamId=${other.id}` }),
    ]);

    // A team invitation for someone new, accepted: the inviting team admin hears of it, linked to the
    // Teams page, which a team admin opens (page.teams) though they are only a member of the organization.
    const newcomer = await createAccount(h, { fullName: "Nia Newcomer" });
    const invited = await adminApi.invites.create({ teamId: other.id, email: newcomer.email, role: "viewer" });
    if (invited.status !== "invited") throw new Error("expected an invitation");
    await (await api(newcomer)).invites.accept({ id: invited.invite.id });
    const adminBell = await adminApi.notifications.list();
    expect(adminBell.items[0]).toMatchObject({ kind: "invite_accepted", text: "Nia Newcomer accepted your invitation to team Support", href: "/teams" });
    // One who may no longer open the Teams page when the invitation is accepted (no longer a team admin) lands on the dashboard with that team.
    const late = await createAccount(h, { fullName: "Lee Late" });
    const lateInvite = await adminApi.invites.create({ teamId: other.id, email: late.email, role: "viewer" });
    if (lateInvite.status !== "invited") throw new Error("expected an invitation");
    await db().teamMember.updateMany({ where: { userId: people.admin.id }, data: { role: "editor" } });
    try {
      await (await api(late)).invites.accept({ id: lateInvite.invite.id });
    } finally {
      await db().teamMember.updateMany({ where: { userId: people.admin.id }, data: { role: "admin" } });
    }
    expect((await adminApi.notifications.list()).items[0]).toMatchObject({
      kind: "invite_accepted",
      text: "Lee Late accepted your invitation to team Support",
      href: `/?organizationId=${organization.id}&teamId=${other.id}`,
    });
    // The newcomer added themselves by accepting: no team_added for their own action.
    expect(await db().notification.count({ where: { userId: newcomer.id } })).toBe(0);

    // An organization invitation accepted: the organization admin who sent it, linked to the Teams page.
    const joiner = await createAccount(h, { fullName: "Jo Joiner" });
    const orgAdminApi = await api(people.orgAdmin);
    const added = await orgAdminApi.organizationMembers.add({ organizationId: organization.id, email: joiner.email, role: "member" });
    const inviteId = (await db().organizationInvite.findFirstOrThrow({ where: { email: joiner.email }, select: { id: true } })).id;
    expect(added).toBeTruthy();
    await (await api(joiner)).invites.accept({ id: inviteId });
    expect((await orgAdminApi.notifications.list()).items[0]).toMatchObject({
      kind: "invite_accepted",
      text: `Jo Joiner accepted your invitation to ${organization.name}`,
      href: "/teams",
    });
  });
});

describe("preferences", () => {
  it("in-app off: nothing in the bell (and the bell says it is off), the mail still goes; both off: nothing recorded or queued", async () => {
    const { person, prompt } = await follower("Pat Prefs", { inAppNotifications: false });
    await moved(prompt.id, 2);
    const personApi = await api(person);
    expect(await personApi.notifications.unreadCount()).toEqual({ count: 0, enabled: false });
    expect((await personApi.notifications.list()).items).toEqual([]);
    expect(await db().outboxMessage.count({ where: { recipient: person.email, kind: "notification" } })).toBe(1);
    h.clock.advance(121_000);
    await h.mail.waitFor(person.email, new RegExp(`Ada Admin moved production of ${prompt.name} to v2`));

    await setPreferences(person.id, { inAppNotifications: false, emailNotifications: false });
    const before = await db().notification.count({ where: { userId: person.id } });
    await moved(prompt.id, 3);
    expect(await db().notification.count({ where: { userId: person.id } })).toBe(before);
    expect(await db().outboxMessage.count({ where: { recipient: person.email, kind: "notification" } })).toBe(1);
  });

  it("email off: the bell counts, no mail is queued", async () => {
    const { person, prompt } = await follower("Em Off", { emailNotifications: false });
    await moved(prompt.id, 2);
    expect(await (await api(person)).notifications.unreadCount()).toEqual({ count: 1, enabled: true });
    expect(await db().outboxMessage.count({ where: { recipient: person.email } })).toBe(0);
  });

  it("email turned off after the event: the queued mail is skipped, not sent", async () => {
    const { person, prompt } = await follower("Late Changer");
    await moved(prompt.id, 2);
    await setPreferences(person.id, { emailNotifications: false });
    h.clock.advance(121_000);
    await h.mail.settled();
    expect(await db().outboxMessage.findMany({ where: { recipient: person.email }, select: { status: true, lastError: true } })).toEqual([
      { status: "skipped", lastError: "Email notifications are off" },
    ]);
    expect(await h.mail.list(person.email)).toEqual([]);
  });
});

describe("the bell's procedures", () => {
  it("list: newest first, in keyset pages; unreadCount; markRead of named ids (own only) and of all", async () => {
    const { person, prompt } = await follower("Bell Ringer", { emailNotifications: false });
    for (let version = 1; version <= 25; version++) {
      await send({ kind: "production_moved", promptId: prompt.id, version, actorId: people.admin.id });
      h.clock.advance(1_000);
    }
    const personApi = await api(person);
    const first = await personApi.notifications.list();
    expect(first.items).toHaveLength(20);
    expect(first.items[0]?.text).toBe(`Ada Admin moved production of ${prompt.name} to v25`);
    const second = await personApi.notifications.list({ cursor: first.nextCursor! });
    expect(second.items.map((item) => item.text.replace(/.* to v/, ""))).toEqual(["5", "4", "3", "2", "1"]);
    expect(second.nextCursor).toBeNull();
    expect(await outcome(personApi.notifications.list({ cursor: "forged" }))).toMatchObject({ code: "BAD_REQUEST" });
    // A well-formed instant the database cannot hold (year 0) is the same refusal, never a 500.
    const yearZero = Buffer.from(JSON.stringify(["0000-01-01T00:00:00.000Z", randomUUID()])).toString("base64url");
    expect(await outcome(personApi.notifications.list({ cursor: yearZero }))).toMatchObject({ code: "BAD_REQUEST" });
    expect(await personApi.notifications.unreadCount()).toEqual({ count: 25, enabled: true });

    // Someone else's ids change nothing for them.
    const otherApi = await api(people.editor);
    expect(await otherApi.notifications.markRead({ ids: [first.items[0]!.id] })).toEqual({ updated: 0 });
    expect(await personApi.notifications.unreadCount()).toEqual({ count: 25, enabled: true });

    expect(await personApi.notifications.markRead({ ids: [first.items[0]!.id, first.items[1]!.id] })).toEqual({ updated: 2 });
    expect(await personApi.notifications.unreadCount()).toEqual({ count: 23, enabled: true });
    expect((await personApi.notifications.list()).items[0]?.readAt).toEqual(expect.any(Date));

    const editorBefore = await otherApi.notifications.unreadCount();
    expect(await personApi.notifications.markRead()).toEqual({ updated: 23 });
    expect(await personApi.notifications.unreadCount()).toEqual({ count: 0, enabled: true });
    expect(await otherApi.notifications.unreadCount()).toEqual(editorBefore);
  });

  it("markOpened: opening the page a notification leads to reads it (extra query values allowed), and only the caller's", async () => {
    const { person, prompt } = await follower("Page Opener", { emailNotifications: false });
    const { prompt: elsewhere } = await follower("Page Opener Two", { emailNotifications: false });
    await moved(prompt.id, 1);
    await moved(elsewhere.id, 1);
    const personApi = await api(person);
    const unread = async () => (await personApi.notifications.list()).items.filter((item) => !item.readAt).map((item) => item.href);
    expect(await unread()).toEqual([`/prompts/${prompt.id}?tab=history`]);

    // Another page, or the prompt's page without the history tab, reads nothing.
    expect(await personApi.notifications.markOpened({ hrefs: ["/", `/prompts/${prompt.id}`, `/prompts/${prompt.id}?tab=runs`] })).toEqual({ updated: 0 });
    // Someone else opening it reads nothing of the person's.
    expect(await (await api(people.editor)).notifications.markOpened({ hrefs: [`/prompts/${prompt.id}?tab=history`] })).toEqual({ updated: 0 });
    expect(await personApi.notifications.unreadCount()).toEqual({ count: 1, enabled: true });

    expect(await personApi.notifications.markOpened({ hrefs: [`/prompts/${prompt.id}?tab=history&version=1`] })).toEqual({ updated: 1 });
    expect(await unread()).toEqual([]);
    expect(await personApi.notifications.unreadCount()).toEqual({ count: 0, enabled: true });
    expect(await outcome(h.client().api.notifications.markOpened({ hrefs: ["/"] }))).toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("needs a signed-in caller", async () => {
    const anonymous = h.client().api;
    expect(await outcome(anonymous.notifications.unreadCount())).toMatchObject({ code: "UNAUTHORIZED" });
    expect(await outcome(anonymous.notifications.list())).toMatchObject({ code: "UNAUTHORIZED" });
    expect(await outcome(anonymous.notifications.markRead())).toMatchObject({ code: "UNAUTHORIZED" });
  });
});

describe("notification mail", () => {
  it("two notifications within the window: one digest listing both, with the settings link", async () => {
    const { person, prompt } = await follower("Di Gest");
    await moved(prompt.id, 2);
    h.clock.advance(30_000);
    await send({ kind: "comment", promptId: prompt.id, commentId: randomUUID(), actorId: people.editor.id });
    expect(await db().outboxMessage.count({ where: { recipient: person.email } })).toBe(1);
    h.clock.advance(100_000);
    const mail = await h.mail.waitFor(person.email);
    expect(mail.subject).toBe("2 new notifications on Promptly");
    expect(mail.text).toContain(`Ada Admin moved production of ${prompt.name} to v2: http://localhost:3000/prompts/${prompt.id}?tab=history`);
    expect(mail.text).toContain(`Ed Editor commented on ${prompt.name}`);
    expect(mail.text).toContain("Notification settings: http://localhost:3000/settings/notifications");
    expect(mail.html).toContain('href="http://localhost:3000/settings/notifications"');
  });

  it("after the window: separate mails; a notification read before its mail leaves is not mailed", async () => {
    const { person, prompt } = await follower("Sep Arate");
    await moved(prompt.id, 2);
    h.clock.advance(121_000);
    await h.mail.waitFor(person.email, /to v2$/);
    await moved(prompt.id, 3);
    h.clock.advance(121_000);
    await h.mail.waitFor(person.email, /to v3$/);
    expect((await h.mail.list(person.email)).map((mail) => mail.subject)).toEqual([
      `Ada Admin moved production of ${prompt.name} to v2`,
      `Ada Admin moved production of ${prompt.name} to v3`,
    ]);

    await moved(prompt.id, 4);
    await (await api(person)).notifications.markRead();
    h.clock.advance(121_000);
    await h.mail.settled();
    expect(await h.mail.list(person.email)).toHaveLength(2);
  });

  it("a mail a worker has claimed already is never added to: the next notification gets a message of its own", async () => {
    const { person, prompt } = await follower("Claire Claimed");
    await moved(prompt.id, 2);
    // As drainOutbox claims it: a lease and an attempt.
    await db().outboxMessage.updateMany({
      where: { recipient: person.email },
      data: { lockedUntil: new Date(h.clock.now().getTime() + 3_600_000), attempts: 1, nextAttemptAt: new Date(h.clock.now().getTime() + 3_600_000) },
    });
    await moved(prompt.id, 3);
    const messages = await db().outboxMessage.findMany({ where: { recipient: person.email }, select: { payload: true }, orderBy: { createdAt: "asc" } });
    expect(messages.map((m) => (m.payload as { notificationIds: string[] }).notificationIds.length)).toEqual([1, 1]);
  });

  it("a change that rolls back leaves no notification and no mail", async () => {
    const prompt = await newPrompt("team", [people.bookmarker.id]);
    const mails = () => db().outboxMessage.count({ where: { recipient: people.bookmarker.email } });
    const before = await mails();
    await expect(
      db().$transaction(async (tx) => {
        await notify(tx, { kind: "production_moved", promptId: prompt.id, version: 9, actorId: people.admin.id }, h.clock.now());
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect(await db().notification.count({ where: { promptId: prompt.id } })).toBe(0);
    expect(await mails()).toBe(before);
  });
});
