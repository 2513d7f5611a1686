// Which connection a run uses when it names none: the team's default, else the organization's, else the
// only one that passed its test; never a failing or untested one silently. Organization admins choose
// the organization's default, team admins their team's.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDER_MSG } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { startFakeProvider, type FakeProvider } from "../../../testing/fake-provider.ts";
import { createWorld, outcome } from "../../../testing/teams-support.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createWorld>>;
let provider: FakeProvider;
let teamId: string;
let promptId: string;

beforeAll(async () => {
  [h, provider] = await Promise.all([createHarness(), startFakeProvider()]);
  world = await createWorld(h);
  teamId = (await world.team()).id;
  promptId = (await world.callers.editor.prompts.create({ teamId, name: "choice", title: "Choice", visibility: "team", type: "text", template: "Hi", model: "gpt-4o-mini" })).id;
});
afterAll(() => Promise.all([h.close(), provider.close()]));

const create = (name: string, baseUrl = provider.openaiBaseUrl) =>
  world.callers.orgAdmin.providers.create({ organizationId: world.organization.id, kind: "openai-compatible", name, baseUrl, apiKey: provider.apiKey });
const choice = () => world.callers.editor.playground.defaultConnection({ promptId });

describe("the connection a run uses when it names none", () => {
  it("never an untested or failing one; the only one that passed; then the organization's default; then the team's", async () => {
    // First by name, never tested, nothing listening: not picked.
    const broken = await create("A broken", "http://127.0.0.1:9/v1");
    const good = await create("B good");
    expect(await choice()).toEqual({ connectionId: null, reason: null, message: PROVIDER_MSG.noConnectionChosen });

    expect(await world.callers.orgAdmin.providers.test({ id: broken.id })).toMatchObject({ ok: false });
    expect(await choice()).toMatchObject({ connectionId: null });
    expect(await world.callers.orgAdmin.providers.test({ id: good.id })).toMatchObject({ ok: true });
    expect(await choice()).toEqual({ connectionId: good.id, reason: "onlyTested", message: "Uses B good: the only connection that passed its test" });

    const other = await create("C other");
    await world.callers.orgAdmin.providers.test({ id: other.id });
    expect(await choice()).toMatchObject({ connectionId: null, message: PROVIDER_MSG.noConnectionChosen });

    await world.callers.orgAdmin.providers.setDefault({ organizationId: world.organization.id, connectionId: other.id });
    expect(await choice()).toEqual({ connectionId: other.id, reason: "organization", message: "Uses C other: the organization's default" });
    expect((await world.callers.orgAdmin.providers.list({ organizationId: world.organization.id })).filter((item) => item.isDefault).map((item) => item.id)).toEqual([other.id]);

    await world.callers.admin.teams.setDefaultConnection({ id: teamId, connectionId: good.id });
    expect(await choice()).toEqual({ connectionId: good.id, reason: "team", message: "Uses B good: the team's default" });
    expect(await world.callers.admin.teams.defaultConnection({ id: teamId })).toMatchObject({ connectionId: good.id });

    // Removed, a default is no more: the organization's applies again.
    await world.callers.orgAdmin.providers.delete({ id: good.id });
    expect(await choice()).toMatchObject({ connectionId: other.id, reason: "organization" });
    const audited = await h.database.db.auditEvent.count({ where: { action: "provider.default" } });
    expect(audited).toBe(2);
  });

  it("who may choose: organization admins the organization's default, team admins the team's", async () => {
    const some = await create("D some");
    for (const kind of ["editor", "admin", "orgMember"] as const) {
      expect(await outcome(world.callers[kind].providers.setDefault({ organizationId: world.organization.id, connectionId: some.id }))).toBe("FORBIDDEN");
    }
    expect(await outcome(world.callers.editor.teams.setDefaultConnection({ id: teamId, connectionId: some.id }))).toBe("FORBIDDEN");
    expect(await outcome(world.callers.viewer.teams.defaultConnection({ id: teamId }))).toBe("FORBIDDEN");
    expect(await outcome(world.callers.admin.teams.setDefaultConnection({ id: teamId, connectionId: null }))).toBe("OK");
    expect(await outcome(world.callers.orgAdmin.providers.setDefault({ organizationId: world.organization.id, connectionId: null }))).toBe("OK");

    // A connection closed to the team cannot be its default; one of another organization does not exist.
    const closed = await world.callers.orgAdmin.providers.create({
      organizationId: world.organization.id, kind: "openai-compatible", name: "E closed", baseUrl: provider.openaiBaseUrl, apiKey: provider.apiKey, teamIds: [(await world.team("Other")).id],
    });
    expect(await outcome(world.callers.admin.teams.setDefaultConnection({ id: teamId, connectionId: closed.id }))).toBe("BAD_REQUEST");
    expect(await outcome(world.callers.outsider.providers.setDefault({ organizationId: world.organization.id, connectionId: some.id }))).toBe("NOT_FOUND");
  });
});
