// A generation linked to a prompt names its version (generations_prompt_version_check): the per-version
// lists and rollups group by version, so one linked without it would be in none of them. Ingest links only
// a version it read; the database refuses such a row from any other writer, in every month's partition
// (the default one, and those production_ensure_generation_partition creates later, included).
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readMigrations } from "@promptly/db/migrate";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld, createPrompt } from "../../../testing/prompts-support.ts";
import type { KeyCaller } from "../access/visibility.ts";
import { ingestProduction, type GenerationPatch } from "./ingest.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createLibraryWorld>>;
let team: { id: string };
let key: KeyCaller;
let prompt: { id: string; name: string };
let client: pg.Client;

const CHECK = "generations_prompt_version_check";

/** Inserts a generation of the team linked to `prompt`, at `version`, started at `startedAt` (SQL). */
const insert = (version: number | null, startedAt: string, observationId: string) =>
  client.query(
    `INSERT INTO generations (organization_id, team_id, prompt_id, prompt_name, version, observation_id, source, started_at, status)
     VALUES ($1::uuid, $2::uuid, $3::uuid, $4, $5::int, $6, 'api', ${startedAt}, 'ok')`,
    [world.organization.id, team.id, prompt.id, prompt.name, version, observationId],
  );
/** The partition holding the team's generation `observationId`. */
const partitionOf = async (observationId: string) =>
  (await client.query<{ part: string }>(`SELECT tableoid::regclass::text AS part FROM generations WHERE observation_id = $1`, [observationId])).rows[0]?.part;

/** A Langfuse generation's event as the key sends it. */
const event = (observationId: string, fields: Partial<GenerationPatch>): GenerationPatch => ({ observationId, source: "langfuse", seenAt: new Date(), ...fields });
const send = (patches: GenerationPatch[]) => ingestProduction(h.database.db, key, team.id, { generations: patches, scores: [] });
const stored = async (observationId: string) =>
  (await client.query<{ promptId: string | null; version: number | null }>(
    `SELECT prompt_id::text AS "promptId", version FROM generations WHERE team_id = $1::uuid AND observation_id = $2`,
    [team.id, observationId],
  )).rows;

beforeAll(async () => {
  h = await createHarness();
  world = await createLibraryWorld(h);
  team = await world.team();
  key = await world.ingestKey(team.id);
  prompt = await createPrompt(world.callers.editor, team.id, { visibility: "team" });
  client = new pg.Client({ connectionString: h.database.url });
  await client.connect();
});
afterAll(async () => {
  await client?.end();
  await h.close();
});

