// The timestamptz reader gives the value node-postgres's own parser gives, for every shape PostgreSQL
// writes (DateStyle ISO) and the ones it leaves to that parser.
import pg from "pg";
import { describe, expect, it } from "vitest";
import { fastTimestampTypes, parseTimestamptz } from "./timestamps.ts";

const nodePostgres = pg.types.getTypeParser(1184, "text") as (text: string) => Date | number | null;
const timeOf = (value: Date | number | null) => (value instanceof Date ? value.getTime() : value);

describe("parseTimestamptz", () => {
  it("reads every fraction length and offset PostgreSQL writes as node-postgres does", () => {
    let seed = 1184;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const two = (n: number) => String(n).padStart(2, "0");
    const offsets = ["+00", "-07", "+05:30", "+05:45", "-03:30", "+14", "-12", "-00:25:21", "+00:53:28", "+01:00:00"];
    for (let i = 0; i < 20_000; i++) {
      const at = new Date(Math.floor(random() * 2.5e14) - 5e13);
      const fraction = String(Math.floor(random() * 1e6)).padStart(6, "0").slice(0, Math.floor(random() * 7)).replace(/0+$/, "");
      const text = `${String(at.getUTCFullYear()).padStart(4, "0")}-${two(at.getUTCMonth() + 1)}-${two(at.getUTCDate())} ${two(at.getUTCHours())}:${two(at.getUTCMinutes())}:${two(at.getUTCSeconds())}${fraction ? `.${fraction}` : ""}${offsets[i % offsets.length]}`;
      expect(timeOf(parseTimestamptz(text)), text).toBe(timeOf(nodePostgres(text)));
    }
  });

  it("leaves the other shapes to node-postgres's parser", () => {
    const others = ["infinity", "-infinity", "0099-12-31 23:59:59+00", "0001-01-01 00:00:00+00 BC", "12345-01-01 00:00:00+00", "2026-11-28 00:00:00", "2026-11-28 00:00:00+0530", "2026-11-28 00:00:00+00 BC", "2026-11-28"];
    for (const text of others) expect(timeOf(parseTimestamptz(text)), text).toEqual(timeOf(nodePostgres(text)));
  });

  it("is the pool's parser for timestamptz only, in text", () => {
    expect(fastTimestampTypes.getTypeParser(1184, "text")).toBe(parseTimestamptz);
    expect(fastTimestampTypes.getTypeParser(1114, "text")).toBe(pg.types.getTypeParser(1114, "text"));
    expect(fastTimestampTypes.getTypeParser(1184, "binary")).toBe(pg.types.getTypeParser(1184, "binary"));
  });
});
