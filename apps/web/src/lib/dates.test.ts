import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime } from "./dates.ts";

// Noon UTC is the same calendar day in every time zone from UTC-11 to UTC+11.
const NOON_UTC = new Date("2025-03-05T12:00:00Z");

describe("dates (one format, the reader's locale)", () => {
  it.each([
    ["en-US", "Mar 5, 2025"],
    ["en-GB", "5 Mar 2025"],
    ["de-DE", "05.03.2025"],
  ])("a day in %s reads %s", (locale, expected) => {
    expect(formatDate(NOON_UTC, locale)).toBe(expected);
  });

  it("a day with its time carries the minutes but not the seconds", () => {
    const text = formatDateTime(new Date("2025-03-05T12:34:56Z"), "en-US");
    expect(text).toMatch(/^Mar 5, 2025, \d{1,2}:34\s?[AP]M$/);
    expect(text).not.toContain(":56");
  });

  it("without a locale it follows the runtime's (the browser's) locale", () => {
    const userLocale = new Intl.DateTimeFormat().resolvedOptions().locale;
    expect(formatDate(NOON_UTC)).toBe(formatDate(NOON_UTC, userLocale));
    expect(formatDateTime(NOON_UTC)).toBe(formatDateTime(NOON_UTC, userLocale));
  });

  it("formatters are not mixed up between locales", () => {
    expect(formatDate(NOON_UTC, "de-DE")).toBe("05.03.2025");
    expect(formatDate(NOON_UTC, "en-US")).toBe("Mar 5, 2025");
    expect(formatDateTime(NOON_UTC, "de-DE")).toMatch(/^05\.03\.2025, \d{2}:00$/);
  });
});