describe("the database", () => {
  it("refuses a generation linked to a prompt without its version, in every month's partition", async () => {
    const refused = { code: "23514", constraint: CHECK };
    // This month's partition, and the default one (a month with no partition).
    await expect(insert(null, "now()", "now-unversioned")).rejects.toMatchObject(refused);
    await expect(insert(null, "TIMESTAMPTZ '2001-01-15 00:00:00+00'", "old-unversioned")).rejects.toMatchObject(refused);
    await insert(1, "TIMESTAMPTZ '2001-01-15 00:00:00+00'", "old-versioned");
    expect(await partitionOf("old-versioned")).toBe("generations_default");

    // A month's partition made after the migration carries the rule (and the rows moved into it from the default one pass it).
    await client.query(`SELECT production_ensure_generation_partition(TIMESTAMPTZ '2001-01-01 00:00:00+00')`);
    expect(await partitionOf("old-versioned")).toBe("generations_2001_01");
    await expect(insert(null, "TIMESTAMPTZ '2001-01-20 00:00:00+00'", "new-partition-unversioned")).rejects.toMatchObject(refused);
    const { rows } = await client.query<{ part: string; validated: boolean }>(
      `SELECT c.conrelid::regclass::text AS part, c.convalidated AS validated FROM pg_constraint c
        WHERE c.conname = $1 AND c.conrelid::regclass::text IN ('generations', 'generations_default', 'generations_2001_01') ORDER BY 1`,
      [CHECK],
    );
    expect(rows).toEqual([
      { part: "generations", validated: true },
      { part: "generations_2001_01", validated: true },
      { part: "generations_default", validated: true },
    ]);

    // Nor may a linked one lose its version; one unlinked keeps it (a deleted prompt's link is set null).
    await expect(client.query(`UPDATE generations SET version = NULL WHERE observation_id = 'old-versioned'`)).rejects.toMatchObject(refused);
    await client.query(`UPDATE generations SET prompt_id = NULL WHERE observation_id = 'old-versioned'`);
    await client.query(`INSERT INTO generations (organization_id, team_id, prompt_name, observation_id, source, started_at, status)
                        VALUES ($1::uuid, $2::uuid, 'unlinked', 'unlinked', 'api', now(), 'ok')`, [world.organization.id, team.id]);
    expect(await stored("old-versioned")).toEqual([{ promptId: null, version: 1 }]);
    expect(await stored("unlinked")).toEqual([{ promptId: null, version: null }]);
  });

  it("its migration unlinks a generation stored before the rule without its version, then checks every row", async () => {
    // A database as it was before the migrations (the rule not there yet), holding such a row; rolled back after.
    const migrations = readMigrations().filter((migration) => migration.name.includes("_generation_prompt_needs_version"));
    expect(migrations.map((migration) => migration.name.replace(/^\d+_/, ""))).toEqual(["generation_prompt_needs_version", "generation_prompt_needs_version_validate"]);
    await client.query("BEGIN");
    try {
      await client.query(`ALTER TABLE generations DROP CONSTRAINT ${CHECK}`);
      await insert(null, "now()", "before-the-rule");
      await insert(2, "now()", "before-the-rule-versioned");
      // A score linked through that generation, as ingest links one (the generation's prompt and version).
      await client.query(
        `INSERT INTO scores (organization_id, team_id, generation_id, observation_id, prompt_id, version, name, data_type, value, source)
         SELECT organization_id, team_id, id, observation_id, prompt_id, version, 'thumbs', 'boolean', 1, 'api' FROM generations WHERE observation_id = 'before-the-rule'`,
      );
      for (const migration of migrations) await client.query(migration.sql);
      expect(await stored("before-the-rule")).toEqual([{ promptId: null, version: null }]);
      const { rows: scores } = await client.query(`SELECT prompt_id, version FROM scores WHERE observation_id = 'before-the-rule'`);
      expect(scores).toEqual([{ prompt_id: null, version: null }]);
      expect(await stored("before-the-rule-versioned")).toEqual([{ promptId: prompt.id, version: 2 }]);
      const { rows } = await client.query<{ unvalidated: number }>(`SELECT count(*)::int AS unvalidated FROM pg_constraint WHERE conname = $1 AND NOT convalidated`, [CHECK]);
      expect(rows).toEqual([{ unvalidated: 0 }]);
    } finally {
      await client.query("ROLLBACK");
    }
  });
});

describe("ingest", () => {
  it("links a generation only with its version, whatever its events say in turn", async () => {
    await send([event("linked", { promptName: prompt.name, version: 1, startedAt: new Date() })]);
    expect(await stored("linked")).toEqual([{ promptId: prompt.id, version: 1 }]);
    // An update naming no prompt keeps the link and its version.
    await send([event("linked", { endedAt: new Date(), outputTokens: 3 })]);
    expect(await stored("linked")).toEqual([{ promptId: prompt.id, version: 1 }]);
    // Named again without a version (or with one the prompt does not have): stored unlinked.
    await send([event("linked", { promptName: prompt.name })]);
    expect(await stored("linked")).toEqual([{ promptId: null, version: null }]);
    await send([event("linked", { promptName: prompt.name, version: 7 })]);
    expect(await stored("linked")).toEqual([{ promptId: null, version: 7 }]);
    await send([event("linked", { promptName: prompt.name, version: 1 })]);
    expect(await stored("linked")).toEqual([{ promptId: prompt.id, version: 1 }]);
  });
});
