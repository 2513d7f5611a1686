// A comparable snapshot of a database's schema (tables, columns, enums, indexes, constraints),
// used by the drift test to prove that the migrations build exactly what schema.prisma describes.
import pg from "pg";

export async function schemaSnapshot(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // A partitioned table (generations) is compared as its parent: its partitions are created at run
    // time by month, and each repeats the parent's columns, indexes and constraints.
    const notPartition = (column: string) => `${column} NOT IN (SELECT relname FROM pg_class WHERE relispartition)`;
    const queries = [
      `SELECT 'column ' || table_name || '.' || column_name || ' ' || udt_name || ' null=' || is_nullable ||
              ' default=' || coalesce(column_default, '') || ' len=' || coalesce(character_maximum_length::text, '') ||
              ' precision=' || coalesce(datetime_precision::text, '') AS line
         FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'
          AND ${notPartition("table_name")}`,
      `SELECT 'enum ' || t.typname || ' ' || string_agg(e.enumlabel, ',' ORDER BY e.enumsortorder) AS line
         FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid GROUP BY t.typname`,
      // Search indexes (named *_trgm and *_fts), partial indexes (a WHERE) and CHECK constraints are written by hand in
      // migrations: Prisma's schema cannot say them, so they are not part of the comparison (tests of their own check them).
      // Nor is a table's persistence (rate_limits is UNLOGGED): no query here reads it.
      // A partitioned table's index reads `ON ONLY`, which Prisma's plain table would not.
      `SELECT 'index ' || replace(indexdef, ' ON ONLY ', ' ON ') AS line FROM pg_indexes
        WHERE schemaname = 'public' AND tablename <> '_prisma_migrations' AND indexname NOT LIKE '%\\_trgm' AND indexname NOT LIKE '%\\_fts'
          AND indexdef NOT LIKE '% WHERE %' AND ${notPartition("tablename")}`,
      `SELECT 'constraint ' || c.conrelid::regclass::text || ' ' || c.conname || ' ' || pg_get_constraintdef(c.oid) AS line
         FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
        WHERE n.nspname = 'public' AND c.contype <> 'c' AND c.conrelid::regclass::text NOT IN ('_prisma_migrations', '"_prisma_migrations"') AND c.conrelid <> 0
          AND NOT c.conrelid IN (SELECT oid FROM pg_class WHERE relispartition)`,
    ];
    const lines: string[] = [];
    for (const sql of queries) {
      const { rows } = await client.query<{ line: string }>(sql);
      lines.push(...rows.map((row) => row.line));
    }
    return lines.sort();
  } finally {
    await client.end();
  }
}
