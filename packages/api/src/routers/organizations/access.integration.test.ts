// Every procedure of the organizations and organizationMembers routers, called by every kind of
// caller. Each case runs against a fresh organization, and a refused call
// must leave the organization and its members exactly as they were.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MSG } from "@promptly/shared";
import { createHarness, type Harness, type TestClient } from "../../../testing/harness.ts";
import type { CallerKind } from "../../../testing/harness.ts";
import { createAccount, createOrganization, outcome, signedIn, type TestAccount } from "../../../testing/organizations-support.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const KINDS = ["anonymous", "outsider", "orgMember", "orgAdmin", "superUser"] as const satisfies readonly CallerKind[];
type Kind = (typeof KINDS)[number];

interface World {
  organizationId: string;
  admin: TestAccount;
  /** A second member the member procedures act on. */
  targetMemberId: string;
  /** A pending invitation the invitation procedures act on. */
  inviteId: string;
  outsider: TestAccount;
  api: TestClient["api"];
}

async function world(kind: Kind): Promise<World> {
  const admin = await createAccount(h);
  const member = await createAccount(h);
  const target = await createAccount(h);
  const outsider = await createAccount(h);
  const organization = await createOrganization(h, [
    { userId: admin.id, role: "admin" },
    { userId: member.id, role: "member" },
    { userId: target.id, role: "member" },
  ]);
  const callerAccount = {
    anonymous: null,
    outsider: await createAccount(h),
    orgMember: member,
    orgAdmin: admin,
    superUser: await createAccount(h, { superUser: true }),
  }[kind];
  const client = callerAccount ? await signedIn(h, callerAccount) : h.client();
  const invite = await h.database.db.organizationInvite.create({
    data: { organizationId: organization.id, email: "invited@example.test", role: "member", expiresAt: new Date(h.clock.now().getTime() + 86_400_000) },
  });
  return {
    inviteId: invite.id,
    organizationId: organization.id,
    admin,
    targetMemberId: organization.members.find((m) => m.userId === target.id)!.id,
    outsider,
    api: client.api,
  };
}

/** What a refused call must not have changed. */
async function snapshot(organizationId: string) {
  const db = h.database.db;
  return {
    organization: await db.organization.findUnique({ where: { id: organizationId }, select: { name: true, slug: true } }),
    members: await db.organizationMember.findMany({
      where: { organizationId },
      orderBy: { id: "asc" },
      select: { id: true, userId: true, role: true },
    }),
    organizations: await db.organization.count(),
    invites: await db.organizationInvite.count({ where: { organizationId } }),
  };
}

type Expected = "OK" | "UNAUTHORIZED" | "FORBIDDEN" | "NOT_FOUND";
interface ProcedureCase {
  call(w: World): Promise<unknown>;
  expected: Record<Kind, Expected>;
  /** Checks the answer of an allowed call. */
  verify(w: World, value: unknown, kind: Kind): Promise<void> | void;
  forbiddenMessage?: string;
}

const superOnly = { anonymous: "UNAUTHORIZED", outsider: "FORBIDDEN", orgMember: "FORBIDDEN", orgAdmin: "FORBIDDEN", superUser: "OK" } as const;
const adminsOnly = { anonymous: "UNAUTHORIZED", outsider: "NOT_FOUND", orgMember: "FORBIDDEN", orgAdmin: "OK", superUser: "OK" } as const;
const membersOnly = { anonymous: "UNAUTHORIZED", outsider: "NOT_FOUND", orgMember: "OK", orgAdmin: "OK", superUser: "OK" } as const;

