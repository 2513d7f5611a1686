import { describe, expect, it } from "vitest";
import { displayName, initials } from "./people.ts";

describe("displayName (full name, else email before @, else 'User')", () => {
  it.each([
    ["Ada Lovelace", "ada@example.com", "Ada Lovelace"],
    ["  Ada  ", "ada@example.com", "Ada"],
    [null, "grace.hopper@example.com", "grace.hopper"],
    ["", "x@example.com", "x"],
    [null, null, "User"],
    ["   ", "", "User"],
  ])("(%j, %j) -> %j", (fullName, email, expected) => {
    expect(displayName(fullName, email)).toBe(expected);
  });
});

describe("initials (first letters of the name's first and last words, else two letters of the email, else 'U')", () => {
  it.each([
    ["Ada Lovelace", "ada@example.com", "AL"],
    ["ada king lovelace", null, "AL"],
    ["Mona Mentioned c0ffee", null, "MC"],
    ["Élodie Ørsted", null, "ÉØ"],
    ["Cher", "cher@example.com", "C"],
    [null, "grace@example.com", "GR"],
    ["  ", "zo@example.com", "ZO"],
    [null, null, "U"],
    ["", "", "U"],
  ])("(%j, %j) -> %j", (fullName, email, expected) => {
    expect(initials(fullName, email)).toBe(expected);
  });
});
