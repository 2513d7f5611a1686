// A list that PostgreSQL writes as JSON text itself, for reads whose rows would otherwise be parsed,
// checked and written again in JavaScript only to send the same text.
import { Prisma } from "@promptly/db";

/** A list's items as JSON text (each an object, joined by commas, in the list's order) and how many there are. */
export interface JsonList {
  count: number;
  items: string;
}

/**
 * A timestamptz as JSON's value of its Date (toISOString: UTC, milliseconds, `Z`), for a statement
 * that writes JSON itself; the columns are timestamptz(3), so no fraction is lost.
 */
export const isoTimeSql = (column: Prisma.Sql) => Prisma.sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
