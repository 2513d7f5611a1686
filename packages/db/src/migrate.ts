// Applies prisma/migrations offline, with the same bookkeeping as `prisma migrate deploy`
// (table _prisma_migrations, SHA-256 checksum of each migration.sql, same advisory lock),
// so users who have Prisma's engines can run `prisma migrate deploy` / `status` on the same database.
import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { utcSessions } from "./utc-sessions.ts";

/** The advisory lock key that Prisma's schema engine takes around migrations. */
const PRISMA_ADVISORY_LOCK = 72707369;

export const DEFAULT_MIGRATIONS_DIR = fileURLToPath(new URL("../../../prisma/migrations", import.meta.url));

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export function readMigrations(dir = DEFAULT_MIGRATIONS_DIR): Migration[] {
  if (!existsSync(dir)) throw new Error(`Migrations folder not found: ${dir}`);
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

export interface MigrateResult {
  applied: string[];
  alreadyApplied: number;
}

/**
 * Applies pending migrations. Each runs in its own transaction together with its bookkeeping row,
 * so a failure leaves the database as it was before that migration. Concurrent callers wait on the lock.
 */
export async function migrate(databaseUrl: string, dir = DEFAULT_MIGRATIONS_DIR): Promise<MigrateResult> {
  const migrations = readMigrations(dir);
  const client = new pg.Client(utcSessions(databaseUrl));
  // A connection lost mid-migration fails the pending statement (and so migrate) instead of crashing the process.
  client.on("error", () => {});
  await client.connect();
  try {
    await client.query("SET client_min_messages TO warning");
    await client.query("SELECT pg_advisory_lock($1)", [PRISMA_ADVISORY_LOCK]);
    try {
      await client.query(CREATE_TABLE);
      const { rows } = await client.query<{ migration_name: string; checksum: string; finished_at: Date | null; rolled_back_at: Date | null }>(
        `SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"`,
      );
      const failed = rows.find((row) => row.finished_at === null && row.rolled_back_at === null);
      if (failed) {
        throw new Error(
          `Migration ${failed.migration_name} failed earlier and was never resolved. Fix the database, then run ` +
            "`prisma migrate resolve` or delete its row from _prisma_migrations.",
        );
      }
      const done = new Map(rows.filter((row) => row.finished_at).map((row) => [row.migration_name, row.checksum]));
      const applied: string[] = [];
      for (const migration of migrations) {
        const checksum = done.get(migration.name);
        if (checksum !== undefined) {
          if (checksum !== migration.checksum) {
            console.warn(`warning: migration ${migration.name} was modified after it was applied (checksum differs)`);
          }
          continue;
        }
        await applyOne(client, migration);
        applied.push(migration.name);
      }
      return { applied, alreadyApplied: migrations.length - applied.length };
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [PRISMA_ADVISORY_LOCK]);
    }
  } finally {
    await client.end();
  }
}

async function applyOne(client: pg.Client, migration: Migration) {
  const id = randomUUID();
  try {
    await client.query("BEGIN");
    await client.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)`,
      [id, migration.checksum, migration.name],
    );
    await client.query(migration.sql);
    await client.query(`UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`, [id]);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw new Error(`Migration ${migration.name} failed: ${(error as Error).message}`, { cause: error });
  }
}
