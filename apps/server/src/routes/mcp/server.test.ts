import { describe, expect, it } from "vitest";
import { argumentValues } from "./server.ts";

describe("prompts/get's arguments", () => {
  it("are typed as their variables say, an optional one left '' is dropped, and one of no variable stays text", () => {
    const variables = [
      { name: "count", type: "number" as const },
      { name: "flag", type: "boolean" as const },
      { name: "data", type: "json" as const },
      { name: "note", type: "string" as const, required: false },
      { name: "count", type: "string" as const },
    ];
    expect(argumentValues(variables, { count: "3", flag: "true", data: '{"a":1}', note: "", other: "7" })).toEqual({
      count: 3,
      flag: true,
      data: { a: 1 },
      other: "7",
    });
  });

  it("each find their variable in one map, not by a search of the list for each", () => {
    // Counted as the variables' names are read: before, each of the 20,000 arguments read the names
    // until its own (200 million reads).
    let nameReads = 0;
    const variables = Array.from({ length: 20_000 }, (_, i) => ({
      get name() {
        nameReads += 1;
        return `v${i}`;
      },
      type: "number" as const,
    }));
    const values = argumentValues(variables, Object.fromEntries(variables.map((_, i) => [`v${i}`, String(i)])));
    expect(nameReads).toBeLessThan(100_000);
    expect(values).toEqual(Object.fromEntries(variables.map((_, i) => [`v${i}`, i])));
  });
});
