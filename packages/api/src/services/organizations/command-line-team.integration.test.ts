// The command line names a team by its id, its name or its name's slug, within an
// organization (id, slug or name) when asked; a name that fits several teams is refused with the list.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, createTeam, type Harness } from "../../../testing/harness.ts";
import { DomainError } from "../../errors.ts";
import { findTeamForCommandLine } from "./teams.ts";

let h: Harness;
let teams: Record<"acmePlatform" | "acmeOps" | "betaOps", string>;

beforeAll(async () => {
  h = await createHarness();
  const organization = (name: string, slug: string) => h.database.db.organization.create({ data: { name, slug }, select: { id: true } });
  const [acme, beta] = [await organization("Acme Corp", "acme"), await organization("Beta", "beta")];
  teams = {
    acmePlatform: (await createTeam(h, acme.id, [], "Platform Team")).id,
    acmeOps: (await createTeam(h, acme.id, [], "Ops")).id,
    betaOps: (await createTeam(h, beta.id, [], "Ops")).id,
  };
});
afterAll(() => h.close());

describe("findTeamForCommandLine", () => {
  it.each([
    ["its id", () => [teams.acmePlatform], "acmePlatform"],
    ["its name", () => ["Platform Team"], "acmePlatform"],
    ["its name in another case, with spaces around", () => ["  platform team "], "acmePlatform"],
    ["its name's slug", () => ["platform-team"], "acmePlatform"],
    ["a shared name within an organization's slug", () => ["ops", "beta"], "betaOps"],
    ["a shared name within an organization's name", () => ["Ops", "acme corp"], "acmeOps"],
    ["its id within its organization", () => [teams.betaOps, "beta"], "betaOps"],
  ] as const)("finds a team by %s", async (_, args, expected) => {
    const [reference, organization] = args();
    expect(await findTeamForCommandLine(h.database.db, reference!, organization)).toBe(teams[expected]);
  });

  it("refuses a name several teams share, listing them with their organizations", async () => {
    const error = await findTeamForCommandLine(h.database.db, "ops").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe("INVALID");
    expect((error as DomainError).message).toBe(
      [
        `"ops" names 2 teams; give the team's id, or --org <organization id, slug or name>:`,
        `  ${teams.acmeOps}  Ops  (organization Acme Corp, acme)`,
        `  ${teams.betaOps}  Ops  (organization Beta, beta)`,
      ].join("\n"),
    );
  });

  it.each([
    [["nobody"], `No team with the id, slug or name "nobody".`],
    [["Platform Team", "beta"], `No team with the id, slug or name "Platform Team" in the organization "beta".`],
    [["00000000-0000-4000-8000-000000000000"], `No team with the id, slug or name "00000000-0000-4000-8000-000000000000".`],
  ])("answers NOT_FOUND for %o", async (args, message) => {
    const [reference, organization] = args as [string, string?];
    const error = await findTeamForCommandLine(h.database.db, reference, organization).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "NOT_FOUND", message });
  });
});
