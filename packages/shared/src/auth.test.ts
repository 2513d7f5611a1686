import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "./auth.ts";

describe("safeRedirectPath", () => {
  it.each([
    ["/", "/"],
    ["/settings/profile", "/settings/profile"],
    ["/teams?tab=members#top", "/teams?tab=members#top"],
  ])("accepts the same-origin path %s", (input, expected) => {
    expect(safeRedirectPath(input)).toBe(expected);
  });

  it.each([
    ["an absolute URL", "https://evil.example/"],
    ["a protocol-relative URL", "//evil.example"],
    ["a backslash host", "/\\evil.example"],
    ["a backslash later", "/x\\..\\\\evil.example"],
    ["a tab that parsers strip", "/\t/evil.example"],
    ["a newline", "/a\nb"],
    ["a javascript: URL", "javascript:alert(1)"],
    ["a relative path", "settings"],
    ["an empty string", ""],
    ["a non-string", 42],
    ["a very long path", `/${"a".repeat(2001)}`],
  ])("refuses %s", (_, input) => {
    expect(safeRedirectPath(input)).toBeNull();
  });
});
