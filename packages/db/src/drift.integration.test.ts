// The migrations must build exactly the database that prisma/schema.prisma describes.
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { schemaSnapshot } from "./catalog.ts";
import { migrate } from "./migrate.ts";
import { diffSchemas, readSchema } from "./schema-diff.ts";
import { createEmptyDatabase } from "./testing.ts";

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
