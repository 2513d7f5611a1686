import { describe, expect, it } from "vitest";
import { PASSWORD_FEEDBACK, passwordBand, passwordMeterColor, passwordScore, passwordStrength } from "./password-strength.ts";

describe("passwordScore", () => {
  it.each([
    ["a", 15, "lower only"],
    ["A", 15, "upper only"],
    ["1", 15, "digit only"],
    ["!", 25, "special only"],
    ["abcdefgh", 15, "8 chars is not over 8"],
    ["abcdefghi", 35, "9 chars: +20 length"],
    ["abcdefghijkl", 35, "12 chars is not over 12"],
    ["abcdefghijklm", 45, "13 chars: +20 +10 length"],
    ["Abcdefgh", 30, "upper + lower"],
    ["Abcdefg1", 45, "upper + lower + digit, 8 chars"],
    ["Abcdefg1!", 90, "all classes, 9 chars"],
    ["Abcdefghijk1!", 100, "all classes, 13 chars: the maximum"],
    ["pass word", 60, "a space counts as special"],
    ["ÄÖÜäöü", 25, "non-ASCII letters count as special"],
  ])("%j -> %i (%s)", (password, expected) => {
    expect(passwordScore(password)).toBe(expected);
  });
});

describe("passwordBand (below 30 weak, below 60 moderate, below 80 strong, else very strong)", () => {
  it.each([
    [0, "weak"],
    [29, "weak"],
    [30, "moderate"],
    [59, "moderate"],
    [60, "strong"],
    [79, "strong"],
    [80, "very-strong"],
    [100, "very-strong"],
  ] as const)("%i -> %s", (score, band) => {
    expect(passwordBand(score)).toBe(band);
  });
});

describe("passwordMeterColor (red below 30, yellow from 30, blue from 60, green from 80)", () => {
  it.each([
    [0, "red"],
    [29, "red"],
    [30, "yellow"],
    [59, "yellow"],
    [60, "blue"],
    [79, "blue"],
    [80, "green"],
    [100, "green"],
  ] as const)("%i -> %s", (score, color) => {
    expect(passwordMeterColor(score)).toBe(color);
  });
});

describe("passwordStrength feedback texts", () => {
  it.each([
    ["", 0, "No password provided."],
    [null, 0, "No password provided."],
    ["abc", 15, "Weak password. Consider using a longer password with letters, numbers, and special characters."],
    ["abcdefghi", 35, "Moderate password. Add more complexity for better security."],
    ["Abcdefghi1", 65, "Strong password."],
    ["Abcdefghi1!", 90, "Very strong password!"],
  ])("%j -> %i, %j", (password, score, feedback) => {
    const strength = passwordStrength(password);
    expect(strength.score).toBe(score);
    expect(strength.feedback).toBe(feedback);
  });

  it("has one feedback text per band", () => {
    expect(Object.keys(PASSWORD_FEEDBACK).sort()).toEqual(["moderate", "none", "strong", "very-strong", "weak"]);
  });
});
