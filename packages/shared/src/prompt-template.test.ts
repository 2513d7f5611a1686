import { describe, expect, it } from "vitest";
import {
  COMPILED_TEXT_MAX, COMPILE_MSG, PLACEHOLDER_MSG, compile, effectiveContract, extractPlaceholders, extractVariables, lint, saysNothingWrittenYet, unfilledPlaceholders, type PromptVersionBody,
} from "./prompt-template.ts";

const text = (template: string, variables?: PromptVersionBody["variables"]): PromptVersionBody => ({ type: "text", template, variables });

describe("extractVariables", () => {
  it.each([
    ["Hello {{name}}", ["name"]],
    ["Hello {{ name }} and {{  other_1 }}, again {{name}}", ["name", "other_1"]],
    ["No variables here", []],
    ["A literal \\{{ not_a_variable }} stays", []],
    ["{{ 1bad }} and {{ good }}", ["good"]],
    ['JSON {"a": {"b": 1}} is text', []],
  ])("%s", (template, names) => {
    expect(extractVariables({ type: "text", template })).toEqual(names);
  });

  it("reads every message of a chat prompt, in order", () => {
    const body = {
      type: "chat" as const,
      messages: [
        { role: "system" as const, content: "You help {{ customer }}." },
        { role: "user" as const, content: "{{question}} (for {{customer}})" },
      ],
    };
    expect(extractVariables(body)).toEqual(["customer", "question"]);
  });
});

describe("effectiveContract", () => {
  const chat = (user: string, variables?: PromptVersionBody["variables"]): PromptVersionBody => ({
    type: "chat",
    messages: [{ role: "system", content: "You help {{ customer }}." }, { role: "user", content: user }],
    variables,
  });
  const asDefault = (name: string) => ({ name, type: "string", required: true });
  const age = { name: "age", type: "number" as const, required: false, default: 30 };
  const customer = { name: "customer", type: "enum" as const, options: ["ann", "bo"], description: "who asks" };

  it.each([
    ["text, nothing described", text("Hello {{customer}}"), [asDefault("customer")]],
    ["text, nothing described (an empty contract)", text("Hello {{customer}}", []), [asDefault("customer")]],
    ["text, some described", text("{{ customer }} is {{ age }}", [age]), [age, asDefault("customer")]],
    ["text, all described", text("{{ customer }} is {{ age }}", [customer, age]), [customer, age]],
    ["text without variables", text("Hello"), []],
    ["text, described but unused: kept, as compile asks for it", text("Hello", [age]), [age]],
    ["chat, nothing described", chat("{{ question }}"), [asDefault("customer"), asDefault("question")]],
    ["chat, some described", chat("{{ question }}", [customer]), [customer, asDefault("question")]],
    ["chat, all described", chat("{{ age }}", [age, customer]), [age, customer]],
  ])("%s", (_case, version, contract) => {
    expect(effectiveContract(version)).toEqual(contract);
    // What an answer carries is a contract in force already: the same again.
    expect(effectiveContract({ ...version, variables: contract as PromptVersionBody["variables"] })).toEqual(contract);
  });

  it("reads a version as stored: the other type's field null", () => {
    expect(effectiveContract({ type: "text", template: "Hi {{ x }}", messages: null, variables: [] })).toEqual([asDefault("x")]);
    expect(effectiveContract({ type: "chat", template: null, messages: [{ role: "user", content: "{{ y }}" }] })).toEqual([asDefault("y")]);
  });

  it("is the contract compile checks: a described but unused required variable is still asked for", () => {
    expect(compile(text("Hello", [{ name: "unused", type: "string" }]), {})).toMatchObject({ ok: false, problems: [{ variable: "unused" }] });
  });
});

