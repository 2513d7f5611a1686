// An evaluation of a chat prompt with a placeholder, on the real job queue and a local provider: a case
// that fills the placeholder sends its messages in the placeholder's place; a case that leaves it
// unfilled is an error naming it, and calls no provider.
import { beforeAll, describe, expect, it } from "vitest";
import { RUN_MSG } from "@promptly/shared";
import type { FakeProvider } from "../../../testing/fake-provider.ts";
import { useEvaluationWorld, type EvaluationWorld } from "../../../testing/evaluations-support.ts";

const fixture = useEvaluationWorld();
let world: EvaluationWorld["world"];
let provider: FakeProvider;
let team: { id: string };
let connection: { id: string };
beforeAll(() => void ({ world, provider, team, connection } = fixture));

describe("an evaluation of a chat prompt with a placeholder", () => {
  it("runs each case with its placeholder's messages, and an unfilled placeholder is the case's error", async () => {
    const prompt = await world.callers.editor.prompts.create({
      teamId: team.id, name: "history", title: "History", visibility: "team", type: "chat",
      messages: [{ role: "system", content: "Answer {{ question }}." }, { type: "placeholder", name: "history" }, { role: "user", content: "Go on." }],
    });
    const history = [{ role: "user" as const, content: "Earlier" }, { role: "assistant" as const, content: "Noted" }];
    await world.callers.editor.testCases.create({ promptId: prompt.id, variables: { question: "why" }, placeholders: { history } });
    await world.callers.editor.testCases.create({ promptId: prompt.id, variables: { question: "how" } });
    const callsBefore = provider.calls.length;
    const started = await world.callers.editor.evaluations.start({ promptId: prompt.id, versions: [1], model: "gpt-4o-mini", connectionId: connection.id });
    await fixture.finished(started.id);

    const sent = provider.calls.slice(callsBefore).filter((call) => call.path === "/v1/chat/completions");
    expect(sent.map((call) => (call.body as { messages: unknown }).messages)).toEqual([
      [{ role: "system", content: "Answer why." }, ...history, { role: "user", content: "Go on." }],
    ]);
    const { cases } = await world.callers.viewer.evaluations.results({ id: started.id });
    expect(cases.map((row) => row.versions[0]!.status)).toEqual(["passed", "error"]);
    expect(cases[1]!.versions[0]!.error).toBe(RUN_MSG.placeholdersUnfilled(["history"]));
  });
});
