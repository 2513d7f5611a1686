// A model's answer holding a NUL character (which no PostgreSQL text or jsonb can hold) is recorded
// with U+FFFD in its place, as ingested generations are: not refused by the item's write at every try,
// each try calling the provider again, until the job's retries ran out and the evaluation stayed running.
import { afterEach, describe, expect, it } from "vitest";
import { useEvaluationWorld } from "../../../testing/evaluations-support.ts";
import { createPrompt } from "../../../testing/prompts-support.ts";

const fx = useEvaluationWorld();
afterEach(() => {
  fx.provider.answer.text = null;
});

describe("an evaluation whose model answers a NUL character", () => {
  it("records the answer with U+FFFD in its place, once, and finishes", async () => {
    const { h, world, provider, team, connection } = fx;
    const prompt = await createPrompt(world.callers.editor, team.id, { visibility: "team", template: "Answer {{ question }}." });
    await h.services.db.testCase.createMany({ data: [{ promptId: prompt.id, variables: { question: "q" }, assertions: [{ type: "contains", value: "zero" }] }] });
    provider.answer.text = "before\u0000after: zero";
    const calls = provider.calls.length;

    const started = await world.callers.editor.evaluations.start({ promptId: prompt.id, versions: [1], model: "gpt-4o-mini", connectionId: connection.id });
    const summary = await fx.finished(started.id);
    expect(summary.status).toBe("done");
    const [item] = await h.services.db.evaluationItem.findMany({ where: { evaluationId: started.id }, select: { status: true, output: true } });
    expect(item).toEqual({ status: "passed", output: "before\uFFFDafter: zero" });
    expect(provider.calls.length - calls).toBe(1);
  });
});
