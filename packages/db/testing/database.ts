// Test helpers: every test file gets a database of its own, cloned from a migrated template.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { createDb, type Db } from "../src/index.ts";
import { migrate } from "../src/migrate.ts";

const TEMPLATE_DATABASE = "promptly_template";

function withDatabase(url: string, database: string) {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function admin<T>(serverUrl: string, run: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: withDatabase(serverUrl, "postgres") });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Creates (or re-creates) the migrated template database. Run once per test run. */
export async function prepareTemplateDatabase(serverUrl: string) {
  await admin(serverUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DATABASE} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
  });
  await migrate(withDatabase(serverUrl, TEMPLATE_DATABASE));
}

export interface TestDatabase {
  url: string;
  name: string;
  db: Db;
  drop(): Promise<void>;
}

/** A fresh, migrated database for one test file. */
export async function createTestDatabase(serverUrl: string, { template = TEMPLATE_DATABASE } = {}): Promise<TestDatabase> {
  const name = `test_${randomBytes(6).toString("hex")}`;
  await admin(serverUrl, (client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  const url = withDatabase(serverUrl, name);
  const db = createDb({ url, max: 5 });
  return {
    url,
    name,
    db,
    async drop() {
      await db.$disconnect();
      await admin(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/** An empty database (no migrations), for migration tests. */
export async function createEmptyDatabase(serverUrl: string) {
  const name = `empty_${randomBytes(6).toString("hex")}`;
  await admin(serverUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  return {
    url: withDatabase(serverUrl, name),
    drop: () => admin(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)),
  };
}
