import { describe, expect, it } from "vitest";
import { isWithinThreeMonths, passwordHealthAdvice, securityScore, securityScoreColor } from "./security-score.ts";

const now = new Date("2025-06-15T12:00:00Z");
const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);

describe("securityScore", () => {
  it.each<[boolean, Date | null, number, number, string]>([
    // twoFactor, passwordChangedAt, timeout, expected, why
    [false, null, 120, 0, "nothing"],
    [true, null, 120, 40, "two-factor only"],
    [false, daysAgo(10), 120, 30, "recent password"],
    [false, daysAgo(200), 120, 15, "old password"],
    [false, null, 5, 30, "timeout 5"],
    [false, null, 15, 30, "timeout 15 (or less)"],
    [false, null, 16, 20, "timeout 16"],
    [false, null, 30, 20, "timeout 30 (up to 30)"],
    [false, null, 31, 10, "timeout 31"],
    [false, null, 60, 10, "timeout 60 (up to 60)"],
    [false, null, 61, 0, "timeout 61"],
    [true, daysAgo(1), 15, 100, "the maximum"],
    [true, daysAgo(100), 30, 75, "two-factor, old password, default timeout"],
    [false, daysAgo(1), 30, 50, "a new account's defaults"],
  ])("2fa=%s changed=%s timeout=%i -> %i (%s)", (twoFactorEnabled, passwordChangedAt, sessionTimeoutMinutes, expected) => {
    expect(securityScore({ twoFactorEnabled, passwordChangedAt, sessionTimeoutMinutes }, now)).toBe(expected);
  });
});

describe("securityScoreColor (red below 40, yellow from 40, blue from 60, green from 80)", () => {
  it.each([
    [0, "red"],
    [39, "red"],
    [40, "yellow"],
    [59, "yellow"],
    [60, "blue"],
    [79, "blue"],
    [80, "green"],
    [100, "green"],
  ] as const)("%i -> %s", (score, color) => {
    expect(securityScoreColor(score)).toBe(color);
  });
});

describe("isWithinThreeMonths", () => {
  it.each([
    [new Date("2025-03-15T12:00:00Z"), true, "exactly three calendar months"],
    [new Date("2025-03-15T11:59:59Z"), false, "a second older"],
    [new Date("2025-06-15T12:00:00Z"), true, "now"],
    [new Date("2024-06-15T12:00:00Z"), false, "a year ago"],
  ])("%s -> %s (%s)", (date, expected) => {
    expect(isWithinThreeMonths(date, now)).toBe(expected);
  });
});

describe("passwordHealthAdvice", () => {
  it.each([
    [null, /no password yet/],
    [daysAgo(0), /last changed today\. Keep it unique/],
    [daysAgo(1), /last changed 1 day ago\. Keep it unique/],
    [daysAgo(200), /last changed 200 days ago\. Consider updating it/],
  ])("%s -> %s", (changedAt, expected) => {
    expect(passwordHealthAdvice(changedAt, now)).toMatch(expected);
  });
});
