// A judged assertion against a local server speaking OpenAI's and Anthropic's APIs: the rubric, the
// expected and the actual output go to the assertion's model with the fixed instruction; the verdict is
// read from a fenced block or words around it; no verdict, a provider's failure, a connection of
// another organization or closed to the team, and a model the connection does not offer are failures
// that say why.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { PROVIDER_MSG, RUN_MSG, type Assertion } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { startFakeProvider, type FakeProvider } from "../../../testing/fake-provider.ts";
import { createWorld } from "../../../testing/teams-support.ts";
import { createJudge, type JudgeCall } from "./judge.ts";
import type { Judge } from "./assertions.ts";

let h: Harness;
let provider: FakeProvider;
let world: Awaited<ReturnType<typeof createWorld>>;
let judge: Judge;
let openai: { id: string };
let anthropic: { id: string };
let otherTeamOnly: { id: string };
let elsewhere: { id: string };

beforeAll(async () => {
  [h, provider] = await Promise.all([createHarness(), startFakeProvider()]);
  world = await createWorld(h);
  const team = await world.team();
  const other = await world.team("Other");
  const organizationId = world.organization.id;
  const connection = (name: string, extra: Record<string, unknown> = {}) =>
    world.callers.orgAdmin.providers.create({ organizationId, kind: "openai-compatible", name, baseUrl: provider.openaiBaseUrl, apiKey: provider.apiKey, ...extra });
  openai = await connection("Local", { models: ["gpt-4o-mini"] });
  otherTeamOnly = await connection("Other team's", { teamIds: [other.id] });
  anthropic = await world.callers.orgAdmin.providers.create({ organizationId, kind: "anthropic", name: "Claude", baseUrl: provider.anthropicBaseUrl, apiKey: provider.apiKey });
  const elsewhereOrganization = await h.database.db.organization.findFirstOrThrow({ where: { members: { some: { userId: world.accounts.outsider.id } } } });
  elsewhere = await world.callers.outsider.providers.create({ organizationId: elsewhereOrganization.id, kind: "openai-compatible", name: "Theirs", baseUrl: provider.openaiBaseUrl, apiKey: provider.apiKey });
  judge = createJudge({ db: h.database.db, config: h.services.config, organizationId, teamId: team.id });
});
afterAll(() => Promise.all([h.close(), provider.close()]));
afterEach(() => {
  provider.answer.text = null;
  provider.answer.noUsage = false;
  provider.answer.chunkDelayMs = 0;
  provider.failWith = null;
});

const rubric = (connectionId: string, model = "gpt-4o-mini"): Assertion => ({ type: "judge", value: "The answer greets the user by name.", connectionId, model });
const facts = { output: "Hello, Ada!", latencyMs: 80, cost: null, expected: "Hi Ada" };

