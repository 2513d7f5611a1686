import { describe, expect, it } from "vitest";
import { authorOf, type Actor } from "./actor.ts";

describe("authorOf: the author column names the person, nobody else", () => {
  it.each([
    ["a person", { kind: "user", userId: "u1" }, "u1"],
    ["a team's API key", { kind: "apiKey", apiKeyId: "k1" }, null],
    ["the command line", { kind: "cli" }, null],
  ] as const)("%s", (_name, actor: Actor, author) => {
    expect(authorOf(actor)).toBe(author);
  });
});