describe("compile", () => {
  it("fills every variable, spaces inside the braces allowed, and keeps escaped braces", () => {
    expect(compile(text("Hi {{ name }}, you are {{age}}. \\{{ literal }}", [{ name: "age", type: "number" }]), { name: "Ada", age: 36 })).toEqual({
      ok: true,
      text: "Hi Ada, you are 36. {{ literal }}",
    });
  });

  it("reports every offending variable at once, and renders nothing", () => {
    const result = compile(
      text("{{a}} {{b}} {{c}} {{d}} {{e}}", [
        { name: "b", type: "number" },
        { name: "c", type: "enum", options: ["red", "blue"] },
        { name: "d", type: "boolean" },
        { name: "e", type: "string", required: false },
      ]),
      { b: "7", c: "green", d: "yes" },
    );
    expect(result).toEqual({
      ok: false,
      problems: [
        { variable: "b", message: "must be a number" },
        { variable: "c", message: "must be one of 'red', 'blue'" },
        { variable: "d", message: "must be true or false" },
        { variable: "a", message: "is required" },
      ],
      message: "'b' must be a number; 'c' must be one of 'red', 'blue'; 'd' must be true or false; 'a' is required",
    });
  });

  it("uses defaults, renders an optional variable without value as nothing, ignores unknown values, never escapes HTML", () => {
    const version = text("<b>{{ greeting }}</b> {{ name }}{{ suffix }} {{ data }}", [
      { name: "greeting", type: "string", default: "Hello" },
      { name: "suffix", type: "string", required: false },
      { name: "data", type: "json" },
    ]);
    expect(compile(version, { name: "<Ada & co>", data: { tags: ["a", "b"] }, extra: "ignored" })).toEqual({
      ok: true,
      text: '<b>Hello</b> <Ada & co> {"tags":["a","b"]}',
    });
  });

  it("a value given as null counts as missing", () => {
    expect(compile(text("{{ a }}"), { a: null })).toMatchObject({ ok: false, problems: [{ variable: "a", message: "is required" }] });
  });

  it("fills each message of a chat prompt and keeps the roles", () => {
    const version: PromptVersionBody = {
      type: "chat",
      messages: [
        { role: "system", content: "Support for {{ customer }}" },
        { role: "user", content: "{{ question }}" },
      ],
    };
    expect(compile(version, { customer: "Acme", question: "Where is my order?" })).toEqual({
      ok: true,
      messages: [
        { role: "system", content: "Support for Acme" },
        { role: "user", content: "Where is my order?" },
      ],
    });
  });
});

describe("compile's limit on the compiled prompt", () => {
  const refusedFor = (name: string) => ({
    ok: false,
    problems: [{ variable: name, message: COMPILE_MSG.tooLong }],
    message: `'${name}' ${COMPILE_MSG.tooLong}`,
  });

  it("refuses a value repeated past the limit, naming the variable and the limit (200,000 '{{x}}' of 2,000 characters: 400 million)", () => {
    expect(compile(text("{{x}}".repeat(200_000)), { x: "a".repeat(2_000) })).toEqual(refusedFor("x"));
  });

  it("stops where the limit is passed: the whole text is never made, and nothing after it is read", () => {
    // 600 million characters: longer than any string JavaScript can make, so building it first would throw.
    expect(compile(text("{{x}}".repeat(200_000)), { x: "a".repeat(3_000) })).toEqual(refusedFor("x"));
    let laterReads = 0;
    const later = { role: "user" as const, get content() { laterReads += 1; return "read"; } };
    const chat: PromptVersionBody = { type: "chat", messages: [{ role: "user", content: "{{x}}".repeat(COMPILED_TEXT_MAX / 2_000 + 1) }, { type: "placeholder", name: "history" }] };
    expect(compile(chat, { x: "a".repeat(2_000) }, { history: [later] })).toEqual(refusedFor("x"));
    expect(laterReads).toBe(0);
  });

  it("compiles a prompt as long as the largest context windows take (2 million tokens, about 8,000,000 characters)", () => {
    const compiled = compile(text("{{x}}{{x}}"), { x: "a".repeat(4_000_000) });
    expect(compiled.ok && "text" in compiled && compiled.text.length).toBe(8_000_000);
  });

  it("counts every character: exactly the limit compiles, one more is refused; a chat prompt's messages and placeholders count together", () => {
    const half = "a".repeat(COMPILED_TEXT_MAX / 2);
    const exact = compile(text("{{x}}{{x}}"), { x: half });
    expect(exact.ok && "text" in exact && exact.text.length).toBe(COMPILED_TEXT_MAX);
    expect(compile(text("!{{x}}{{x}}"), { x: half })).toEqual(refusedFor("x"));
    const chat: PromptVersionBody = { type: "chat", messages: [{ role: "system", content: "{{x}}" }, { type: "placeholder", name: "history" }] };
    expect(compile(chat, { x: half }, { history: [{ role: "user", content: half }] }).ok).toBe(true);
    expect(compile(chat, { x: half }, { history: [{ role: "user", content: half }, { role: "assistant", content: "!" }] })).toEqual(refusedFor("history"));
  });

  it("a prompt under the limit compiles as before, character for character", () => {
    const template = 'Dear {{ name }},\n\\{{ literal }} {{ 1bad }} {"a": {"b": 1}} {{ unclosed and {{name}}: ünïcödé 👋 {{ data }}';
    expect(compile(text(template, [{ name: "data", type: "json" }]), { name: "Ada", data: { n: [1, "two"] } })).toEqual({
      ok: true,
      text: 'Dear Ada,\n{{ literal }} {{ 1bad }} {"a": {"b": 1}} {{ unclosed and Ada: ünïcödé 👋 {"n":[1,"two"]}',
    });
  });
});