describe("createJudge", () => {
  it("asks the model with the fixed instruction, the rubric, the expected and the actual output; reads a fenced verdict", async () => {
    provider.answer.text = '```json\n{"pass": true, "reason": "It greets Ada by name."}\n```';
    const calls = provider.calls.length;
    expect(await judge(rubric(openai.id), facts)).toEqual({ pass: true, reason: "It greets Ada by name." });
    const sent = provider.calls.slice(calls).find((call) => call.path === "/v1/chat/completions")!.body as { model: string; temperature: number; messages: { role: string; content: string }[] };
    expect(sent).toMatchObject({ model: "gpt-4o-mini", temperature: 0 });
    expect(sent.messages[0]).toMatchObject({ role: "system", content: expect.stringContaining('{"pass": true or false, "reason":') });
    expect(sent.messages[1]!.content).toBe("RUBRIC:\nThe answer greets the user by name.\n\nEXPECTED:\nHi Ada\n\nOUTPUT:\nHello, Ada!");
  });

  it("finds the verdict among words, through Anthropic's API too", async () => {
    provider.answer.text = 'Having read it: {"pass": false, "reason": "It never names the user."} That is all.';
    expect(await judge(rubric(anthropic.id, "claude-haiku-4-5"), facts)).toEqual({ pass: false, reason: "It never names the user." });
    const sent = provider.calls.at(-1)!.body as { system: string; temperature: number };
    expect(sent.system).toContain("strict evaluator");
  });

  it("finds the verdict after prose with braces, and past braces inside its own strings", async () => {
    provider.answer.text = 'I read {the output} and {"notes": "none"} first. {"pass": true, "reason": "It prints {\\"name\\": \\"Ada\\"} and a lone } brace."} Done.';
    expect(await judge(rubric(openai.id), facts)).toEqual({ pass: true, reason: 'It prints {"name": "Ada"} and a lone } brace.' });
    provider.answer.text = '{"result": {"pass": "false", "reason": "A quote \\" and a { in it."}}';
    expect(await judge(rubric(openai.id), facts)).toEqual({ pass: false, reason: 'A quote " and a { in it.' });
  });

  it("reads an answer of many braces (steered by the judged text) in linear time, with the verdict it had before", async () => {
    provider.answer.text = `${"{}".repeat(50)}{"pass": true, "reason": "After the braces."}`;
    expect(await judge(rubric(openai.id), facts)).toEqual({ pass: true, reason: "After the braces." });
    // Each span of it tried as JSON took minutes of CPU (84 s at 8,000 characters), the event loop blocked.
    provider.answer.text = "{}".repeat(8_000);
    const startedAt = performance.now();
    const judged = await judge(rubric(openai.id), facts);
    // Loose for a loaded machine (a provider call included), far below the old reading's minutes.
    expect(performance.now() - startedAt).toBeLessThan(20_000);
    expect(judged).toEqual({ pass: false, reason: expect.stringContaining("The judge's answer gave no verdict") });
  });

  it("an answer without a verdict fails, quoting it", async () => {
    provider.answer.text = "Looks fine to me.";
    expect(await judge(rubric(openai.id), facts)).toEqual({ pass: false, reason: 'The judge\'s answer gave no verdict (expected {"pass": true|false, "reason": "..."}): "Looks fine to me."' });
    provider.answer.text = '{"pass": "maybe"}';
    expect((await judge(rubric(openai.id), facts)).pass).toBe(false);
  });

  it("a provider's failure fails the assertion in the provider's words", async () => {
    provider.failWith = 500;
    expect(await judge(rubric(openai.id), facts)).toEqual({ pass: false, reason: "The judge could not answer: Local failed with status 500: try again later" });
  });

  it("judges only on the organization's connections open to the team, with a model they offer", async () => {
    const calls = provider.calls.length;
    expect(await judge(rubric(elsewhere.id), facts)).toEqual({ pass: false, reason: `The judge's connection cannot be used: ${PROVIDER_MSG.notFound}` });
    expect(await judge(rubric(otherTeamOnly.id), facts)).toEqual({ pass: false, reason: `The judge's connection cannot be used: ${RUN_MSG.connectionNotForTeam}` });
    expect(await judge(rubric(openai.id, "gpt-5"), facts)).toEqual({ pass: false, reason: `The judge's connection cannot be used: ${RUN_MSG.modelNotOffered("gpt-5")}` });
    expect(provider.calls.length).toBe(calls);
  });

  it("tells each call's fate: answered with the provider's tokens, failed once sent with none known, refused before the provider as not sent", async () => {
    const told: JudgeCall[] = [];
    const team = await world.team();
    const hearing = createJudge({ db: h.database.db, config: h.services.config, organizationId: world.organization.id, teamId: team.id, onCall: (call) => told.push(call) });
    provider.answer.text = '{"pass": true, "reason": "It greets Ada by name."}';
    await hearing(rubric(openai.id), facts);
    provider.failWith = 500;
    await hearing(rubric(openai.id), facts);
    const calls = provider.calls.length;
    await hearing(rubric(otherTeamOnly.id), facts);
    await hearing({ type: "judge", value: "Polite." }, facts);
    expect(provider.calls.length).toBe(calls);
    expect(told).toEqual([
      { sent: true, usage: { model: "gpt-4o-mini", inputTokens: expect.any(Number), outputTokens: expect.any(Number) } },
      { sent: true, usage: null },
      { sent: false },
      { sent: false },
    ]);
    const answered = told[0] as { usage: { inputTokens: number; outputTokens: number } };
    expect(answered.usage.inputTokens).toBeGreaterThan(0);
    expect(answered.usage.outputTokens).toBeGreaterThan(0);
  });

  it("tells an answer whose provider told no usage as unknown (the worst assumed), not as free", async () => {
    const told: JudgeCall[] = [];
    const team = await world.team();
    const hearing = createJudge({ db: h.database.db, config: h.services.config, organizationId: world.organization.id, teamId: team.id, onCall: (call) => told.push(call) });
    provider.answer.text = '{"pass": true, "reason": "It greets Ada by name."}';
    provider.answer.noUsage = true;
    expect(await hearing(rubric(openai.id), facts)).toEqual({ pass: true, reason: "It greets Ada by name." });
    expect(told).toEqual([{ sent: true, usage: null }]);
  });

  it("gives the whole answer twice the provider's time limit: a stream kept open fails the judgement as timed out", async () => {
    const team = await world.team();
    const limited = createJudge({ db: h.database.db, config: { ...h.services.config, providerTimeoutMs: 500 }, organizationId: world.organization.id, teamId: team.id });
    provider.answer.text = '{"pass": true, "reason": "It greets Ada by name, slowly."}';
    provider.answer.chunkDelayMs = 60_000;
    expect(await limited(rubric(openai.id), facts)).toEqual({ pass: false, reason: `The judge could not answer: ${PROVIDER_MSG.timedOut("Local", 1_000)}` });
  });

  it("says the provider's time limit it was given when the provider never answers, not the default's", async () => {
    // A provider that takes the request and never sends its answer's headers: the SDK's own timeout ends the call.
    const silent = createServer((req) => req.resume());
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const team = await world.team();
      const connection = await world.callers.orgAdmin.providers.create({
        organizationId: world.organization.id, kind: "openai-compatible", name: "Silent", baseUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1`, apiKey: provider.apiKey,
      });
      const limited = createJudge({ db: h.database.db, config: { ...h.services.config, providerTimeoutMs: 1_000 }, organizationId: world.organization.id, teamId: team.id });
      expect(await limited(rubric(connection.id), facts)).toEqual({ pass: false, reason: `The judge could not answer: ${PROVIDER_MSG.timedOut("Silent", 1_000)}` });
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
