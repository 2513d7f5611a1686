// For the tests of playground.run over HTTP: an editor of a team, signed in, with a connection to the
// fake provider and a text prompt on its model, as a person sets them up in the app.
import { createAccount, createOrganization, createTeam, type Harness } from "@promptly/api/testing";
import type { FakeProvider } from "@promptly/api/testing/fake-provider";

export interface PlaygroundEditor {
  /** The editor's session cookie, as a browser sends it. */
  cookie: string;
  /** playground.run's input for version 1 of the prompt on the connection (`{{ word }}` filled). */
  input: { promptId: string; version: number; connectionId: string; variables: Record<string, unknown> };
}

export async function playgroundEditor(harness: Harness, provider: FakeProvider): Promise<PlaygroundEditor> {
  const editor = await createAccount(harness, { fullName: "Ed Editor" });
  const organization = await createOrganization(harness, [{ userId: editor.id, role: "admin" }]);
  const team = await createTeam(harness, organization.id, [{ userId: editor.id, role: "editor" }]);
  const client = await harness.signedInClient(editor.id);
  const connection = await client.api.providers.create({
    organizationId: organization.id, kind: "openai-compatible", name: "Local", baseUrl: provider.openaiBaseUrl, apiKey: provider.apiKey,
  });
  const prompt = await client.api.prompts.create({ teamId: team.id, name: "greeter", title: "Greeter", visibility: "team", type: "text", template: "Say {{ word }}.", model: "gpt-4o-mini" });
  return {
    cookie: [...client.cookies].map(([name, value]) => `${name}=${value}`).join("; "),
    input: { promptId: prompt.id, version: 1, connectionId: connection.id, variables: { word: "hello" } },
  };
}
