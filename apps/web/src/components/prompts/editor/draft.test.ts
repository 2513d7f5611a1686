import { describe, expect, it } from "vitest";
import { lint } from "@promptly/shared";
import { contractRows, draftFromVersion, emptyDraft, newMessage, parseConfig, versionBody, type VariableRow, type VersionDraft } from "./draft.ts";

const row = (change: Partial<VariableRow> = {}): VariableRow => ({ type: "string", required: true, default: "", options: "", description: "", ...change });
const draft = (change: Partial<VersionDraft>): VersionDraft => ({ ...emptyDraft(), ...change });

describe("the contract table", () => {
  it("has a row per variable of the template, in order, and keeps described ones the template dropped", () => {
    const rows = contractRows(
      draft({ template: "{{ b }} and {{a}} and {{ b }}", rows: { gone: row({ description: "kept" }), quiet: row(), a: row({ type: "number" }) } }),
    );
    expect(rows.map((r) => [r.name, r.row.type])).toEqual([["b", "string"], ["a", "number"], ["gone", "string"]]);
  });

  it("reads every message of a chat prompt", () => {
    const chat = draft({ type: "chat", template: "{{ ignored }}", messages: [newMessage("system", "{{ tone }}"), newMessage("user", "{{ question }}")] });
    expect(contractRows(chat).map((r) => r.name)).toEqual(["tone", "question"]);
  });

  it("keeps a placeholder as its own message, with no row of its own, and lint refuses its name as a variable's too", () => {
    const chat = draft({ type: "chat", messages: [newMessage("system", "{{ tone }}"), newMessage("placeholder", " history "), newMessage("user", "Hi")] });
    const body = versionBody(chat);
    expect(body.type === "chat" && body.messages).toEqual([
      { role: "system", content: "{{ tone }}" },
      { type: "placeholder", name: "history" },
      { role: "user", content: "Hi" },
    ]);
    expect(contractRows(chat).map((r) => r.name)).toEqual(["tone"]);
    const both = draft({ type: "chat", messages: [newMessage("system", "{{ history }}"), newMessage("placeholder", "history")] });
    expect(lint(versionBody(both)).errors).toEqual(["Names of variables and placeholders must be unique, the following are not: history"]);
  });
});

describe("defaults by type, as the shared lint sees them", () => {
  it.each([
    ["number", "3", 3, []],
    ["number", "three", Number.NaN, ["The default of 'x' must be a number"]],
    ["boolean", "false", false, []],
    ["boolean", "yes", "yes", ["The default of 'x' must be true or false"]],
    ["json", '{"a":1}', { a: 1 }, []],
    ["json", "{oops", undefined, ["The default of 'x' must be a JSON value"]],
    ["string", "", undefined, []],
  ] as const)("%s %j", (type, text, expected, errors) => {
    const body = versionBody(draft({ template: "{{ x }}", rows: { x: row({ type, default: text }) } }));
    if (expected !== undefined) expect(body.variables?.[0]?.default).toEqual(expected);
    expect(lint(body).errors).toEqual(errors);
  });

  it("sends an enum's options as a list", () => {
    const body = versionBody(draft({ template: "{{ tone }}", rows: { tone: row({ type: "enum", options: "formal, casual,", default: "casual" }) } }));
    expect(body.variables).toEqual([{ name: "tone", type: "enum", required: true, default: "casual", options: ["formal", "casual"] }]);
  });
});

describe("config", () => {
  it.each([
    ["", { config: undefined }],
    ['{"temperature": 0.2}', { config: { temperature: 0.2 } }],
    ["[1]", { error: true }],
    ["null", { error: true }],
    ["{", { error: true }],
  ])("%j", (text, expected) => expect(parseConfig(text)).toEqual(expected));
});

describe("a draft from a saved version", () => {
  it("keeps its text, contract, model and config", () => {
    const restored = draftFromVersion({
      version: 2,
      type: "chat",
      template: null,
      messages: [{ role: "user", content: "Hi {{ name }}" }],
      variables: [{ name: "name", type: "json", default: { a: 1 }, description: "who" }],
      model: "gpt-4o",
      placeholders: [],
      config: { temperature: 0 },
      tools: [],
      responseFormat: null,
      commitMessage: "old",
      author: null,
      createdAt: new Date(),
    });
    expect(restored.messages.map((m) => [m.role, m.content])).toEqual([["user", "Hi {{ name }}"]]);
    expect(restored.rows.name).toEqual({ type: "json", required: true, default: '{"a":1}', options: "", description: "who" });
    expect([restored.model, restored.config, restored.commitMessage]).toEqual(["gpt-4o", '{\n  "temperature": 0\n}', ""]);
  });
});
