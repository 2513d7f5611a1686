// A deleted prompt's production data goes with it: its generations (their text too) and their scores.
// Left unlinked, a generation was linked by its name at its next update (a Langfuse update naming no
// prompt) to whichever prompt took the name, shown with its text and scores to people who never read
// the deleted prompt. A generation that never linked (its name unknown then) still links once a prompt
// of that name exists.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld, createPrompt, promptName } from "../../../testing/prompts-support.ts";
import type { Caller, KeyCaller } from "../access/visibility.ts";
import { loadPrompt } from "../prompts/loaded-prompt.ts";
import { deleteLivePrompt } from "../prompts/prompt-writes.ts";
import { ingestProduction, type GenerationPatch } from "./ingest.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createLibraryWorld>>;
let team: { id: string };
let key: KeyCaller;

const db = () => h.database.db;

/** A Langfuse generation's event as the key sends it. */
const event = (observationId: string, fields: Partial<GenerationPatch>): GenerationPatch => ({ observationId, source: "langfuse", seenAt: new Date(), ...fields });
const send = (patches: GenerationPatch[], scores: Parameters<typeof ingestProduction>[3]["scores"] = []) => ingestProduction(db(), key, team.id, { generations: patches, scores });

const stored = (observationId: string) =>
  db().$queryRaw<{ promptId: string | null; input: string | null }[]>`
    SELECT prompt_id::text AS "promptId", input FROM generations WHERE team_id = ${team.id}::uuid AND observation_id = ${observationId}`;
const scoresOf = (observationId: string) =>
  db().$queryRaw<{ promptId: string | null }[]>`
    SELECT prompt_id::text AS "promptId" FROM scores WHERE team_id = ${team.id}::uuid AND observation_id = ${observationId} ORDER BY prompt_id IS NULL`;

beforeAll(async () => {
  h = await createHarness();
  world = await createLibraryWorld(h);
  team = await world.team();
  await world.callers.admin.teams.setGenerationText({ id: team.id, keep: true });
  key = await world.ingestKey(team.id);
});
afterAll(() => h.close());

/** The two ways a prompt is deleted: archived then deleted in the app, or a key's whole delete (Langfuse's DELETE). */
const deletes: [string, (prompt: { id: string; name: string }) => Promise<unknown>][] = [
  ["archived, then deleted in the app", async (prompt) => {
    await world.callers.admin.prompts.archive({ id: prompt.id });
    await world.callers.admin.prompts.delete({ id: prompt.id });
  }],
  ["deleted whole by the Langfuse API's delete", async (prompt) => {
    const caller: Caller = { userId: world.accounts.admin.id, role: "user", isSuperUser: false };
    const loaded = (await loadPrompt(db(), caller, prompt.id))!;
    await deleteLivePrompt(db(), caller, loaded, prompt.name, {}, { actor: { kind: "user", userId: world.accounts.admin.id }, ip: null, now: new Date() });
  }],
];

describe.each(deletes)("a prompt %s", (_, remove) => {
  it("takes its generations and their scores: a new prompt of its name never shows them, whatever comes for them later", async () => {
    const name = promptName("deleted");
    const old = await createPrompt(world.callers.admin, team.id, { visibility: "team", name });
    const observationId = `del-${name}`;
    await send(
      [event(observationId, { promptName: name, version: 1, startedAt: new Date(), input: "OLD PROMPT USER DATA", output: "An answer" })],
      [{ observationId, name: "helpful", dataType: "numeric", value: 1, stringValue: null, source: "api" }],
    );
    expect(await stored(observationId)).toEqual([{ promptId: old.id, input: "OLD PROMPT USER DATA" }]);
    expect(await scoresOf(observationId)).toEqual([{ promptId: old.id }]);
    // Made private, the generation is no longer the key's to see: its next score waits for it, unlinked.
    await db().$executeRaw`UPDATE prompts SET visibility = 'private' WHERE id = ${old.id}::uuid`;
    await send([], [{ observationId, name: "helpful", dataType: "numeric", value: 0, stringValue: null, source: "api" }]);
    expect(await scoresOf(observationId)).toEqual([{ promptId: old.id }, { promptId: null }]);

    await remove(old);
    // An editor makes a prompt of the same name, which the whole organization reads.
    const fresh = await createPrompt(world.callers.editor, team.id, { visibility: "organization", name });
    // A Langfuse update of the old generation, naming no prompt.
    await send([event(observationId, { endedAt: new Date(), outputTokens: 12 })]);
    const { items } = await world.callers.orgMember.production.generations({ promptId: fresh.id });
    expect(items).toEqual([]);
    // The update alone is kept, unlinked (as an update whose create has not come), without the old text or score.
    expect(await stored(observationId)).toEqual([{ promptId: null, input: null }]);
    expect(await scoresOf(observationId)).toEqual([]);
  });
});

describe("a generation that never linked", () => {
  it("links at its next update once a prompt of its name exists", async () => {
    const name = promptName("later");
    const observationId = `later-${name}`;
    await send([event(observationId, { promptName: name, version: 1, startedAt: new Date(), input: "Sent before the prompt was made" })]);
    expect(await stored(observationId)).toEqual([{ promptId: null, input: "Sent before the prompt was made" }]);
    const prompt = await createPrompt(world.callers.editor, team.id, { visibility: "team", name });
    await send([event(observationId, { endedAt: new Date() })]);
    expect(await stored(observationId)).toEqual([{ promptId: prompt.id, input: "Sent before the prompt was made" }]);
    const { items } = await world.callers.editor.production.generations({ promptId: prompt.id });
    expect(items.map((item) => item.observationId)).toEqual([observationId]);
  });
});
