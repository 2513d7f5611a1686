// A prompt carries at most PROMPT_LABELS_MAX distinct labels, however they come (the app's promptLabels.set
// here; the Langfuse API and MCP in apps/server): a new label past it is refused in the label service,
// under the prompt's lock, with the limit named; moving a label it has, or a new one once another is
// removed, still works.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROMPT_LABELS_MAX, PROMPT_MSG } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld, createPrompt, failure } from "../../../testing/prompts-support.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createLibraryWorld>>;

beforeAll(async () => {
  h = await createHarness();
  world = await createLibraryWorld(h);
});
afterAll(() => h.close());

const labelCount = (promptId: string) => h.database.db.promptLabel.count({ where: { promptId } });

describe("a prompt's labels are bounded", () => {
  it(`refuses a new label past ${PROMPT_LABELS_MAX} with the limit named; an existing label still moves, and a removal makes room`, async () => {
    const team = await world.team();
    const { admin } = world.callers;
    const prompt = await createPrompt(admin, team.id, { visibility: "team", template: "Version 1" });
    await admin.promptVersions.create({ promptId: prompt.id, type: "text", template: "Version 2" });
    // All but one written directly (each through the procedure would only be slower), the last through it.
    await h.database.db.promptLabel.createMany({
      data: Array.from({ length: PROMPT_LABELS_MAX - 1 }, (_, i) => ({ promptId: prompt.id, name: `label-${i}`, version: 1 })),
    });
    expect(await admin.promptLabels.set({ promptId: prompt.id, label: "the-last", version: 1 })).toEqual({ label: "the-last", version: 1 });
    expect(await labelCount(prompt.id)).toBe(PROMPT_LABELS_MAX);

    expect(await failure(admin.promptLabels.set({ promptId: prompt.id, label: "one-too-many", version: 2 }))).toEqual({ code: "BAD_REQUEST", message: PROMPT_MSG.tooManyLabels });
    expect(await labelCount(prompt.id)).toBe(PROMPT_LABELS_MAX);
    expect(await h.database.db.promptLabel.findUnique({ where: { promptId_name: { promptId: prompt.id, name: "one-too-many" } } })).toBeNull();

    // A label the prompt has moves as before.
    expect(await admin.promptLabels.set({ promptId: prompt.id, label: "label-0", version: 2 })).toEqual({ label: "label-0", version: 2 });
    await admin.promptLabels.remove({ promptId: prompt.id, label: "label-1" });
    expect(await admin.promptLabels.set({ promptId: prompt.id, label: "one-too-many", version: 2 })).toEqual({ label: "one-too-many", version: 2 });
    expect(await labelCount(prompt.id)).toBe(PROMPT_LABELS_MAX);
  });
});
