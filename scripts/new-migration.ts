// Writes prisma/migrations/<timestamp>_<name>/migration.sql for the change of prisma/schema.prisma
// since the last commit (or since empty when there is no migration yet). Works offline.
//   npm run db:migration -- add_prompt_versions
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { diffSchemas, readSchema } from "@promptly/db/schema-diff";
import { DEFAULT_MIGRATIONS_DIR } from "@promptly/db/migrate";

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("usage: npm run db:migration -- <name_in_snake_case>");
  process.exit(1);
}
const databaseUrl = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const hasMigrations = readdirSync(DEFAULT_MIGRATIONS_DIR).some((entry) => /^\d{14}_/.test(entry));
const fromSchema = hasMigrations
  ? execFileSync("git", ["show", "HEAD:prisma/schema.prisma"], { encoding: "utf8" })
  : undefined;
const sql = await diffSchemas({ fromSchema, toSchema: readSchema(), databaseUrl });
if (!sql.trim() || /^-- This is an empty migration/.test(sql.trim())) {
  console.log("The schema has no changes since the last commit: no migration written.");
  process.exit(0);
}
const stamp = new Date().toISOString().replace(/[-:T]/g, "").slice(0, 14);
const dir = join(DEFAULT_MIGRATIONS_DIR, `${stamp}_${name}`);
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, "migration.sql"), sql);
console.log(`Wrote ${join(dir, "migration.sql")}`);
