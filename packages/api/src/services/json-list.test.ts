import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Prisma } from "@promptly/db";
import { listColumns } from "./json-list.ts";

describe("listColumns", () => {
  const item = z.object({ id: z.string(), startedAt: z.date(), count: z.number(), endedAt: z.date() });
  const columns = listColumns(item, { count: Prisma.sql`x.n`, id: Prisma.sql`x.id`, endedAt: Prisma.sql`x.ended_at`, startedAt: Prisma.sql`x.started_at` });

  it("writes the columns in the schema's order, whatever the expressions' order, dates as timestamptz or as toISOString text", () => {
    expect(columns.rows.sql).toBe('x.id AS "id",x.started_at AS "startedAt",x.n AS "count",x.ended_at AS "endedAt"');
    expect(columns.json.sql).toBe(
      `x.id AS "id",to_char(x.started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "startedAt",x.n AS "count",` +
        `to_char(x.ended_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "endedAt"`,
    );
    expect(columns.names.sql).toBe('"id","startedAt","count","endedAt"');
  });

  it("takes the dates from the schema, in its order", () => {
    expect(columns.dateKeys).toEqual(["startedAt", "endedAt"]);
  });

  it.each([
    ["null", z.date().nullable()],
    ["absent", z.date().optional()],
    ["absent, with a default", z.date().nullable().default(null)],
  ])("refuses a date that may be %s (the annotations would claim it on every item)", (_name, schema) => {
    expect(() => listColumns(z.object({ at: schema }), { at: Prisma.sql`x.at` })).toThrow("A list item's date may not be null or absent (at)");
  });
});