describe("lint", () => {
  it.each<[string, PromptVersionBody, string[]]>([
    ["an empty template", text("   "), ["The template is empty"]],
    ["an unclosed '{{'", text("Hello {{ name"), ["'{{' without a closing '}}' at character 7"]],
    ["a '{{' opened again before closing", text("{{ a {{ b }}"), ["'{{' without a closing '}}' at character 1"]],
    ["a variable opened with one brace", text("Hello { name }} and {{ other }}"), ["'{ name }}' opens with one '{': write '{{ name }}'"]],
    ["an invalid variable name", text("{{ first name }}"), ["'{{ first name }}' is not a valid variable name (letters, digits and _, not starting with a digit)"]],
    ["a chat prompt without messages", { type: "chat", messages: [] }, ["A chat prompt needs at least one message"]],
    ["an empty message", { type: "chat", messages: [{ role: "user", content: " " }] }, ["Message 1 (user) is empty"]],
    ["a default that breaks its type", text("{{ n }}", [{ name: "n", type: "number", default: "ten" }]), ["The default of 'n' must be a number"]],
    ["an enum without options", text("{{ c }}", [{ name: "c", type: "enum" }]), ["'c' is an enum without options"]],
    ["a variable described twice", text("{{ a }}", [{ name: "a", type: "string" }, { name: "a", type: "number" }]), ["'a' is described twice"]],
  ])("error: %s", (_case, draft, errors) => {
    expect(lint(draft).errors).toEqual(errors);
  });

  it("warns (without blocking) about an unused description, a stray '}}' and a very long prompt", () => {
    const result = lint(text(`{{ used }} and a JSON example {"a": {"b": 1}} ${"x".repeat(33_000)}`, [{ name: "unused", type: "string" }]));
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([
      "'}}' without an opening '{{' is kept as text; write '{{ name }}' for a variable",
      "'unused' is described but the template does not use it",
      "The prompt is long: about 8,262 tokens",
    ]);
  });

  it("a clean draft has neither", () => {
    expect(lint(text("Summarise {{ document }} in {{ words }} words.", [{ name: "words", type: "number", default: 50 }]))).toEqual({ errors: [], warnings: [] });
  });
});

describe("saysNothingWrittenYet", () => {
  it("is true for the errors of an empty draft only (a new form shows none of them)", () => {
    const empty = [
      ...lint({ type: "text", template: "" }).errors,
      ...lint({ type: "chat", messages: [] }).errors,
      ...lint({ type: "chat", messages: [{ role: "system", content: "" }] }).errors,
    ];
    expect(empty).toHaveLength(3);
    expect(empty.every(saysNothingWrittenYet)).toBe(true);
    const wrong = lint({ type: "text", template: "Hi {{ name" }).errors;
    expect(wrong.length).toBeGreaterThan(0);
    expect(wrong.some(saysNothingWrittenYet)).toBe(false);
  });
});

describe("message placeholders", () => {
  const chat: PromptVersionBody = {
    type: "chat",
    messages: [
      { role: "system", content: "You help {{ customer }}." },
      { type: "placeholder", name: "history" },
      { role: "user", content: "{{ question }}" },
      { type: "placeholder", name: "history" },
    ],
  };

  it("are listed apart from the variables, each name once, and hold no variables of their own", () => {
    expect(extractPlaceholders(chat)).toEqual(["history"]);
    expect(extractVariables(chat)).toEqual(["customer", "question"]);
    expect(effectiveContract(chat).map((v) => v.name)).toEqual(["customer", "question"]);
    expect(extractPlaceholders({ type: "text", template: "{{ history }}" } as PromptVersionBody)).toEqual([]);
  });

  it("compile puts each given list of messages in place as given, leaves one not given in place, and [] removes it", () => {
    const history = [{ role: "user" as const, content: "Is {{ customer }} here?" }];
    const filled = compile(chat, { customer: "Ada", question: "Why?" }, { history });
    expect(filled).toEqual({
      ok: true,
      messages: [{ role: "system", content: "You help Ada." }, ...history, { role: "user", content: "Why?" }, ...history],
    });
    const left = compile(chat, { customer: "Ada", question: "Why?" });
    expect(left.ok && "messages" in left && unfilledPlaceholders(left.messages)).toEqual(["history"]);
    expect(left.ok && "messages" in left && left.messages[1]).toEqual({ type: "placeholder", name: "history" });
    const emptied = compile(chat, { customer: "Ada", question: "Why?" }, { history: [] });
    expect(emptied.ok && "messages" in emptied && emptied.messages).toEqual([{ role: "system", content: "You help Ada." }, { role: "user", content: "Why?" }]);
  });

  it("lint refuses a name that is a variable (used or described) and a placeholder, and a name outside the variable rule", () => {
    expect(lint(chat).errors).toEqual([]);
    const both: PromptVersionBody = { type: "chat", messages: [{ role: "system", content: "{{ history }}" }, { type: "placeholder", name: "history" }] };
    expect(lint(both).errors).toEqual([PLACEHOLDER_MSG.notUnique(["history"])]);
    const described: PromptVersionBody = { ...chat, variables: [{ name: "history", type: "string", required: false }] };
    expect(lint(described).errors).toContain(PLACEHOLDER_MSG.notUnique(["history"]));
    const badName: PromptVersionBody = { type: "chat", messages: [{ role: "user", content: "Hi" }, { type: "placeholder", name: "2 things" }] };
    expect(lint(badName).errors).toEqual([PLACEHOLDER_MSG.nameInvalid(1, "2 things")]);
  });
});

