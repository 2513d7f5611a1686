import { describe, expect, it } from "vitest";
import { accessOf, canOnPrompt, PROMPT_ABILITIES, type PromptAbility, type PromptFacts } from "./permissions.ts";
import { createPromptInput, foldersOf, listPromptsInput, nameFromTitle, nearestPromptName, promptNameSchema, promptTagsSchema, PROMPT_MSG } from "./prompts.ts";
import type { OrganizationRole, TeamRole } from "./constants.ts";

const ME = "00000000-0000-4000-8000-000000000001";
const OTHER = "00000000-0000-4000-8000-000000000002";
const who = (organizationRole: OrganizationRole | null, teamRole: TeamRole | null, isSuperUser = false) => ({
  ...accessOf({ role: isSuperUser ? "super-user" : "user", isSuperUser }, { organizationRole, teamRole }),
  userId: ME,
});

describe("prompt names", () => {
  it.each(["support", "support/reply-email", "a.b_c-d/e", "x".repeat(128)])("accepts %s", (name) => {
    expect(promptNameSchema.safeParse(name).success).toBe(true);
  });
  it.each(["Support", "/lead", "trail/", "double//slash", "with space", "x".repeat(129), "", "émoji"])("refuses %j", (name) => {
    expect(promptNameSchema.safeParse(name).success).toBe(false);
  });
  it.each([".", "..", "../../x", "a/../b", "a/./b", "a/..", "./a"])("refuses %j: a folder or name may not be '.' or '..'", (name) => {
    expect(promptNameSchema.safeParse(name).error?.issues.map((issue) => issue.message)).toEqual([PROMPT_MSG.nameDotSegment]);
  });
  it.each(["...", ".env", "a/.hidden", "v1..2", "a/b.."])("still accepts dots inside a segment: %s", (name) => {
    expect(promptNameSchema.safeParse(name).success).toBe(true);
  });
  it("derives a name from a title", () => {
    expect(nameFromTitle("  Customer Support: Reply (v2)! ")).toBe("customer-support-reply-v2");
    expect(nameFromTitle("Café résumé")).toBe("cafe-resume");
    expect(nameFromTitle("!!!")).toBe("");
  });
  it.each([
    ["Support Reply", "support-reply"],
    ["UPPERCASE", "uppercase"],
    ["multiple   spaces", "multiple-spaces"],
    ["angled[brac]es]", "angled-brac-es"],
    ["a - b", "a-b"],
    ["Café Olé", "cafe-ole"],
    ["folder/Sub Folder/Name", "folder/sub-folder/name"],
    ["/lead//double/", "lead/double"],
    ["./x/../y", "x/y"],
    ["multiple---hyphens", "multiple---hyphens"],
    ["v1.2_final", "v1.2_final"],
    ["Привет", null],
    ["", null],
  ])("the nearest name Promptly accepts to %j is %j", (name, nearest) => {
    expect(nearestPromptName(name)).toBe(nearest);
  });
  it("reads the folders of a name", () => {
    expect(foldersOf("a/b/c")).toEqual(["a", "a/b"]);
    expect(foldersOf("plain")).toEqual([]);
  });
});

describe("tags", () => {
  it("are stored lowercase, once each", () => {
    expect(promptTagsSchema.parse(["Support", "support", " email "])).toEqual(["support", "email"]);
  });
  it("allow at most 10", () => {
    const result = promptTagsSchema.safeParse(Array.from({ length: 11 }, (_, i) => `t${i}`));
    expect(result.error?.issues[0]?.message).toBe(PROMPT_MSG.tooManyTags);
  });
});

describe("createPromptInput: shape and lint before anything is saved", () => {
  const base = { teamId: ME, name: "n", title: "T", visibility: "team" as const };
  it("accepts a text prompt and a chat prompt", () => {
    expect(createPromptInput.safeParse({ ...base, type: "text", template: "Hi {{ name }}" }).success).toBe(true);
    expect(createPromptInput.safeParse({ ...base, type: "chat", messages: [{ role: "user", content: "Hi" }] }).success).toBe(true);
  });
  it("refuses a text prompt with messages and a chat prompt without", () => {
    expect(createPromptInput.safeParse({ ...base, type: "text", template: "x", messages: [] }).error?.issues[0]?.message).toBe(PROMPT_MSG.templateRequired);
    expect(createPromptInput.safeParse({ ...base, type: "chat" }).error?.issues[0]?.message).toBe(PROMPT_MSG.messagesRequired);
  });
  it("refuses lint errors with every reason", () => {
    const result = createPromptInput.safeParse({ ...base, type: "text", template: "Hi {{ name" });
    expect(result.error?.issues[0]?.message).toMatch(/^The prompt has errors: '\{\{' without a closing '\}\}'/);
  });
  it("keeps line breaks and tabs in templates but refuses NUL", () => {
    expect(createPromptInput.safeParse({ ...base, type: "text", template: "a\n\tb" }).success).toBe(true);
    expect(createPromptInput.safeParse({ ...base, type: "text", template: "a\u0000b" }).success).toBe(false);
  });
});

describe("list input", () => {
  it("caps the page size at 100", () => {
    expect(listPromptsInput.safeParse({ organizationId: ME, limit: 101 }).success).toBe(false);
  });
});

// [who, visibility, author?, abilities granted]
const RULES: [string, ReturnType<typeof who>, PromptFacts["visibility"], boolean, PromptAbility[]][] = [
  ["team viewer, team prompt", who("member", "viewer"), "team", false, ["read", "rate"]],
  ["team editor, team prompt", who("member", "editor"), "team", false, ["read", "write", "rate", "run"]],
  ["team editor, own team prompt", who("member", "editor"), "team", true, ["read", "write", "archive", "run"]],
  ["team admin, team prompt", who("member", "admin"), "team", false, ["read", "write", "label.protected", "rename", "archive", "delete", "rate", "run"]],
  ["organization admin outside the team, team prompt", who("admin", null), "team", false, ["read", "write", "label.protected", "rename", "archive", "delete", "rate", "run"]],
  ["organization member outside the team, team prompt", who("member", null), "team", false, []],
  ["organization member outside the team, organization prompt", who("member", null), "organization", false, ["read", "rate"]],
  ["outsider, organization prompt", who(null, null), "organization", false, []],
  ["team admin, someone's private prompt", who("member", "admin"), "private", false, []],
  ["organization admin, someone's private prompt", who("admin", null), "private", false, []],
  // `production` takes team admin level on a private prompt too: it is shared again with the prompt.
  ["team editor, own private prompt", who("member", "editor"), "private", true, ["read", "write", "rename", "archive", "delete", "run"]],
  ["team admin, own private prompt", who("member", "admin"), "private", true, ["read", "write", "label.protected", "rename", "archive", "delete", "run"]],
  ["team viewer, own private prompt (demoted)", who("member", "viewer"), "private", true, ["read"]],
  ["author no longer in the team, own private prompt", who("member", null), "private", true, []],
  ["super user, someone's private prompt", who(null, null, true), "private", false, [...PROMPT_ABILITIES]],
  ["super user, own prompt", who(null, null, true), "team", true, PROMPT_ABILITIES.filter((a) => a !== "rate")],
];

describe("canOnPrompt", () => {
  it.each(RULES)("%s", (_who, access, visibility, authored, granted) => {
    const facts: PromptFacts = { visibility, authorId: authored ? ME : OTHER };
    const actual = PROMPT_ABILITIES.filter((ability) => canOnPrompt(access, facts, ability));
    expect(actual).toEqual(PROMPT_ABILITIES.filter((ability) => granted.includes(ability)));
  });
});
