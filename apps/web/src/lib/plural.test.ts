import { expect, it } from "vitest";
import { plural } from "./plural.ts";

it.each([
  [1, "day", undefined, "1 day"],
  [8, "day", undefined, "8 days"],
  [0, "hour", undefined, "0 hours"],
  [1_000, "generation", undefined, "1,000 generations"],
  [1, "runtime fetch", "runtime fetches", "1 runtime fetch"],
  [2_500, "runtime fetch", "runtime fetches", "2,500 runtime fetches"],
] as const)("%s %s (%s) reads %s", (n, one, many, text) => expect(plural(n, one, many)).toBe(text));
