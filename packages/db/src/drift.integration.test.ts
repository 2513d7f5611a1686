// The migrations must build exactly the database that prisma/schema.prisma describes.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { schemaSnapshot } from "./catalog.ts";
import { migrate } from "./migrate.ts";
import { diffSchemas, readSchema } from "./schema-diff.ts";
import { createEmptyDatabase } from "../testing/database.ts";

const drops: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const drop of drops) await drop();
});

async function databaseFromSql(sql: string) {
  const database = await createEmptyDatabase(inject("databaseServerUrl"));
  drops.push(database.drop);
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  await client.query(sql);
  await client.end();
  return database.url;
}

describe("schema drift", () => {
  const serverUrl = () => inject("databaseServerUrl");
  // One database built by the migrations from nothing, read (never written) by every test here.
  let migratedUrl: Promise<string> | undefined;
  const migratedFromNothing = () =>
    (migratedUrl ??= (async () => {
      const migrated = await createEmptyDatabase(serverUrl());
      drops.push(migrated.drop);
      await migrate(migrated.url);
      return migrated.url;
    })());

  // The engine takes seconds per diff: the two diffs and the migration run at once.
  let diffs: Promise<[string, string]> | undefined;
  const schemaDiffs = () =>
    (diffs ??= Promise.all([
      diffSchemas({ toSchema: readSchema(), databaseUrl: serverUrl() }),
      diffSchemas({ toSchema: readSchema().replace(/model Team \{\n/, "model Team {\n  color String?\n"), databaseUrl: serverUrl() }),
    ]));
  beforeAll(() => {
    void schemaDiffs().catch(() => undefined);
    void migratedFromNothing().catch(() => undefined);
  });

  it("the migrations produce the same database as schema.prisma", async () => {
    const fromSchema = await databaseFromSql((await schemaDiffs())[0]);

    const [actual, expected] = await Promise.all([schemaSnapshot(await migratedFromNothing()), schemaSnapshot(fromSchema)]);
    expect(actual, "prisma/schema.prisma and prisma/migrations disagree: run `npm run db:migration -- <name>`").toEqual(expected);
  });

  it("keeps the partial index of scores waiting for their trace's generation, which only its migration says", async () => {
    const client = new pg.Client({ connectionString: await migratedFromNothing() });
    await client.connect();
    try {
      const { rows } = await client.query<{ indexdef: string }>(`SELECT indexdef FROM pg_indexes WHERE indexname = 'scores_waiting_trace_idx'`);
      expect(rows.map((row) => row.indexdef)).toEqual([
        "CREATE INDEX scores_waiting_trace_idx ON public.scores USING btree (team_id, trace_id) WHERE ((generation_id IS NULL) AND (observation_id IS NULL) AND (run_id IS NULL))",
      ]);
    } finally {
      await client.end();
    }
  });

  it("keeps the partial unique indexes of one thumbs per person on a generation and on a run, which only their migration says", async () => {
    const client = new pg.Client({ connectionString: await migratedFromNothing() });
    await client.connect();
    try {
      const { rows } = await client.query<{ indexdef: string }>(
        `SELECT indexdef FROM pg_indexes WHERE indexname IN ('scores_author_generation_name_key', 'scores_author_run_name_key') ORDER BY indexname`,
      );
      expect(rows.map((row) => row.indexdef)).toEqual([
        "CREATE UNIQUE INDEX scores_author_generation_name_key ON public.scores USING btree (author_user_id, generation_id, name) WHERE ((author_user_id IS NOT NULL) AND (generation_id IS NOT NULL))",
        "CREATE UNIQUE INDEX scores_author_run_name_key ON public.scores USING btree (author_user_id, run_id, name) WHERE ((author_user_id IS NOT NULL) AND (run_id IS NOT NULL))",
      ]);
    } finally {
      await client.end();
    }
  });

  it("keeps rate_limits UNLOGGED, which only its migration says (the comparison leaves persistence out)", async () => {
    const client = new pg.Client({ connectionString: await migratedFromNothing() });
    await client.connect();
    try {
      const { rows } = await client.query<{ relname: string; relpersistence: string }>(
        `SELECT relname, relpersistence FROM pg_class WHERE relname IN ('rate_limits', 'rate_limits_pkey', 'sessions') ORDER BY relname`,
      );
      // 'u': unlogged (its primary key index too); 'p': every other table stays permanent.
      expect(rows).toEqual([
        { relname: "rate_limits", relpersistence: "u" },
        { relname: "rate_limits_pkey", relpersistence: "u" },
        { relname: "sessions", relpersistence: "p" },
      ]);
    } finally {
      await client.end();
    }
  });

  it("notices a model field that has no migration", async () => {
    const withField = await databaseFromSql((await schemaDiffs())[1]);
    const [actual, expected] = await Promise.all([schemaSnapshot(await migratedFromNothing()), schemaSnapshot(withField)]);
    expect(actual).not.toEqual(expected);
    expect(expected.filter((line) => !actual.includes(line))).toEqual([expect.stringContaining("column teams.color text")]);
  });
});
