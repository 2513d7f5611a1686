import { describe, expect, it } from "vitest";
import { csvText, parseCsv, type CsvCell } from "./csv.ts";

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

describe("parseCsv", () => {
  it("reads records with their first line, quoted cells over several lines, CRLF or LF, a byte-order mark, blank lines skipped", () => {
    const text = '\uFEFFname,note\r\nAda,"says ""hi"", twice"\n\nBob,"two\nlines"\nCy,\n';
    expect(parseCsv(text)).toEqual({
      records: [
        { line: 1, cells: ["name", "note"] },
        { line: 2, cells: ["Ada", 'says "hi", twice'] },
        { line: 4, cells: ["Bob", "two\nlines"] },
        { line: 6, cells: ["Cy", ""] },
      ],
      unclosedQuoteLine: null,
    });
  });

  it("reads back what csvText writes", () => {
    const rows = [["a,b", 'say "hi"', "two\nlines"], ["", "x", "y"]];
    expect(parseCsv(csvText(rows)).records.map((record) => record.cells)).toEqual(rows);
  });

  it("says where a quoted cell never closes", () => {
    expect(parseCsv('a,b\n1,2\n3,"open\nstill open')).toEqual({ records: [{ line: 1, cells: ["a", "b"] }, { line: 2, cells: ["1", "2"] }], unclosedQuoteLine: 3 });
  });
});
