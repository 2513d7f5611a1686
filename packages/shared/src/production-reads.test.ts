// A generations export's file name keeps the prompt's name readable: letters of either case, digits,
// '.', '_' and '-' as they are, each run of anything else one '_'.
import { describe, expect, it } from "vitest";
import { generationExportFileName } from "./production-reads.ts";

describe("generationExportFileName", () => {
  it("keeps upper-case letters, digits, dots, underscores and hyphens; each other run becomes one '_'", () => {
    expect(generationExportFileName("Support-Bot", "csv")).toBe("Support-Bot-generations.csv");
    expect(generationExportFileName("support/reply.v2_x", "jsonl")).toBe("support_reply.v2_x-generations.jsonl");
    expect(generationExportFileName('Ünïcode "name"\r\n', "csv")).toBe("_n_code_name_-generations.csv");
  });
});
