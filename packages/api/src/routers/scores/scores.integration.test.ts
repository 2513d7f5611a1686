// A person's thumbs through the scores router: one per person on each generation and run, counted
// once in the hourly rollups however often it is given; given again the other way it replaces the
// first and the rollups move by the difference; its author alone removes it; an archived prompt
// refuses both. The migration that brought the unique index folds the repeats given before it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROMPT_MSG } from "@promptly/shared";
import { Prisma, rawTransaction } from "@promptly/db";
import { readMigrations } from "@promptly/db/migrate";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld, createPrompt, failure } from "../../../testing/prompts-support.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createLibraryWorld>>;
let team: { id: string };

const db = () => h.services.db;

/** A generation of the team linked to version 1 of `prompt`. */
async function insertGeneration(prompt: { id: string; name: string }) {
  const observationId = `obs-${crypto.randomUUID()}`;
  const [row] = await db().$queryRaw<{ id: string }[]>`
    INSERT INTO generations (organization_id, team_id, prompt_id, prompt_name, version, trace_id, observation_id, source, started_at, status)
    VALUES (${world.organization.id}::uuid, ${team.id}::uuid, ${prompt.id}::uuid, ${prompt.name}, 1, ${observationId}, ${observationId}, 'otel', now(), 'ok')
    RETURNING id::text`;
  return row!.id;
}

/** A run of version 1 of `prompt`. */
async function insertRun(prompt: { id: string }) {
  const [row] = await db().$queryRaw<{ id: string }[]>`
    INSERT INTO prompt_runs (organization_id, prompt_id, version, user_id, connection_name, model, input, total_ms, status)
    VALUES (${world.organization.id}::uuid, ${prompt.id}::uuid, 1, ${world.accounts.editor.id}::uuid, 'OpenAI', 'gpt-4o-mini', '[]'::jsonb, 10, 'succeeded')
    RETURNING id::text`;
  return row!.id;
}

/** The prompt's thumbs as the rollups count them (every hour and environment summed). */
async function thumbsRollup(promptId: string) {
  const [row] = await db().$queryRaw<{ count: number; sum: number; categories: Record<string, number> }[]>`
    SELECT coalesce(sum(count), 0)::int AS count, coalesce(sum(sum), 0)::float8 AS sum,
           coalesce((SELECT jsonb_object_agg(key, n) FROM (
             SELECT c.key, sum(c.value::int)::int AS n FROM score_rollups r, jsonb_each_text(r.categories) c
              WHERE r.prompt_id = ${promptId}::uuid AND r.name = 'thumbs' GROUP BY c.key HAVING sum(c.value::int) <> 0) x), '{}'::jsonb) AS categories
      FROM score_rollups WHERE prompt_id = ${promptId}::uuid AND name = 'thumbs'`;
  return row!;
}

const thumbsRows = (promptId: string) =>
  db().$queryRaw<{ author: string; value: number; comment: string | null }[]>`
    SELECT author_user_id::text AS author, value, comment FROM scores WHERE prompt_id = ${promptId}::uuid AND name = 'thumbs' ORDER BY author_user_id`;

beforeAll(async () => {
  h = await createHarness();
  world = await createLibraryWorld(h);
  team = await world.team();
});
afterAll(() => h.close());

