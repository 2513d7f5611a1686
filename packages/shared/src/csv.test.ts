import { describe, expect, it } from "vitest";
import { csvText, type CsvCell } from "./csv.ts";

describe("csvText", () => {
  it.each<[CsvCell, string]>([
    ["plain", "plain"],
    ["", ""],
    [null, ""],
    [undefined, ""],
    [42, "42"],
    [-3, "-3"],
    [1.5, "1.5"],
    ["a,b", `"a,b"`],
    [`say "hi"`, `"say ""hi"""`],
    ["two\nlines", `"two\nlines"`],
    ["cr\rlf", `"cr\rlf"`],
    ["=1+1", "'=1+1"],
    [`=HYPERLINK("http://x","y")`, `"'=HYPERLINK(""http://x"",""y"")"`],
    ["+1", "'+1"],
    ["-1", "'-1"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\t=1", "'\t=1"],
    ["\r=1", `"'\r=1"`],
    ["a=1", "a=1"],
    [" =1", " =1"],
  ])("writes %j as %s", (value, cell) => {
    expect(csvText([[value]])).toBe(`${cell}\r\n`);
  });

  it("joins cells with commas and rows with CRLF, ending with one", () => {
    expect(csvText([["a", "b"], [1, null]])).toBe("a,b\r\n1,\r\n");
  });
});
