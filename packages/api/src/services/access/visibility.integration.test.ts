// The one visibility rule (point 2): every list and every access check agree, for every
// kind of person, because both are the same SQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, createAccount, type Harness } from "../../../testing/harness.ts";
import { loadOrganizationAccess, loadTeamAccess, resolveCaller } from "./access.ts";
import { listOrganizations } from "../organizations/organizations.ts";
import { listTeams } from "../organizations/teams.ts";

let h: Harness;
const people: Record<string, string> = {};
const teams: Record<string, string> = {};
const organizations: Record<string, string> = {};

beforeAll(async () => {
  h = await createHarness();
  const db = h.database.db;
  for (const [name, options] of Object.entries({
    superUser: { superUser: true },
    orgAdmin: {},
    orgMember: {},
    teamViewer: {},
    administratorElsewhere: { role: "administrator" as const },
    teamLead: { role: "team_lead" as const },
    stranger: {},
  })) {
    people[name] = (await createAccount(h, options)).id;
  }
  const acme = await db.organization.create({
    data: {
      name: "Acme",
      members: {
        create: [
          { userId: people.orgAdmin!, role: "admin" },
          { userId: people.orgMember!, role: "member" },
          { userId: people.teamViewer!, role: "member" },
          { userId: people.teamLead!, role: "member" },
        ],
      },
    },
  });
  const other = await db.organization.create({ data: { name: "Other", members: { create: [{ userId: people.administratorElsewhere!, role: "member" }] } } });
  organizations.acme = acme.id;
  organizations.other = other.id;
  teams.core = (await db.team.create({ data: { name: "Core", organizationId: acme.id, members: { create: [{ userId: people.teamViewer!, role: "viewer" }, { userId: people.teamLead!, role: "admin" }] } } })).id;
  teams.quiet = (await db.team.create({ data: { name: "Quiet", organizationId: acme.id } })).id;
  teams.elsewhere = (await db.team.create({ data: { name: "Elsewhere", organizationId: other.id } })).id;
});
afterAll(() => h.close());

const EXPECTED: Record<string, { organizations: string[]; teams: string[] }> = {
  superUser: { organizations: ["acme", "other"], teams: ["core", "elsewhere", "quiet"] },
  orgAdmin: { organizations: ["acme"], teams: ["core", "quiet"] },
  orgMember: { organizations: ["acme"], teams: [] },
  teamViewer: { organizations: ["acme"], teams: ["core"] },
  teamLead: { organizations: ["acme"], teams: ["core"] },
  administratorElsewhere: { organizations: ["other"], teams: [] },
  stranger: { organizations: [], teams: [] },
};

describe("who sees which organizations and teams", () => {
  it.each(Object.keys(EXPECTED))("%s: the lists and the access checks agree", async (name) => {
    const db = h.database.db;
    const user = await db.user.findUniqueOrThrow({ where: { id: people[name]! }, select: { id: true, profile: { select: { superUser: true } }, appRole: { select: { role: true } } } });
    const viewer = await resolveCaller(db, user);
    const byId = (ids: Record<string, string>) => Object.fromEntries(Object.entries(ids).map(([key, id]) => [id, key]));
    const listedOrganizations = (await listOrganizations(db, viewer)).map((o) => byId(organizations)[o.id]).filter(Boolean).sort();
    const listedTeams = (await listTeams(db, viewer)).map((t) => byId(teams)[t.id]).sort();
    const checkedOrganizations = [];
    for (const [key, id] of Object.entries(organizations)) if (await loadOrganizationAccess(db, viewer, id)) checkedOrganizations.push(key);
    const checkedTeams = [];
    for (const [key, id] of Object.entries(teams)) if (await loadTeamAccess(db, viewer, id)) checkedTeams.push(key);
    expect({ organizations: listedOrganizations, teams: listedTeams }).toEqual(EXPECTED[name]);
    expect({ organizations: checkedOrganizations.sort(), teams: checkedTeams.sort() }).toEqual(EXPECTED[name]);
  });
});