describe("a person's thumbs", () => {
  it("given 20 times by one person counts once, in the scores and the rollups", async () => {
    const prompt = await createPrompt(world.callers.editor, team.id, { visibility: "team" });
    const generationId = await insertGeneration(prompt);
    await world.callers.admin.scores.create({ promptId: prompt.id, generationId, up: true });
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) ids.add((await world.callers.viewer.scores.create({ promptId: prompt.id, generationId, up: false })).id);
    expect(ids.size).toBe(1);
    expect(await thumbsRollup(prompt.id)).toEqual({ count: 2, sum: 1, categories: { True: 1, False: 1 } });
    expect(await thumbsRows(prompt.id)).toHaveLength(2);
    // Given at once, two first thumbs of one person are one as well.
    const other = await insertGeneration(prompt);
    await Promise.all(Array.from({ length: 5 }, () => world.callers.editor.scores.create({ promptId: prompt.id, generationId: other, up: true })));
    expect(await thumbsRollup(prompt.id)).toEqual({ count: 3, sum: 2, categories: { True: 2, False: 1 } });
  });

  it("changed from up to down moves the rollups' share, the comment following it; its author sees it as theirs", async () => {
    const prompt = await createPrompt(world.callers.editor, team.id, { visibility: "team" });
    const generationId = await insertGeneration(prompt);
    await world.callers.viewer.scores.create({ promptId: prompt.id, generationId, up: true, comment: "Good" });
    await world.callers.admin.scores.create({ promptId: prompt.id, generationId, up: true });
    expect(await thumbsRollup(prompt.id)).toEqual({ count: 2, sum: 2, categories: { True: 2 } });
    expect(await world.callers.viewer.production.generation({ promptId: prompt.id, id: generationId })).toMatchObject({ ownThumbs: { up: true, comment: "Good" } });

    await world.callers.viewer.scores.create({ promptId: prompt.id, generationId, up: false, comment: "Wrong after all" });
    expect(await thumbsRollup(prompt.id)).toEqual({ count: 2, sum: 1, categories: { True: 1, False: 1 } });
    expect(await thumbsRows(prompt.id)).toEqual(
      expect.arrayContaining([
        { author: world.accounts.viewer.id, value: 0, comment: "Wrong after all" },
        { author: world.accounts.admin.id, value: 1, comment: null },
      ]),
    );
    expect(await world.callers.viewer.production.generation({ promptId: prompt.id, id: generationId })).toMatchObject({ ownThumbs: { up: false, comment: "Wrong after all" } });
    expect(await world.callers.editor.production.generation({ promptId: prompt.id, id: generationId })).toMatchObject({ ownThumbs: null });
  });

  it("is removed by its author alone; another person's stays", async () => {
    const prompt = await createPrompt(world.callers.editor, team.id, { visibility: "team" });
    const generationId = await insertGeneration(prompt);
    await world.callers.viewer.scores.create({ promptId: prompt.id, generationId, up: false });
    await world.callers.admin.scores.create({ promptId: prompt.id, generationId, up: true });

    // The editor has none here: their remove takes nobody else's.
    expect(await world.callers.editor.scores.remove({ promptId: prompt.id, generationId })).toEqual({ removed: false });
    expect(await thumbsRollup(prompt.id)).toEqual({ count: 2, sum: 1, categories: { True: 1, False: 1 } });

    expect(await world.callers.viewer.scores.remove({ promptId: prompt.id, generationId })).toEqual({ removed: true });
    expect(await thumbsRollup(prompt.id)).toEqual({ count: 1, sum: 1, categories: { True: 1 } });
    expect(await thumbsRows(prompt.id)).toEqual([{ author: world.accounts.admin.id, value: 1, comment: null }]);
    expect(await world.callers.viewer.scores.remove({ promptId: prompt.id, generationId })).toEqual({ removed: false });

    // The last one removed: no rollup row of 0 is left.
    await world.callers.admin.scores.remove({ promptId: prompt.id, generationId });
    expect(await db().$queryRaw`SELECT count FROM score_rollups WHERE prompt_id = ${prompt.id}::uuid`).toEqual([]);
  });

  it("on a run is one per person too, and removable", async () => {
    const prompt = await createPrompt(world.callers.editor, team.id, { visibility: "team" });
    const runId = await insertRun(prompt);
    for (const up of [true, true, false]) await world.callers.viewer.scores.create({ promptId: prompt.id, runId, up });
    expect(await thumbsRollup(prompt.id)).toEqual({ count: 1, sum: 0, categories: { False: 1 } });
    expect(await world.callers.viewer.scores.remove({ promptId: prompt.id, runId })).toEqual({ removed: true });
    expect(await thumbsRollup(prompt.id)).toEqual({ count: 0, sum: 0, categories: {} });
  });

  it("is refused on an archived prompt, given or removed, with the archived prompt's error", async () => {
    const prompt = await createPrompt(world.callers.editor, team.id, { visibility: "team" });
    const generationId = await insertGeneration(prompt);
    await world.callers.viewer.scores.create({ promptId: prompt.id, generationId, up: true });
    await world.callers.admin.prompts.archive({ id: prompt.id });
    const archived = { code: "CONFLICT", message: PROMPT_MSG.archived };
    expect(await failure(world.callers.viewer.scores.create({ promptId: prompt.id, generationId, up: false }))).toEqual(archived);
    expect(await failure(world.callers.editor.scores.create({ promptId: prompt.id, generationId, up: true, comment: "Late" }))).toEqual(archived);
    expect(await failure(world.callers.viewer.scores.remove({ promptId: prompt.id, generationId }))).toEqual(archived);
    expect(await thumbsRollup(prompt.id)).toEqual({ count: 1, sum: 1, categories: { True: 1 } });
    expect(await thumbsRows(prompt.id)).toEqual([{ author: world.accounts.viewer.id, value: 1, comment: null }]);
  });
});

