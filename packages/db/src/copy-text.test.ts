import { describe, expect, it } from "vitest";
import { copyText } from "./index.ts";

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
