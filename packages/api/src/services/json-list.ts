// A list that PostgreSQL writes as JSON text itself, for reads whose rows would otherwise be parsed,
// checked and written again in JavaScript only to send the same text.
import { z } from "zod";
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

/**
 * One list item's columns for both statements of a list (rows JavaScript reads, JSON PostgreSQL
 * writes), in the item schema's key order: the order the procedure's output parse writes them in.
 */
export interface ListColumns {
  /** `expression AS "key"` for every key, dates as timestamptz: the rows of the procedure's statement. */
  rows: Prisma.Sql;
  /** The same with dates as toISOString writes them (isoTimeSql): the object row_to_json writes. */
  json: Prisma.Sql;
  /** The keys alone, to pick the item out of a row that carries more (the sort keys of an aggregate). */
  names: Prisma.Sql;
  /** The item's Date keys in its order: the annotations listJsonText writes for each item. */
  dateKeys: readonly string[];
}

/**
 * Whether a field is a date, maybe null, absent or defaulted (listJsonText annotates the same dates on
 * every item, so only a plain date fits a list).
 */
const holdsDate = (schema: z.ZodType): boolean =>
  schema instanceof z.ZodDate ||
  ((schema instanceof z.ZodNullable || schema instanceof z.ZodOptional || schema instanceof z.ZodDefault) && holdsDate(schema.unwrap() as z.ZodType));

/**
 * The columns of a list whose item is `item`, from each key's SQL expression; built once, where the
 * service is loaded, never per request. Its Date fields are the columns written as dates.
 */
export function listColumns<Shape extends z.ZodRawShape>(item: z.ZodObject<Shape>, expressions: { [Key in keyof Shape]: Prisma.Sql }): ListColumns {
  const keys = Object.keys(item.shape) as (keyof Shape & string)[];
  const dateKeys = keys.filter((key) => item.shape[key] instanceof z.ZodDate);
  const unannotated = keys.find((key) => !dateKeys.includes(key) && holdsDate(item.shape[key] as z.ZodType));
  if (unannotated) throw new Error(`A list item's date may not be null or absent (${unannotated})`);
  const columns = (date: (column: Prisma.Sql) => Prisma.Sql) =>
    Prisma.join(keys.map((key) => Prisma.sql`${dateKeys.includes(key) ? date(expressions[key]) : expressions[key]} AS ${quoted(key)}`));
  return { rows: columns((column) => column), json: columns(isoTimeSql), names: Prisma.join(keys.map(quoted)), dateKeys };
}

/** A key as a column name (the schemas' keys are plain words). */
const quoted = (key: string) => Prisma.raw(`"${key}"`);
