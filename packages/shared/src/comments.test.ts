import { describe, expect, it } from "vitest";
import { accessOf, type PromptAccess } from "./permissions.ts";
import { canOnComment, commentBodySchema, mentionToken, mentionedUserIds, mentionsToTokens, tokensToMentions } from "./comments.ts";

const ID = "0f8fad5b-d9cb-469f-a165-70867728950e";
const OTHER = "7c9e6679-7425-40de-944b-e07fc1f90ae7";

describe("mention tokens", () => {
  it("a token names the person by id; its name cannot break the token", () => {
    expect(mentionToken({ id: ID, name: "Ada Lovelace" })).toBe(`@[Ada Lovelace](user:${ID})`);
    expect(mentionToken({ id: ID, name: "[x](y)\nz" })).toBe(`@[x (y) z](user:${ID})`);
    expect(mentionToken({ id: ID, name: " " })).toBe(`@[someone](user:${ID})`);
  });

  it("the ids of a text's mentions, once each, in order; anything else is text", () => {
    const body = `${mentionToken({ id: ID, name: "A" })} and @[B](user:${OTHER.toUpperCase()}) and ${mentionToken({ id: ID, name: "A again" })} and @[C](user:not-a-uuid) and [D](user:${ID})`;
    expect(mentionedUserIds(body)).toEqual([ID, OTHER]);
  });
});

describe("the comment box shows names, the stored text keeps tokens", () => {
  const stored = `Hi ${mentionToken({ id: ID, name: "Ada Lovelace" })} and ${mentionToken({ id: OTHER, name: "Ada" })}, see @home.`;

  it("tokens become @Name, and back, unchanged", () => {
    const shown = tokensToMentions(stored);
    expect(shown.text).toBe("Hi @Ada Lovelace and @Ada, see @home.");
    expect(shown.mentions).toEqual([{ name: "Ada Lovelace", id: ID }, { name: "Ada", id: OTHER }]);
    expect(mentionsToTokens(shown.text, shown.mentions)).toBe(stored);
  });

  it("a name edited in the box, or followed by more letters, is plain text", () => {
    const mentions = [{ name: "Ada Lovelace", id: ID }];
    expect(mentionsToTokens("@Ada Lovelac and @Ada Lovelaces", mentions)).toBe("@Ada Lovelac and @Ada Lovelaces");
    expect(mentionsToTokens("(@Ada Lovelace)", mentions)).toBe(`(${mentionToken({ id: ID, name: "Ada Lovelace" })})`);
  });

  it("names with characters that mean something in a pattern are matched literally", () => {
    const mentions = [{ name: "J. (Jo) Doe+", id: ID }];
    expect(mentionsToTokens("@J. (Jo) Doe+ hi @JX (Jo) Doe+", mentions)).toBe(`${mentionToken({ id: ID, name: "J. (Jo) Doe+" })} hi @JX (Jo) Doe+`);
  });
});

describe("canOnComment", () => {
  const access = (teamRole: "viewer" | "editor" | "admin" | null, userId = "me"): PromptAccess => ({
    ...accessOf({ role: "user", isSuperUser: false }, { teamRole, organizationRole: "member" }),
    userId,
  });
  it.each([
    ["the author edits and deletes", access("viewer"), { authorId: "me" }, { edit: true, delete: true }],
    ["an editor does neither to someone else's", access("editor"), { authorId: "them" }, { edit: false, delete: false }],
    ["a team admin moderates: deletes, never edits", access("admin"), { authorId: "them" }, { edit: false, delete: true }],
    ["a comment without an author (account gone) is nobody's own", access("viewer"), { authorId: null }, { edit: false, delete: false }],
  ])("%s", (_what, who, comment, expected) => {
    expect({ edit: canOnComment(who, comment, "edit"), delete: canOnComment(who, comment, "delete") }).toEqual(expected);
  });
});

it("a comment's text is trimmed and 1-5,000 characters", () => {
  expect(commentBodySchema.parse("  hi \n")).toBe("hi");
  expect(commentBodySchema.safeParse(" \n ").success).toBe(false);
  expect(commentBodySchema.safeParse("x".repeat(5001)).success).toBe(false);
});
