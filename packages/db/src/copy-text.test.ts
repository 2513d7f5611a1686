import { describe, expect, it } from "vitest";
import { CopyText, copyText } from "./index.ts";

describe("copyText: one value in COPY's text format", () => {
  it("writes null as \\N and escapes what COPY reads as structure", () => {
    expect(copyText(null)).toBe("\\N");
    expect(copyText(undefined)).toBe("\\N");
    expect(copyText("\\N")).toBe("\\\\N");
    expect(copyText("a\tb\nc\rd\\e")).toBe("a\\tb\\nc\\rd\\\\e");
    expect(copyText("plain, \"quoted\" é 😀")).toBe("plain, \"quoted\" é 😀");
  });

  it("writes a NUL, which no PostgreSQL text holds, as U+FFFD", () => {
    expect(copyText("a\u0000b")).toBe("a\uFFFDb");
  });

  it("writes numbers and dates as PostgreSQL reads them", () => {
    expect(copyText(12.5)).toBe("12.5");
    expect(copyText(1e-7)).toBe("1e-7");
    expect(copyText(new Date("2026-12-06T04:00:00.123Z"))).toBe("2026-12-06T04:00:00.123Z");
  });

  it("writes every date as toISOString does, the text of its second reused (each millisecond width, the epoch, years outside 1970 to 9999)", () => {
    const times = [0, 1, 9, 10, 99, 100, 999, 1000, 1_764_990_000_007, 1_764_990_000_070, 1_764_990_000_700, 253_402_300_799_999, -1, -62_198_755_200_000, 8.64e15];
    for (const time of [...times, ...times]) expect(copyText(new Date(time))).toBe(new Date(time).toISOString());
    for (let time = 1_764_990_000_000; time < 1_764_990_003_000; time += 37) expect(copyText(new Date(time))).toBe(new Date(time).toISOString());
  });
});

describe("CopyText: lines written straight into UTF-8 bytes", () => {
  it("holds exactly the bytes of its lines, however far it grows past its first size", () => {
    const lines = Array.from({ length: 300 }, (_, index) => `${index}\tplain ascii\t${"x".repeat(index)}\n`);
    const text = new CopyText(16);
    for (const line of lines) text.add(line);
    expect(text.bytes().equals(Buffer.from(lines.join(""), "utf8"))).toBe(true);
  });

  it("writes any character as Buffer.from does: two, three and four bytes, a lone surrogate as U+FFFD", () => {
    const lines = ["é\t€\n", "😀 and 漢字\n", "lone \uD83D here\n", "and \uDE00 there\n", "😀".repeat(40) + "\n", "€".repeat(1_000) + "\n", "漢".repeat(3_000) + "\n"];
    for (const first of [1, 8, 4096, 100_000]) {
      const text = new CopyText(first);
      for (const line of lines) text.add(line);
      expect(text.bytes().toString("utf8")).toBe(Buffer.from(lines.join(""), "utf8").toString("utf8"));
      expect(text.bytes().equals(Buffer.from(lines.join(""), "utf8"))).toBe(true);
    }
  });

  it("is empty with no line", () => {
    expect(new CopyText().bytes().length).toBe(0);
  });
});
