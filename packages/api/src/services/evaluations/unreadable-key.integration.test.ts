// An evaluation on a connection whose key no longer opens (sealed under another app secret: APP_SECRET
// changed, or the database restored under another one) fails at once, saying why, with its cases in
// error: not each case's job failing its retries for days while the evaluation shows running.
import { describe, expect, it } from "vitest";
import { useEvaluationWorld } from "../../../testing/evaluations-support.ts";
import { createPrompt } from "../../../testing/prompts-support.ts";
import { sealSecret } from "../platform/secret-box.ts";

const fx = useEvaluationWorld();

describe("an evaluation on a connection whose key does not open", () => {
  it("fails with the reason, its cases in error", async () => {
    const { h, world, provider, team } = fx;
    const connection = await world.callers.orgAdmin.providers.create({
      organizationId: world.organization.id, kind: "openai-compatible", name: "Resealed", baseUrl: provider.openaiBaseUrl, apiKey: provider.apiKey,
    });
    const foreign = sealSecret("another-app-secret-another-app-secret-0", "provider key v1", connection.id, Buffer.from(provider.apiKey));
    await h.services.db.$executeRaw`UPDATE provider_connections SET api_key_sealed = ${foreign} WHERE id = ${connection.id}::uuid`;
    const prompt = await createPrompt(world.callers.editor, team.id, { visibility: "team", template: "Answer {{ question }} politely." });
    await h.services.db.testCase.createMany({ data: [1, 2].map((n) => ({ promptId: prompt.id, variables: { question: `q${n}` }, assertions: [] })) });

    const started = await world.callers.editor.evaluations.start({ promptId: prompt.id, versions: [1], model: "gpt-4o-mini", connectionId: connection.id });
    const summary = await fx.finished(started.id);
    expect(summary.status).toBe("failed");
    const items = await h.services.db.evaluationItem.findMany({ where: { evaluationId: started.id }, select: { status: true, error: true } });
    expect(items).toHaveLength(2);
    for (const item of items) expect(item).toEqual({ status: "error", error: "The API key of the connection 'Resealed' could not be read (was APP_SECRET changed?): enter it again" });
  });
});
