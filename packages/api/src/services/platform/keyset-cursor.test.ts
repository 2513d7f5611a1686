import { describe, expect, it } from "vitest";
import { z } from "zod";
import { PROMPT_MSG } from "@promptly/shared";
import { instantSortValue, decodeKeysetCursor, encodeKeysetCursor } from "./keyset-cursor.ts";

const id = "3f1c2a9e-5b7d-4e2f-8a1b-0c9d8e7f6a5b";
const raw = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

describe("keyset cursor", () => {
  it.each([
    ["a name", "welcome-email", z.string(), "welcome-email"],
    ["a number", 42, z.number(), 42],
  ] as const)("round-trips %s", (_name, value, schema, expected) => {
    expect(decodeKeysetCursor<unknown>(encodeKeysetCursor(value, id), schema)).toEqual({ sortValue: expected, id });
  });

  it("round-trips a creation time as a Date", () => {
    const at = new Date("2026-11-25T12:00:00.123Z");
    expect(decodeKeysetCursor(encodeKeysetCursor(at.toISOString(), id), instantSortValue)).toEqual({ sortValue: at, id });
  });

  const name = z.string();
  it.each([
    ["not base64url JSON", "%%%not-a-cursor", name],
    ["tampered bytes", encodeKeysetCursor("welcome-email", id).slice(0, -3) + "A_-", name],
    ["an object, not a pair", raw({ sortValue: "welcome-email", id }), name],
    ["the sort value of the wrong type", raw([7, id]), name],
    ["an id that is not a uuid", raw(["welcome-email", "1 OR 1=1"]), name],
    ["a third element", raw(["welcome-email", id, "extra"]), name],
    ["only a sort value", raw(["welcome-email"]), name],
    ["a date that is not an instant", raw(["yesterday", id]), instantSortValue],
    ["an instant in year 0, which PostgreSQL does not hold", raw(["0000-06-01T00:00:00.000Z", id]), instantSortValue],
  ] as const)("refuses %s with the one INVALID_CURSOR error", (_name, cursor, schema) => {
    expect(() => decodeKeysetCursor<unknown>(cursor, schema)).toThrow(
      expect.objectContaining({ code: "INVALID", reason: "INVALID_CURSOR", message: PROMPT_MSG.invalidCursor }),
    );
  });
});
