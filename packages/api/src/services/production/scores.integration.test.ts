// Scores reach only what their sender may see, decided inside the write's transaction: a person's
// thumbs on a generation of another prompt than the page's is not found, and a key's score by
// generation id on a generation whose prompt was made private after it was linked is not found
// either; neither writes anything. By trace id it is kept unlinked, as a trace not seen yet is.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INGEST_MSG } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld, createPrompt } from "../../../testing/prompts-support.ts";
import type { KeyCaller } from "../access/visibility.ts";
import { ingestProduction } from "./ingest.ts";
import { createApiScore } from "./production-api.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createLibraryWorld>>;
let team: { id: string };
let key: KeyCaller;

const db = () => h.services.db;
const scoreCount = async () => (await db().$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM scores`)[0]!.n;

/** A generation of the team linked to version 1 of `prompt`. */
async function insertGeneration(prompt: { id: string; name: string }, traceId: string) {
  const [row] = await db().$queryRaw<{ id: string }[]>`
    INSERT INTO generations (organization_id, team_id, prompt_id, prompt_name, version, trace_id, observation_id, source, started_at, status)
    VALUES (${world.organization.id}::uuid, ${team.id}::uuid, ${prompt.id}::uuid, ${prompt.name}, 1, ${traceId}, ${`obs-${traceId}`}, 'otel', now(), 'ok')
    RETURNING id::text`;
  return row!.id;
}

beforeAll(async () => {
  h = await createHarness();
  world = await createLibraryWorld(h);
  team = await world.team();
  key = await world.ingestKey(team.id);
});
afterAll(() => h.close());

describe("a person's thumbs", () => {
  it("on a generation of another prompt than the one named is not found, checked in the write", async () => {
    const page = await createPrompt(world.callers.editor, team.id, { visibility: "team" });
    const other = await createPrompt(world.callers.editor, team.id, { visibility: "team" });
    const generationId = await insertGeneration(other, "a".repeat(32));
    const before = await scoreCount();
    await expect(world.callers.editor.scores.create({ promptId: page.id, generationId, up: true })).rejects.toMatchObject({ code: "NOT_FOUND" });
    // The write itself refuses a score whose generation is not of the prompt it names.
    const caller = { userId: world.accounts.editor.id, role: "user" as const, isSuperUser: false };
    await expect(
      ingestProduction(db(), caller, team.id, {
        generations: [],
        scores: [{ name: "thumbs", dataType: "boolean", value: 1, stringValue: "True", source: "annotation", generationId, mustExist: true, promptId: page.id }],
      }),
    ).rejects.toMatchObject({ code: "NOT_FOUND", message: INGEST_MSG.generationNotFound });
    expect(await scoreCount()).toBe(before);
    // On its own prompt's page it is written.
    await world.callers.editor.scores.create({ promptId: other.id, generationId, up: true });
    expect(await scoreCount()).toBe(before + 1);
  });
});

describe("a key's score", () => {
  it("on a generation of a prompt made private after it was linked: by generation id not found, writing nothing; by trace id stored unlinked, as a trace not seen", async () => {
    const prompt = await createPrompt(world.callers.author, team.id, { visibility: "team" });
    const traceId = "b".repeat(32);
    const generationId = await insertGeneration(prompt, traceId);
    // Seen while the prompt is the team's.
    expect(await createApiScore(db(), key, { generationId, name: "helpful", value: true })).toMatchObject({ linked: true });
    await db().$executeRaw`UPDATE prompts SET visibility = 'private' WHERE id = ${prompt.id}::uuid`;
    const before = await scoreCount();
    await expect(createApiScore(db(), key, { generationId, name: "helpful", value: true })).rejects.toMatchObject({ code: "NOT_FOUND", message: INGEST_MSG.generationNotFound });
    expect(await scoreCount()).toBe(before);
    const byTrace = await createApiScore(db(), key, { traceId, name: "helpful", value: true });
    expect(byTrace).toMatchObject({ linked: false });
    const [row] = await db().$queryRaw<{ generation_id: string | null; prompt_id: string | null }[]>`SELECT generation_id::text, prompt_id::text FROM scores WHERE id = ${byTrace.id}::uuid`;
    expect(row).toEqual({ generation_id: null, prompt_id: null });
  });
});