const PROCEDURES: Record<string, ProcedureCase> = {
  "organizations.list": {
    call: (w) => w.api.organizations.list(),
    expected: { anonymous: "UNAUTHORIZED", outsider: "OK", orgMember: "OK", orgAdmin: "OK", superUser: "OK" },
    verify(w, value, kind) {
      const item = (value as { id: string; myRole: string | null; isAdmin: boolean; memberCount: number }[]).find((o) => o.id === w.organizationId);
      if (kind === "outsider") return expect(item).toBeUndefined();
      expect(item).toMatchObject({
        memberCount: 3,
        myRole: { orgMember: "member", orgAdmin: "admin", superUser: null }[kind as "orgMember"] ?? null,
        isAdmin: kind !== "orgMember",
      });
    },
  },
  "organizations.get": {
    call: (w) => w.api.organizations.get({ organizationId: w.organizationId }),
    expected: membersOnly,
    verify: (w, value, kind) => expect(value).toMatchObject({ id: w.organizationId, memberCount: 3, isAdmin: kind !== "orgMember" }),
  },
  "organizations.isAdmin": {
    call: (w) => w.api.organizations.isAdmin({ organizationId: w.organizationId }),
    expected: membersOnly,
    verify: (_w, value, kind) => expect(value).toBe(kind !== "orgMember"),
  },
  "organizations.create": {
    call: (w) => w.api.organizations.create({ name: "Created Here", slug: `created-${w.organizationId.slice(0, 8)}` }),
    expected: superOnly,
    forbiddenMessage: MSG.onlySuperUsersCreateOrganizations,
    async verify(_w, value) {
      const created = value as { id: string; memberCount: number };
      expect(created.memberCount).toBe(1);
      expect(await h.database.db.organization.count({ where: { id: created.id } })).toBe(1);
    },
  },
  "organizations.update": {
    call: (w) => w.api.organizations.update({ id: w.organizationId, name: "Renamed Org" }),
    expected: superOnly,
    async verify(w) {
      expect((await snapshot(w.organizationId)).organization?.name).toBe("Renamed Org");
    },
  },
  "organizations.delete": {
    call: (w) => w.api.organizations.delete({ id: w.organizationId }),
    expected: superOnly,
    async verify(w) {
      const after = await snapshot(w.organizationId);
      expect(after.organization).toBeNull();
      expect(after.members).toEqual([]);
    },
  },
  "organizationMembers.list": {
    call: (w) => w.api.organizationMembers.list({ organizationId: w.organizationId }),
    expected: adminsOnly,
    verify: (_w, value) => expect((value as unknown[]).length).toBe(3),
  },
  "organizationMembers.add": {
    call: (w) => w.api.organizationMembers.add({ organizationId: w.organizationId, email: w.outsider.email, role: "member" }),
    expected: adminsOnly,
    async verify(w, value) {
      // Someone outside the organization is invited; they join only by accepting.
      expect(value).toMatchObject({ status: "invited", invite: { email: w.outsider.email, role: "member" } });
      expect((await snapshot(w.organizationId)).members).toHaveLength(3);
    },
  },
  "organizationInvites.listPending": {
    call: (w) => w.api.organizationInvites.listPending({ organizationId: w.organizationId }),
    expected: adminsOnly,
    verify: (w, value) => expect(value).toEqual([expect.objectContaining({ id: w.inviteId, email: "invited@example.test" })]),
  },
  "organizationInvites.cancel": {
    call: (w) => w.api.organizationInvites.cancel({ id: w.inviteId }),
    expected: adminsOnly,
    async verify(w) {
      expect(await h.database.db.organizationInvite.count({ where: { id: w.inviteId } })).toBe(0);
    },
  },
  "organizationMembers.updateRole": {
    call: (w) => w.api.organizationMembers.updateRole({ id: w.targetMemberId, role: "admin" }),
    expected: adminsOnly,
    async verify(w) {
      expect((await snapshot(w.organizationId)).members.find((m) => m.id === w.targetMemberId)?.role).toBe("admin");
    },
  },
  "organizationMembers.remove": {
    call: (w) => w.api.organizationMembers.remove({ id: w.targetMemberId }),
    expected: adminsOnly,
    async verify(w) {
      expect((await snapshot(w.organizationId)).members.map((m) => m.id)).not.toContain(w.targetMemberId);
    },
  },
};

const cases = Object.entries(PROCEDURES).flatMap(([name, procedure]) =>
  KINDS.map((kind) => ({ name, kind, expected: procedure.expected[kind], procedure })),
);

describe("who may call what", () => {
  it.each(cases)("$name as $kind: $expected", async ({ kind, expected, procedure }) => {
    const w = await world(kind);
    const before = await snapshot(w.organizationId);
    const result = await outcome(procedure.call(w));
    expect(result.code).toBe(expected);
    if (expected === "OK") {
      await procedure.verify(w, result.value, kind);
      return;
    }
    expect(await snapshot(w.organizationId)).toEqual(before);
    if (expected === "FORBIDDEN" && procedure.forbiddenMessage) expect(result.message).toBe(procedure.forbiddenMessage);
  });
});

describe("outsiders learn nothing about which organizations exist", () => {
  const MISSING = "00000000-0000-4000-8000-000000000000";
  it.each([
    ["organizations.get", (api: TestClient["api"], id: string) => api.organizations.get({ organizationId: id })],
    ["organizations.isAdmin", (api: TestClient["api"], id: string) => api.organizations.isAdmin({ organizationId: id })],
    ["organizationMembers.list", (api: TestClient["api"], id: string) => api.organizationMembers.list({ organizationId: id })],
    ["organizationMembers.add", (api: TestClient["api"], id: string) => api.organizationMembers.add({ organizationId: id, email: "x@example.test", role: "member" })],
  ])("%s answers the same for an existing and a missing organization", async (_name, call) => {
    const w = await world("outsider");
    const existing = await outcome(call(w.api, w.organizationId));
    const missing = await outcome(call(w.api, MISSING));
    expect(existing).toEqual(missing);
    expect(existing.code).toBe("NOT_FOUND");
  });

  it.each([
    ["organizationMembers.updateRole", (api: TestClient["api"], id: string) => api.organizationMembers.updateRole({ id, role: "admin" })],
    ["organizationMembers.remove", (api: TestClient["api"], id: string) => api.organizationMembers.remove({ id })],
  ])("%s answers the same for another organization's member and a missing member", async (_name, call) => {
    const w = await world("outsider");
    const existing = await outcome(call(w.api, w.targetMemberId));
    const missing = await outcome(call(w.api, MISSING));
    expect(existing).toEqual(missing);
    expect(existing.code).toBe("NOT_FOUND");
  });

  it("an admin of one organization cannot act on another organization's members", async () => {
    const w = await world("orgAdmin");
    const other = await world("orgAdmin");
    const before = await snapshot(other.organizationId);
    expect((await outcome(w.api.organizationMembers.remove({ id: other.targetMemberId }))).code).toBe("NOT_FOUND");
    expect((await outcome(w.api.organizationMembers.updateRole({ id: other.targetMemberId, role: "admin" }))).code).toBe("NOT_FOUND");
    expect((await outcome(w.api.organizationMembers.list({ organizationId: other.organizationId }))).code).toBe("NOT_FOUND");
    expect(await snapshot(other.organizationId)).toEqual(before);
  });
});
