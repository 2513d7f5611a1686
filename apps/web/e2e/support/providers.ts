// A model provider for a spec file: the tests' fake OpenAI- and Anthropic-compatible server, its key
// recorded as a secret the server's log must never hold, and an organization's connection to it.
import { randomBytes } from "node:crypto";
import { test, type APIRequestContext, type Page } from "@playwright/test";
import { startFakeProvider, type FakeProvider } from "../../../../packages/api/testing/fake-provider.ts";
import { callMutation, uniqueName } from "./accounts.ts";
import { recordSecret } from "./secrets.ts";

/** Starts a fake provider before the file's tests and closes it after them: call at the file's top level. */
export function fakeProviderForFile(): () => FakeProvider {
  let provider: FakeProvider | undefined;
  test.beforeAll(async () => {
    provider = await startFakeProvider({ apiKey: `sk-e2e-${randomBytes(16).toString("hex")}` });
    recordSecret("provider key", provider.apiKey);
  });
  test.afterAll(() => provider?.close());
  return () => {
    if (!provider) throw new Error("the fake provider starts before the file's tests");
    return provider;
  };
}

/** An OpenAI-compatible connection of the organization to `provider`, tested (so runs start on it), made by an admin's `request`. */
export async function testedConnection(request: APIRequestContext, organizationId: string, provider: FakeProvider): Promise<{ id: string }> {
  const connection = (await callMutation(request, "providers.create", {
    organizationId, kind: "openai-compatible", name: uniqueName("Local"), baseUrl: provider.openaiBaseUrl, apiKey: provider.apiKey,
  })) as { id: string };
  await callMutation(request, "providers.test", { id: connection.id });
  return connection;
}

/** The playground's column `number` (1-based). */
export const playgroundColumn = (page: Page, number: number) => page.getByRole("region", { name: `Model ${number}`, exact: true });
