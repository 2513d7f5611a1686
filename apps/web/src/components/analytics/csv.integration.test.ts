// The Analytics CSV from a real analytics.overview: a title or team name a spreadsheet would run as a
// formula comes out as text.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount, createHarness, createOrganization, createTeam, type Harness } from "@promptly/api/testing";
import { analyticsCsv } from "./csv.ts";

let h: Harness;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

describe("the Analytics CSV", () => {
  it("neutralizes a title and a team name that start like a formula", async () => {
    const ada = await createAccount(h, { fullName: "Ada Admin" });
    const organization = await createOrganization(h, [{ userId: ada.id, role: "member" }]);
    const team = await createTeam(h, organization.id, [{ userId: ada.id, role: "admin" }], "+Team");
    const { api } = await h.signedInClient(ada.id);
    await api.prompts.create({ teamId: team.id, name: "hostile", title: `=HYPERLINK("http://x","y")`, visibility: "team", type: "text", template: "Hi" });

    const overview = await api.analytics.overview({ organizationId: organization.id, days: 7 });
    const lines = analyticsCsv(overview, overview.prompts).split("\r\n");
    expect(lines.find((line) => line.startsWith("hostile,"))).toMatch(/^hostile,"'=HYPERLINK\(""http:\/\/x"",""y""\)",'\+Team,0,/);
  });
});
