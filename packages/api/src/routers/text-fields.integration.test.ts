// Control characters in every free-text field outside auth: a NUL once reached
// PostgreSQL and came back as a 500 with the driver's message. Now each is a 400 with one clear
// message, and nothing is written.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MSG } from "@promptly/shared";
import { CONTROL_CHARACTERS, createHarness, outcome, type Harness, type TestClient } from "../../testing/harness.ts";
import { createAccount, createOrganization, signedIn } from "../../testing/organizations-support.ts";

let h: Harness;
let api: TestClient["api"];
let organizationId: string;
let teamId: string;

beforeAll(async () => {
  h = await createHarness();
  const root = await createAccount(h, { superUser: true, fullName: "Root" });
  api = (await signedIn(h, root)).api;
  organizationId = (await createOrganization(h, [{ userId: root.id, role: "admin" }], "Plain")).id;
  teamId = (await api.teams.create({ name: "Plain team", organizationId })).id;
});
afterAll(() => h.close());

async function names() {
  const db = h.database.db;
  return {
    organizations: (await db.organization.findMany({ select: { name: true }, orderBy: { name: "asc" } })).map((o) => o.name),
    teams: (await db.team.findMany({ select: { name: true }, orderBy: { name: "asc" } })).map((t) => t.name),
    fullNames: (await db.profile.findMany({ select: { fullName: true } })).map((p) => p.fullName),
  };
}

const FIELDS: [field: string, call: (text: string) => Promise<unknown>][] = [
  ["organizations.create name", (text) => api.organizations.create({ name: `Acme ${text} Labs` })],
  ["organizations.update name", (text) => api.organizations.update({ id: organizationId, name: `Acme ${text} Labs` })],
  ["teams.create name", (text) => api.teams.create({ name: `Co${text}re`, organizationId })],
  ["teams.rename name", (text) => api.teams.rename({ id: teamId, name: `Co${text}re` })],
  ["profile.update fullName", (text) => api.profile.update({ fullName: `Ada${text} Lovelace`, username: "" })],
];

describe("control characters in text fields", () => {
  it.each(FIELDS.flatMap(([field, call]) => CONTROL_CHARACTERS.map(([name, c]) => [field, name, call, c] as const)))(
    "%s with %s: BAD_REQUEST, nothing written",
    async (_field, _name, call, c) => {
      const before = await names();
      expect(await outcome(call(c))).toEqual({ code: "BAD_REQUEST", message: MSG.controlCharacters });
      expect(await names()).toEqual(before);
    },
  );

  it("ordinary text, with accents, emoji and right-to-left scripts, is accepted", async () => {
    await api.teams.rename({ id: teamId, name: "Équipe 🚀 فريق" });
    expect((await names()).teams).toContain("Équipe 🚀 فريق");
  });
});
