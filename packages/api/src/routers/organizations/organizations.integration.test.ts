// The rules of organizations: validation messages, unique slugs (also under concurrent
// creates), the creator as admin, partial updates and cascading deletes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MSG } from "@promptly/shared";
import { createHarness, type Harness, type TestClient } from "../../../testing/harness.ts";
import { createAccount, outcome, signedIn, type TestAccount } from "../../../testing/organizations-support.ts";

let h: Harness;
let root: TestAccount;
let api: TestClient["api"];
beforeAll(async () => {
  h = await createHarness();
  root = await createAccount(h, { superUser: true, fullName: "Root" });
  api = (await signedIn(h, root)).api;
});
afterAll(() => h.close());

const counts = async () => ({
  organizations: await h.database.db.organization.count(),
  members: await h.database.db.organizationMember.count(),
});

describe("validation, with its exact messages", () => {
  it.each([
    ["a name of 2 characters", { name: "ab" }, MSG.organizationNameMin],
    ["a name of 2 characters after trimming", { name: "  ab  " }, MSG.organizationNameMin],
    ["an empty name", { name: "" }, MSG.organizationNameMin],
    ["a missing name", {}, MSG.required],
    ["a name of 51 characters", { name: "n".repeat(51) }, MSG.organizationNameMax],
    ["a slug of 2 characters", { name: "Acme", slug: "ab" }, MSG.organizationSlugMin],
    ["a slug of 51 characters", { name: "Acme", slug: "s".repeat(51) }, MSG.organizationSlugMax],
    ["a slug with capitals", { name: "Acme", slug: "Acme-Corp" }, MSG.organizationSlugPattern],
    ["a slug with a space", { name: "Acme", slug: "acme corp" }, MSG.organizationSlugPattern],
    ["a slug with an underscore", { name: "Acme", slug: "acme_corp" }, MSG.organizationSlugPattern],
  ])("create with %s is refused: %s", async (_case, input, message) => {
    const before = await counts();
    const result = await outcome(api.organizations.create(input as { name: string }));
    expect(result).toEqual({ code: "BAD_REQUEST", message });
    expect(await counts()).toEqual(before);
  });

  it.each([
    ["a name of exactly 3 characters and no slug", { name: "abc" }, null],
    ["a name of exactly 50 characters", { name: "n".repeat(50), slug: "fifty-name" }, "fifty-name"],
    ["a slug of exactly 3 characters", { name: "Tri", slug: "a-1" }, "a-1"],
    ["a slug of exactly 50 characters", { name: "Long slug", slug: "s".repeat(50) }, "s".repeat(50)],
    ["an empty slug (meaning none)", { name: "Empty slug", slug: "" }, null],
  ])("create with %s is accepted", async (_case, input, slug) => {
    const created = await api.organizations.create(input);
    expect(created).toMatchObject({ name: input.name, slug, memberCount: 1 });
  });

  it.each([
    ["a name of 2 characters", { name: "ab" }, MSG.organizationNameMin],
    ["a name of 51 characters", { name: "n".repeat(51) }, MSG.organizationNameMax],
    ["a slug of 2 characters", { slug: "ab" }, MSG.organizationSlugMin],
    ["a slug of 51 characters", { slug: "s".repeat(51) }, MSG.organizationSlugMax],
    ["a slug with capitals", { slug: "Nope" }, MSG.organizationSlugPattern],
  ])("update with %s is refused: %s", async (_case, change, message) => {
    const organization = await api.organizations.create({ name: "Before update" });
    const result = await outcome(api.organizations.update({ id: organization.id, ...change }));
    expect(result).toEqual({ code: "BAD_REQUEST", message });
    expect(await api.organizations.get({ organizationId: organization.id })).toMatchObject({ name: "Before update", slug: null });
  });
});

