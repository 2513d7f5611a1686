// The migrations must build exactly the database that prisma/schema.prisma describes.
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
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

  it("the migrations produce the same database as schema.prisma", async () => {
    const migrated = await createEmptyDatabase(serverUrl());
    drops.push(migrated.drop);
    await migrate(migrated.url);
    const fromSchema = await databaseFromSql(diffSchemas({ toSchema: readSchema(), databaseUrl: serverUrl() }));

    const [actual, expected] = await Promise.all([schemaSnapshot(migrated.url), schemaSnapshot(fromSchema)]);
    expect(actual, "prisma/schema.prisma and prisma/migrations disagree: run `npm run db:migration -- <name>`").toEqual(expected);
  });

  it("keeps rate_limits UNLOGGED, which only its migration says (the comparison leaves persistence out)", async () => {
    const migrated = await createEmptyDatabase(serverUrl());
    drops.push(migrated.drop);
    await migrate(migrated.url);
    const client = new pg.Client({ connectionString: migrated.url });
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
    const changed = readSchema().replace(/model Team \{\n/, "model Team {\n  color String?\n");
    const withField = await databaseFromSql(diffSchemas({ toSchema: changed, databaseUrl: serverUrl() }));
    const migrated = await createEmptyDatabase(serverUrl());
    drops.push(migrated.drop);
    await migrate(migrated.url);
    const [actual, expected] = await Promise.all([schemaSnapshot(migrated.url), schemaSnapshot(withField)]);
    expect(actual).not.toEqual(expected);
    expect(expected.filter((line) => !actual.includes(line))).toEqual([expect.stringContaining("column teams.color text")]);
  });
});