describe("the migration to one thumbs per person", () => {
  it("keeps each person's latest thumbs and takes the others out of the rollups", async () => {
    const prompt = await createPrompt(world.callers.editor, team.id, { visibility: "team" });
    const generationId = await insertGeneration(prompt);
    const found = readMigrations().find((entry) => entry.name.endsWith("_person_thumbs_once"));
    expect(found).toBeDefined();
    const migration = found!;
    // As before it: no index, a viewer's three thumbs (down, down, then up), an admin's one, each counted.
    await rawTransaction(db(), (tx) => tx.query(Prisma.raw(`DROP INDEX scores_author_generation_name_key; DROP INDEX scores_author_run_name_key`)));
    const given = [
      { author: world.accounts.viewer.id, up: false },
      { author: world.accounts.viewer.id, up: false },
      { author: world.accounts.viewer.id, up: true },
      { author: world.accounts.admin.id, up: false },
    ];
    // Within one hour, a minute apart (the latest last).
    const hour = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3_600_000);
    for (const [index, thumbs] of given.entries()) {
      await db().$executeRaw`
        INSERT INTO scores (organization_id, team_id, generation_id, prompt_id, version, environment, name, data_type, value, string_value, source, author_user_id, created_at)
        VALUES (${world.organization.id}::uuid, ${team.id}::uuid, ${generationId}::uuid, ${prompt.id}::uuid, 1, 'default', 'thumbs', 'boolean',
                ${thumbs.up ? 1 : 0}, ${thumbs.up ? "True" : "False"}, 'annotation', ${thumbs.author}::uuid, ${new Date(hour.getTime() + index * 60_000)})`;
    }
    await db().$executeRaw`
      INSERT INTO score_rollups (prompt_id, version, environment, hour, name, data_type, count, sum, sum_squares, categories)
      VALUES (${prompt.id}::uuid, 1, 'default', ${hour}, 'thumbs', 'boolean', 4, 1, 1, '{"True": 1, "False": 3}'::jsonb)`;
    await rawTransaction(db(), (tx) => tx.query(Prisma.raw(migration.sql)));

    expect(await thumbsRollup(prompt.id)).toEqual({ count: 2, sum: 1, categories: { True: 1, False: 1 } });
    expect(await thumbsRows(prompt.id)).toEqual(
      expect.arrayContaining([
        { author: world.accounts.viewer.id, value: 1, comment: null },
        { author: world.accounts.admin.id, value: 0, comment: null },
      ]),
    );
    expect(await thumbsRows(prompt.id)).toHaveLength(2);
    // The index is back: a repeat is refused by the database itself.
    await expect(db().$executeRaw`
      INSERT INTO scores (organization_id, team_id, generation_id, prompt_id, version, name, data_type, value, string_value, source, author_user_id)
      VALUES (${world.organization.id}::uuid, ${team.id}::uuid, ${generationId}::uuid, ${prompt.id}::uuid, 1, 'thumbs', 'boolean', 1, 'True', 'annotation', ${world.accounts.admin.id}::uuid)`).rejects.toThrow(/unique/i);
  });
});
