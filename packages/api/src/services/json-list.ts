// A list that PostgreSQL writes as JSON text itself, for reads whose rows would otherwise be parsed,
// checked and written again in JavaScript only to send the same text.
import { Prisma } from "@promptly/db";

/**
 * A list's items as JSON text, in the list's order: pieces each holding one or more objects joined by
 * commas (a piece per row keeps a long list out of one large string, which stays in memory until a full
 * collection), and how many objects there are.
 */
export interface JsonList {
  count: number;
  pieces: string[];
}

/**
 * A timestamptz as JSON's value of its Date (toISOString: UTC, milliseconds, `Z`), for a statement
 * that writes JSON itself; the columns are timestamptz(3), so no fraction is lost.
 */
export const isoTimeSql = (column: Prisma.Sql) => Prisma.sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
