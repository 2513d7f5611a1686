// A key's run right after its organization's connections are changed through this process, before this
// process hears its own notification (here: never, its cache serving without listening). The runtime cache
// keeps a team's run connections until `run-connections` comes back from the database; a run in between
// used a deleted connection (its provider called with the old key) or the old default. The routers that
// write connections or defaults now drop them from this process's cache at once, as a key's revoke does.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUNTIME_MSG, runtimeError, runtimeRunResult } from "@promptly/shared";
import { createAccount, createHarness, createOrganization, createTeam, type Harness } from "@promptly/api/testing";
import { startFakeProvider, type FakeProvider } from "@promptly/api/testing/fake-provider";
import { createApp } from "../../app.ts";
import { createLogger } from "../../logger.ts";
import { listenForTests, type TestServer } from "../../../test/test-server.ts";

let h: Harness;
let provider: FakeProvider;
let server: TestServer;

beforeAll(async () => {
  [h, provider] = await Promise.all([createHarness(), startFakeProvider()]);
  server = await listenForTests(createApp({ services: h.services, logger: createLogger("error", { write: () => {} }) }));
  // Serving from memory, deaf to the database's notifications: only what this process does itself clears it.
  h.services.runtime.setListening(true);
});
afterAll(async () => {
  h.services.runtime.setListening(false);
  await server?.close();
  await Promise.all([h.close(), provider.close()]);
});

/** A new organization with a team, an admin, a prompt `reply` labelled production and a key that runs it. */
async function space(name: string) {
  const person = await createAccount(h, { fullName: "Ada Admin" });
  const organization = await createOrganization(h, [{ userId: person.id, role: "admin" }], name);
  const teamId = (await createTeam(h, organization.id, [{ userId: person.id, role: "admin" }], "Core")).id;
  const admin = (await h.signedInClient(person.id)).api;
  const reply = await admin.prompts.create({ teamId, name: "reply", title: "Reply", visibility: "team", type: "text", template: "Hello {{ customer }}", model: "gpt-4o-mini" });
  await admin.promptLabels.set({ promptId: reply.id, label: "production", version: 1 });
  const key = await admin.apiKeys.create({ teamId, name: "runner", scopes: ["run"] });
  const connect = (connectionName: string) =>
    admin.providers.create({ organizationId: organization.id, kind: "openai-compatible", name: connectionName, baseUrl: provider.openaiBaseUrl, apiKey: provider.apiKey });
  const run = () =>
    fetch(`${server.base}/api/v1/prompts/reply/run`, {
      method: "POST",
      headers: { authorization: `Bearer ${key.key}`, "content-type": "application/json" },
      body: JSON.stringify({ variables: { customer: "Ada" }, stream: false }),
    });
  return { organization, teamId, admin, connect, run };
}

const connectionNameOf = async (response: Response) => {
  expect(response.status).toBe(200);
  const { run } = runtimeRunResult.parse(await response.json());
  return (await h.database.db.promptRun.findUniqueOrThrow({ where: { id: run.id }, select: { connectionName: true } })).connectionName;
};

describe("a key's run right after a connection is written through this process, its notification not heard", () => {
  it("the connection deleted: the next run is refused, the provider not called", async () => {
    const { organization, admin, connect, run } = await space("Deleting");
    const connection = await connect("Only");
    await admin.providers.setDefault({ organizationId: organization.id, connectionId: connection.id });
    expect(await connectionNameOf(await run())).toBe("Only");
    await admin.providers.delete({ id: connection.id });
    const calls = provider.calls.length;
    const refused = await run();
    expect(refused.status).toBe(400);
    expect(runtimeError.parse(await refused.json()).error).toMatchObject({ message: RUNTIME_MSG.noConnection, reason: "NO_CONNECTION" });
    expect(provider.calls.length).toBe(calls);
  });

  it("the team's default changed: the next run uses the new default", async () => {
    const { teamId, admin, connect, run } = await space("Team default");
    const first = await connect("First");
    const second = await connect("Second");
    await admin.teams.setDefaultConnection({ id: teamId, connectionId: first.id });
    expect(await connectionNameOf(await run())).toBe("First");
    await admin.teams.setDefaultConnection({ id: teamId, connectionId: second.id });
    expect(await connectionNameOf(await run())).toBe("Second");
  });

  it("the organization's default changed: the next run uses the new default", async () => {
    const { organization, admin, connect, run } = await space("Organization default");
    const first = await connect("First");
    const second = await connect("Second");
    await admin.providers.setDefault({ organizationId: organization.id, connectionId: first.id });
    expect(await connectionNameOf(await run())).toBe("First");
    await admin.providers.setDefault({ organizationId: organization.id, connectionId: second.id });
    expect(await connectionNameOf(await run())).toBe("Second");
  });
});