// Work that grew with the square of the input, counted rather than timed: a search of a list for each
// of its items, and a search of the text to its end for each '{{'. Each count is linear in the input
// now; the old code's was about the square (noted beside each).
describe("work linear in the input", () => {
  /** Runs `work` with Array.prototype.includes counting the items of the lists it searches. */
  const itemsSearched = (work: () => void): number => {
    const includes = Array.prototype.includes;
    let items = 0;
    Array.prototype.includes = function (this: unknown[], ...args: [unknown, number?]) {
      items += this.length;
      return includes.apply(this, args);
    };
    try {
      work();
    } finally {
      Array.prototype.includes = includes;
    }
    return items;
  };
  const names = Array.from({ length: 20_000 }, (_, i) => `v${i}`);
  const template = names.map((name) => `{{ ${name} }}`).join(" ");

  it("extractVariables does not search the names found so far for each variable", () => {
    // Before: 20,000 searches of up to 20,000 names (200 million items).
    let found: string[] = [];
    expect(itemsSearched(() => (found = extractVariables({ type: "text", template })))).toBeLessThan(100_000);
    expect(found).toEqual(names);
  });

  it("effectiveContract does not search the described variables for each variable of the template", () => {
    let nameReads = 0;
    const described = names.slice(0, 10_000).map((name) => ({
      get name() {
        nameReads += 1;
        return name;
      },
      type: "number" as const,
    }));
    const contract = effectiveContract({ type: "text", template, variables: described });
    // Before: each of the 20,000 variables read every described name until a match (150 million reads).
    expect(nameReads).toBeLessThan(100_000);
    expect(contract.map((v) => [v.name, v.type])).toEqual(names.map((name, i) => [name, i < 10_000 ? "number" : "string"]));
  });

  it("lint does not search the used names for each described variable, nor the placeholders for each name", () => {
    const placeholders = names.map((name) => ({ type: "placeholder" as const, name: `p${name}` }));
    const draft: PromptVersionBody = {
      type: "chat",
      messages: [{ role: "user", content: template }, ...placeholders],
      variables: [...names.map((name) => ({ name, type: "string" as const })), { name: "unused", type: "string" }],
    };
    let result: ReturnType<typeof lint> = { errors: [], warnings: [] };
    // Before: 20,000 searches of the 20,000 used names and 20,001 of the 20,000 placeholders (600 million items).
    expect(itemsSearched(() => (result = lint(draft)))).toBeLessThan(100_000);
    expect(result.errors).toEqual([]);
    expect(result.warnings[0]).toBe("'unused' is described but the template does not use it");
  });

  it.each([
    ["'{{' never closed", "{".repeat(100_000)],
    ["'{{' closed only after the next '{{'", `${"{{a".repeat(33_333)}}}`],
  ])("lint reads a 100,000-character text of %s about once, not to its end for each '{{'", (_, draft) => {
    const indexOf = String.prototype.indexOf;
    let read = 0;
    String.prototype.indexOf = function (this: string, search: string, from = 0) {
      const at = indexOf.call(this, search, from);
      read += (at === -1 ? this.length : at + search.length) - from;
      return at;
    };
    let result: ReturnType<typeof lint> = { errors: [], warnings: [] };
    try {
      result = lint(text(draft));
    } finally {
      String.prototype.indexOf = indexOf;
    }
    // Before: each of the ~50,000 '{{' read on to the text's end or its one '}}' (2.5 billion characters).
    expect(read).toBeLessThan(1_000_000);
    expect(result.errors.length).toBe(draft.startsWith("{{a") ? 33_332 : 50_000);
    expect(result.errors[0]).toBe("'{{' without a closing '}}' at character 1");
  });

  it("lint of a text of 400,000 '{' answers its problems instead of overflowing the stack", () => {
    const result = lint({ type: "text", template: "{".repeat(400_000) });
    expect(result.errors.length).toBeGreaterThan(120_000);
  });
});
