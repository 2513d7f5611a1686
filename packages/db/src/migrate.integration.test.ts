import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterEach, describe, expect, inject, it } from "vitest";
import { DEFAULT_MIGRATIONS_DIR, migrate, readMigrations } from "./migrate.ts";
import { createEmptyDatabase } from "../testing/database.ts";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function emptyDatabase(serverUrl = inject("databaseServerUrl")) {
  const database = await createEmptyDatabase(serverUrl);
  cleanups.push(database.drop);
  return database.url;
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

describe("migrate", () => {
  it("applies every migration once and records it the way prisma migrate deploy does", async () => {
    const url = await emptyDatabase();
    const first = await migrate(url);
    const names = readMigrations().map((m) => m.name);
    expect(first.applied).toEqual(names);

    const rows = await query<{ migration_name: string; checksum: string; finished_at: Date | null; applied_steps_count: number }>(
      url,
      `SELECT migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name`,
    );
    expect(rows.map((row) => row.migration_name)).toEqual(names);
    for (const row of rows) {
      const sql = readFileSync(join(DEFAULT_MIGRATIONS_DIR, row.migration_name, "migration.sql"));
      expect(row.checksum).toBe(createHash("sha256").update(sql).digest("hex"));
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.applied_steps_count).toBe(1);
    }

    const second = await migrate(url);
    expect(second).toEqual({ applied: [], alreadyApplied: names.length });
  });

  it("applies a migration only once when several processes start at the same time", async () => {
    const url = await emptyDatabase();
    const results = await Promise.all([migrate(url), migrate(url), migrate(url)]);
    expect(results.flatMap((r) => r.applied)).toHaveLength(readMigrations().length);
    const rows = await query<{ n: string }>(url, `SELECT count(*) AS n FROM "_prisma_migrations"`);
    expect(Number(rows[0]!.n)).toBe(readMigrations().length);
  });

  it("rolls a failing migration back completely and says which one failed", async () => {
    const url = await emptyDatabase();
    const { mkdtempSync, mkdirSync, writeFileSync, cpSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const dir = mkdtempSync(join(tmpdir(), "migrations-"));
    cpSync(DEFAULT_MIGRATIONS_DIR, dir, { recursive: true });
    mkdirSync(join(dir, "99990101000000_broken"));
    writeFileSync(join(dir, "99990101000000_broken", "migration.sql"), `CREATE TABLE half_done (id int);\nSELECT nonsense_function();`);

    await expect(migrate(url, dir)).rejects.toThrow(/99990101000000_broken failed/);
    const tables = await query<{ n: string }>(url, `SELECT count(*) AS n FROM pg_tables WHERE tablename = 'half_done'`);
    expect(Number(tables[0]!.n)).toBe(0);
    const rows = await query<{ migration_name: string }>(url, `SELECT migration_name FROM "_prisma_migrations"`);
    expect(rows.map((r) => r.migration_name)).not.toContain("99990101000000_broken");
  });

  it("works against an external PostgreSQL server (the machine's own, version 15)", async () => {
    const external = process.env.TEST_EXTERNAL_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
    const url = await emptyDatabase(external);
    const { applied } = await migrate(url);
    expect(applied.length).toBe(readMigrations().length);
    const rows = await query<{ n: string }>(url, `SELECT count(*) AS n FROM users`);
    expect(Number(rows[0]!.n)).toBe(0);
  });
});
