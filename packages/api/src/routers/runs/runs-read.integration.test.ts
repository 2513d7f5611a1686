// Reading recorded runs: who ran each one, named (a person, or an API key named only to those who
// manage the team's keys), and the per-version figures in the organization's analytics, counted only
// over the prompts the caller may read.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunPromptInput } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { startFakeProvider, type FakeProvider } from "../../../testing/fake-provider.ts";
import { createWorld, failure, type SignedInAccount } from "../../../testing/teams-support.ts";
import { createPrompt } from "../../../testing/prompts-support.ts";
import { streamRun } from "../../services/runs/runs.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createWorld>>;
let provider: FakeProvider;
let team: { id: string };
let connection: { id: string };

type Api = SignedInAccount["api"];
type Done = { type: "done"; run: { id: string; status: string } };

beforeAll(async () => {
  [h, provider] = await Promise.all([createHarness(), startFakeProvider()]);
  world = await createWorld(h);
  team = await world.team();
  connection = await world.callers.orgAdmin.providers.create({
    organizationId: world.organization.id, kind: "openai-compatible", name: "Local", baseUrl: provider.openaiBaseUrl, apiKey: provider.apiKey,
  });
});
afterAll(() => Promise.all([h.close(), provider.close()]));

async function runToEnd(api: Api, input: RunPromptInput) {
  let done: Done | undefined;
  for await (const event of (await api.playground.run(input)) as AsyncIterable<Done | { type: "delta" }>) if (event.type === "done") done = event;
  return done!.run;
}

const runInput = (promptId: string, version = 1): RunPromptInput => ({ promptId, version, connectionId: connection.id, model: "gpt-4o-mini", variables: { question: "a joke" } });

describe("who ran a run", () => {
  it("is the person's display name, or the API key's name to those who manage the team's keys ('API key' to the others)", async () => {
    const prompt = await createPrompt(world.callers.editor, team.id, { visibility: "team", template: "Tell {{ question }}." });
    const byPerson = await runToEnd(world.callers.editor, runInput(prompt.id));
    const key = await world.callers.admin.apiKeys.create({ teamId: team.id, name: "Deploy bot", scopes: ["run"] });
    const events = await streamRun(h.services, { apiKeyId: key.id }, { id: prompt.id, teamId: team.id, organizationId: world.organization.id }, {
      ...runInput(prompt.id), variables: { question: "a joke" }, parameters: {},
    });
    let byKey: { id: string } | undefined;
    for await (const event of events) if (event.type === "done") byKey = event.run;

    const named = (api: Api) => api.runs.list({ promptId: prompt.id }).then((page) => page.items.map((run) => [run.id, run.actor]));
    expect(await named(world.callers.admin)).toEqual([
      [byKey!.id, { kind: "apiKey", name: "Deploy bot" }],
      [byPerson.id, { kind: "person", name: "Ed Editor" }],
    ]);
    expect(await named(world.callers.viewer)).toEqual([
      [byKey!.id, { kind: "apiKey", name: "API key" }],
      [byPerson.id, { kind: "person", name: "Ed Editor" }],
    ]);
    expect((await world.callers.admin.runs.get({ id: byKey!.id })).actor).toEqual({ kind: "apiKey", name: "Deploy bot" });
    expect((await world.callers.editor.runs.get({ id: byKey!.id })).actor).toEqual({ kind: "apiKey", name: "API key" });
    expect((await world.callers.viewer.runs.get({ id: byPerson.id })).actor).toEqual({ kind: "person", name: "Ed Editor" });
  });
});

describe("the models of a prompt's runs", () => {
  it("are each model its runs used, once, by name (the Runs tab's model filter)", async () => {
    const prompt = await createPrompt(world.callers.editor, team.id, { visibility: "team", template: "Tell {{ question }}." });
    expect(await world.callers.viewer.runs.models({ promptId: prompt.id })).toEqual([]);
    await runToEnd(world.callers.editor, { ...runInput(prompt.id), model: "local-llama" });
    await runToEnd(world.callers.editor, runInput(prompt.id));
    await runToEnd(world.callers.editor, { ...runInput(prompt.id), model: "local-llama" });
    expect(await world.callers.viewer.runs.models({ promptId: prompt.id })).toEqual(["gpt-4o-mini", "local-llama"]);
    expect(await failure(world.callers.orgMember.runs.models({ promptId: prompt.id }))).toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("the organization's analytics", () => {
  it("count runs per prompt and version beside the fetches, only of the prompts the caller may read, and of the chosen team", async () => {
    const other = await world.team("Runs elsewhere");
    const shared = await createPrompt(world.callers.editor, team.id, { visibility: "team", template: "Tell {{ question }}." });
    await world.callers.editor.promptVersions.create({ promptId: shared.id, type: "text", template: "Now tell {{ question }}.", model: "gpt-4o-mini" });
    const secret = await createPrompt(world.callers.editor, team.id, { visibility: "private", template: "Tell {{ question }}." });
    await runToEnd(world.callers.editor, runInput(shared.id, 1));
    provider.failWith = 401;
    try {
      await runToEnd(world.callers.editor, runInput(shared.id, 1));
    } finally {
      provider.failWith = null;
    }
    await runToEnd(world.callers.editor, runInput(shared.id, 2));
    await runToEnd(world.callers.editor, runInput(secret.id, 1));

    const organizationId = world.organization.id;
    const figures = (runs: { promptId: string; version: number; runs: number; errorRate: number }[], promptIds: string[]) =>
      runs.filter((row) => promptIds.includes(row.promptId)).map((row) => [row.promptId, row.version, row.runs, row.errorRate]);
    const asViewer = await world.callers.viewer.analytics.overview({ organizationId, days: 7 });
    expect(figures(asViewer.runs, [shared.id, secret.id])).toEqual([[shared.id, 2, 1, 0], [shared.id, 1, 2, 0.5]]);
    const row = asViewer.runs.find((run) => run.promptId === shared.id && run.version === 1)!;
    expect(row.p95TotalMs).toBeGreaterThanOrEqual(row.p50TotalMs!);
    // The same figures as the prompt's own.
    expect(asViewer.runs.filter((run) => run.promptId === shared.id).map(({ promptId: _promptId, ...stats }) => stats)).toEqual(
      await world.callers.viewer.runs.stats({ promptId: shared.id }),
    );

    const asAuthor = await world.callers.editor.analytics.overview({ organizationId, days: 7 });
    expect(figures(asAuthor.runs, [secret.id])).toEqual([[secret.id, 1, 1, 0]]);
    const otherTeam = await world.callers.orgAdmin.analytics.overview({ organizationId, teamId: other.id, days: 7 });
    expect(otherTeam.runs).toEqual([]);
  });
});
