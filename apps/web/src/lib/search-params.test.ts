// Each reader keeps and drops exactly what the zod schema it stands for kept and dropped (`.optional().catch(undefined)`).
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { ANALYTICS_RANGES, PROMPT_SORTS } from "@promptly/shared";
import {
  optionalBoolean,
  optionalInteger,
  optionalOneOf,
  optionalString,
  optionalStringArray,
  optionalStringOfLength,
  optionalUuid,
  searchOf,
} from "./search-params.ts";

// What TanStack Router's search parser can hand a route: strings, numbers, booleans, arrays, objects, null.
const VALUES: unknown[] = [
  undefined, null, "", "a", "x".repeat(100), "x".repeat(101), "x".repeat(200), "x".repeat(201), "7", "updated", "cards", "Updated",
  0, 1, 2, -1, 1.5, 7, 30, 90, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 2, Number.NaN, Number.POSITIVE_INFINITY,
  true, false, "true", [], ["a", "b"], ["a", 1], [1], {}, { a: 1 },
  "0b7e2c3a-1d2f-4e5a-9b6c-7d8e9f0a1b2c", "0B7E2C3A-1D2F-4E5A-9B6C-7D8E9F0A1B2C", "00000000-0000-0000-0000-000000000000",
  "ffffffff-ffff-ffff-ffff-ffffffffffff", "0b7e2c3a-1d2f-9e5a-9b6c-7d8e9f0a1b2c", "0b7e2c3a-1d2f-4e5a-cb6c-7d8e9f0a1b2c", "0b7e2c3a1d2f4e5a9b6c7d8e9f0a1b2c",
];

const cases: [string, (value: unknown) => unknown, z.ZodType][] = [
  ["string", optionalString, z.string()],
  ["string of 1 to 200", optionalStringOfLength(1, 200), z.string().min(1).max(200)],
  ["string of at most 100", optionalStringOfLength(0, 100), z.string().max(100)],
  ["boolean", optionalBoolean, z.boolean()],
  ["integer of at least 1", optionalInteger(1), z.number().int().min(1)],
  ["one of the sorts", optionalOneOf(PROMPT_SORTS), z.enum(PROMPT_SORTS)],
  ["one of the ranges", optionalOneOf(ANALYTICS_RANGES), z.union([z.literal(7), z.literal(30), z.literal(90)])],
  ["string array", optionalStringArray, z.array(z.string())],
  ["uuid", optionalUuid, z.uuid()],
];

describe.each(cases)("%s", (_name, read, schema) => {
  const zod = schema.optional().catch(undefined);
  test.each(VALUES.map((value) => [value]))("%j", (value) => {
    expect(read(value)).toEqual(zod.parse(value));
  });
});

test("searchOf keeps the named parameters that read, and nothing else", () => {
  const validate = searchOf({ q: optionalString, version: optionalInteger(1) });
  expect(validate({ q: "a", version: 0, other: "x" })).toEqual({ q: "a" });
  expect(validate({ version: 2 })).toEqual({ version: 2 });
});
