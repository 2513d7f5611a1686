import { describe, expect, it } from "vitest";
import { createOrganizationInput } from "./validation.ts";
import { slugFromName } from "./organizations.ts";

describe("slugFromName: the slug a new organization's name suggests, valid for the server's rule or empty", () => {
  it.each([
    ["Acme Inc.", "acme-inc"],
    ["  Café  Crème & Co ", "cafe-creme-co"],
    ["R&D -- Team 42", "r-d-team-42"],
    ["Ab", ""],
    ["!!!", ""],
    ["日本語の会社", ""],
    ["a".repeat(48) + " bcd", "a".repeat(48) + "-b"],
    ["a".repeat(49) + " bcd", "a".repeat(49)],
  ])("%j -> %j", (name, expected) => {
    const slug = slugFromName(name);
    expect(slug).toBe(expected);
    if (slug) expect(createOrganizationInput.safeParse({ name: "Acme", slug }).success).toBe(true);
  });
});