describe("creating", () => {
  it("makes the creator an admin member and lists the organization for them", async () => {
    const created = await api.organizations.create({ name: "  Acme Corp  ", slug: "acme-corp" });
    expect(created).toMatchObject({ name: "Acme Corp", slug: "acme-corp", memberCount: 1 });
    const members = await api.organizationMembers.list({ organizationId: created.id });
    expect(members).toEqual([expect.objectContaining({ userId: root.id, role: "admin", email: root.email, fullName: "Root", isSuperUser: true })]);
    const listed = (await api.organizations.list()).find((o) => o.id === created.id);
    expect(listed).toMatchObject({ myRole: "admin", isAdmin: true, memberCount: 1 });
    expect((await h.database.db.organization.findUnique({ where: { id: created.id } }))?.createdById).toBe(root.id);
  });

  it("refuses a slug that is taken with a CONFLICT and changes nothing", async () => {
    await api.organizations.create({ name: "First", slug: "taken-slug" });
    const before = await counts();
    expect(await outcome(api.organizations.create({ name: "Second", slug: "taken-slug" }))).toEqual({
      code: "CONFLICT",
      message: MSG.organizationSlugTaken,
    });
    expect(await counts()).toEqual(before);
  });

  it("gives one organization and one CONFLICT for two simultaneous creates with the same slug", async () => {
    const second = (await signedIn(h, root)).api;
    for (let round = 0; round < 5; round++) {
      const slug = `race-${round}`;
      const before = await counts();
      const results = await Promise.all([
        outcome(api.organizations.create({ name: `Race A ${round}`, slug })),
        outcome(second.organizations.create({ name: `Race B ${round}`, slug })),
      ]);
      expect(results.map((r) => r.code).sort()).toEqual(["CONFLICT", "OK"]);
      expect(results.find((r) => r.code === "CONFLICT")?.message).toBe(MSG.organizationSlugTaken);
      // No half-created organization: exactly one organization and its one admin were added.
      expect(await counts()).toEqual({ organizations: before.organizations + 1, members: before.members + 1 });
      expect(await h.database.db.organization.count({ where: { slug } })).toBe(1);
    }
  });

  it("organizations without a slug do not collide", async () => {
    await api.organizations.create({ name: "No slug one" });
    await api.organizations.create({ name: "No slug two" });
    expect(await h.database.db.organization.count({ where: { name: { startsWith: "No slug" }, slug: null } })).toBe(2);
  });
});

describe("updating and deleting", () => {
  it("renames without touching the slug, changes the slug, and clears it with an empty one", async () => {
    const { id } = await api.organizations.create({ name: "Old name", slug: "old-slug" });
    expect(await api.organizations.update({ id, name: "New name" })).toMatchObject({ name: "New name", slug: "old-slug" });
    expect(await api.organizations.update({ id, slug: "new-slug" })).toMatchObject({ name: "New name", slug: "new-slug" });
    expect(await api.organizations.update({ id, slug: "" })).toMatchObject({ name: "New name", slug: null });
  });

  it("refuses another organization's slug with a CONFLICT", async () => {
    await api.organizations.create({ name: "Holder", slug: "held-slug" });
    const { id } = await api.organizations.create({ name: "Wants it", slug: "wants-slug" });
    expect(await outcome(api.organizations.update({ id, slug: "held-slug" }))).toEqual({ code: "CONFLICT", message: MSG.organizationSlugTaken });
    expect(await api.organizations.get({ organizationId: id })).toMatchObject({ slug: "wants-slug" });
  });

  it("answers NOT_FOUND for an organization that does not exist", async () => {
    const missing = "00000000-0000-4000-8000-000000000000";
    expect((await outcome(api.organizations.update({ id: missing, name: "Ghost" }))).code).toBe("NOT_FOUND");
    expect((await outcome(api.organizations.delete({ id: missing }))).code).toBe("NOT_FOUND");
  });

  it("deletes the organization with its members and teams", async () => {
    const member = await createAccount(h);
    const { id } = await api.organizations.create({ name: "Doomed" });
    await api.organizationMembers.add({ organizationId: id, email: member.email, role: "member" });
    const team = await h.database.db.team.create({
      data: { name: "Doomed team", organizationId: id, members: { create: { userId: member.id, role: "admin" } } },
    });
    expect(await api.organizations.delete({ id })).toEqual({ id });
    const db = h.database.db;
    expect(await db.organization.count({ where: { id } })).toBe(0);
    expect(await db.organizationMember.count({ where: { organizationId: id } })).toBe(0);
    expect(await db.team.count({ where: { id: team.id } })).toBe(0);
    expect(await db.teamMember.count({ where: { teamId: team.id } })).toBe(0);
    expect(await db.user.count({ where: { id: member.id } })).toBe(1);
  });
});

describe("listing", () => {
  it("gives a super user every organization by name and others only their own", async () => {
    const person = await createAccount(h);
    const personApi = (await signedIn(h, person)).api;
    const zeta = await api.organizations.create({ name: "Zeta listing" });
    const alpha = await api.organizations.create({ name: "Alpha listing" });
    await h.database.db.organizationMember.create({ data: { organizationId: zeta.id, userId: person.id, role: "member" } });

    const all = await api.organizations.list();
    const names = all.map((o) => o.name);
    expect(names.indexOf("Alpha listing")).toBeGreaterThanOrEqual(0);
    expect(names.indexOf("Alpha listing")).toBeLessThan(names.indexOf("Zeta listing"));
    expect(all.length).toBe(await h.database.db.organization.count());

    const mine = await personApi.organizations.list();
    expect(mine.map((o) => o.id)).toEqual([zeta.id]);
    expect(mine[0]).toMatchObject({ memberCount: 2, myRole: "member", isAdmin: false });
    expect(mine.map((o) => o.id)).not.toContain(alpha.id);
  });
});
