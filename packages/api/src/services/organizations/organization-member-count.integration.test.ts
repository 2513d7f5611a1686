// organizations.member_count is kept by a trigger (migration organization_member_count): it must equal
// the real number of members after every kind of write, including ones that bypass the services.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../../../testing/harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

async function counts() {
  const organizations = await h.database.db.organization.findMany({
    select: { id: true, memberCount: true, _count: { select: { members: true } } },
  });
  return organizations.map((o) => ({ id: o.id, stored: o.memberCount, real: o._count.members }));
}

describe("organizations.member_count", () => {
  it("follows inserts, deletes, moves and cascades", async () => {
    const db = h.database.db;
    const users = await Promise.all(
      Array.from({ length: 4 }, (_, i) => db.user.create({ data: { email: `count-${i}@example.test` }, select: { id: true } })),
    );
    const [a, b] = await Promise.all([
      db.organization.create({ data: { name: "Alpha", members: { create: [{ userId: users[0]!.id, role: "admin" }] } } }),
      db.organization.create({ data: { name: "Beta" } }),
    ]);
    await db.organizationMember.createMany({ data: users.slice(1).map((u) => ({ organizationId: a.id, userId: u.id })) });
    await db.$executeRaw`INSERT INTO organization_members (organization_id, user_id) VALUES (${b.id}::uuid, ${users[0]!.id}::uuid)`;
    expect(await counts()).toEqual(expect.arrayContaining([{ id: a.id, stored: 4, real: 4 }, { id: b.id, stored: 1, real: 1 }]));

    await db.organizationMember.deleteMany({ where: { organizationId: a.id, userId: users[3]!.id } });
    await db.organizationMember.updateMany({ where: { organizationId: a.id, userId: users[2]!.id }, data: { organizationId: b.id } });
    await db.user.delete({ where: { id: users[1]!.id } }); // cascades to the membership
    expect(await counts()).toEqual(expect.arrayContaining([{ id: a.id, stored: 1, real: 1 }, { id: b.id, stored: 2, real: 2 }]));

    await db.organization.delete({ where: { id: a.id } });
    expect(await counts()).toEqual([{ id: b.id, stored: 2, real: 2 }]);
  });
});
