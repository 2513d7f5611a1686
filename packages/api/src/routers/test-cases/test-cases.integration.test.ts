// A prompt's test cases through tRPC callers: readers list them, editors write them (by hand or by
// importing CSV / JSON Lines: bad rows reported by line and nothing imported), variable names checked
// against the latest version, judged assertions only on the team's connections, the prompt's limit,
// archived prompts refusing writes, and every write audited.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVALUATION_MSG, MSG, PROMPT_MSG, PROVIDER_MSG, TEST_CASES_MAX } from "@promptly/shared";
import { createHarness, outcome as callOutcome, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld, failure, outcome } from "../../../testing/prompts-support.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createLibraryWorld>>;
let team: { id: string };

beforeAll(async () => {
  h = await createHarness();
  world = await createLibraryWorld(h);
  team = await world.team();
});
afterAll(() => h.close());

let counter = 0;
/** A team prompt whose latest version (2) uses `question` (text) and `count` (a number); version 1 used `topic`. */
async function casePrompt() {
  const prompt = await world.callers.editor.prompts.create({
    teamId: team.id, name: `cases-${++counter}`, title: "Cases", visibility: "team", type: "text", template: "Tell me about {{ topic }}.",
  });
  await world.callers.editor.promptVersions.create({
    promptId: prompt.id, type: "text", template: "Answer {{ question }} in {{ count }} words.", variables: [{ name: "count", type: "number", required: true }],
  });
  return prompt;
}

const cases = (promptId: string) => h.database.db.testCase.findMany({ where: { promptId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });

describe("testCases: who may", () => {
  it("readers of the prompt list them; its editors write them; others do not know of it", async () => {
    const prompt = await casePrompt();
    const created = await world.callers.editor.testCases.create({ promptId: prompt.id, variables: { question: "Why?" }, assertions: [{ type: "contains", value: "because" }] });
    const reads: Record<string, string> = {};
    const writes: Record<string, string> = {};
    for (const kind of ["anonymous", "outsider", "orgMember", "viewer", "editor", "admin", "orgAdmin", "superUser"] as const) {
      reads[kind] = await outcome(world.callers[kind].testCases.list({ promptId: prompt.id }));
      expect(await outcome(world.callers[kind].testCases.get({ promptId: prompt.id, id: created.id })), kind).toBe(reads[kind]);
      writes[kind] = await outcome(world.callers[kind].testCases.update({ id: created.id, variables: { question: `By ${kind}?` } }));
    }
    expect(reads).toEqual({ anonymous: "UNAUTHORIZED", outsider: "NOT_FOUND", orgMember: "NOT_FOUND", viewer: "OK", editor: "OK", admin: "OK", orgAdmin: "OK", superUser: "OK" });
    expect(writes).toEqual({ anonymous: "UNAUTHORIZED", outsider: "NOT_FOUND", orgMember: "NOT_FOUND", viewer: "FORBIDDEN", editor: "OK", admin: "OK", orgAdmin: "OK", superUser: "OK" });
    expect(await outcome(world.callers.viewer.testCases.create({ promptId: prompt.id, variables: {} }))).toBe("FORBIDDEN");
    expect(await outcome(world.callers.viewer.testCases.delete({ id: created.id }))).toBe("FORBIDDEN");
    expect(await outcome(world.callers.viewer.testCases.import({ promptId: prompt.id, format: "jsonl", content: '{"question":"x"}' }))).toBe("FORBIDDEN");
  });
});

describe("testCases by hand", () => {
  it("create, list, update and delete a case; each write audited on the prompt", async () => {
    const prompt = await casePrompt();
    const created = await world.callers.editor.testCases.create({
      promptId: prompt.id, variables: { question: "Why is the sky blue?", count: 20 }, expected: "Rayleigh scattering.", assertions: [{ type: "maxLength", value: "200" }, { type: "json" }],
    });
    expect(created).toMatchObject({ promptId: prompt.id, variables: { question: "Why is the sky blue?", count: 20 }, expected: "Rayleigh scattering.", assertions: [{ type: "maxLength", value: "200" }, { type: "json" }] });
    const updated = await world.callers.editor.testCases.update({ id: created.id, variables: { question: "Why is grass green?" }, assertions: [] });
    expect(updated).toMatchObject({ id: created.id, variables: { question: "Why is grass green?" }, expected: null, assertions: [] });
    expect(await world.callers.viewer.testCases.get({ promptId: prompt.id, id: created.id })).toEqual(updated);
    expect(await world.callers.viewer.testCases.list({ promptId: prompt.id })).toEqual([
      { id: created.id, promptId: prompt.id, variables: [{ name: "question", nameCut: false, value: "Why is grass green?", cut: false }], variableCount: 1, expected: null, assertions: [], createdAt: updated.createdAt, updatedAt: updated.updatedAt },
    ]);
    expect(await world.callers.editor.testCases.delete({ id: created.id })).toEqual({ id: created.id });
    expect(await world.callers.viewer.testCases.list({ promptId: prompt.id })).toEqual([]);
    expect(await outcome(world.callers.editor.testCases.delete({ id: created.id }))).toBe("NOT_FOUND");
    const events = await h.database.db.auditEvent.findMany({ where: { promptId: prompt.id, action: { startsWith: "prompt.test_case" } }, orderBy: { createdAt: "asc" } });
    expect(events.map((event) => [event.action, event.actorId])).toEqual([
      ["prompt.test_case.create", world.accounts.editor.id],
      ["prompt.test_case.update", world.accounts.editor.id],
      ["prompt.test_case.delete", world.accounts.editor.id],
    ]);
  });

  it("refuses a variable the latest version does not use, naming the ones it does; values are not required", async () => {
    const prompt = await casePrompt();
    expect(await failure(world.callers.editor.testCases.create({ promptId: prompt.id, variables: { topic: "cats", questoin: "?" } }))).toEqual({
      code: "BAD_REQUEST",
      message: EVALUATION_MSG.unknownVariables(["topic", "questoin"], 2, ["count", "question"]),
    });
    expect(EVALUATION_MSG.unknownVariables(["topic"], 2, ["count", "question"])).toBe("The prompt has no variable 'topic': version 2 uses 'count', 'question'");
    expect(await outcome(world.callers.editor.testCases.create({ promptId: prompt.id, variables: {} }))).toBe("OK");
    expect(await cases(prompt.id)).toHaveLength(1);
  });

  it("refuses a bad assertion with its reason, and a judge on a connection the team cannot use", async () => {
    const prompt = await casePrompt();
    expect(await failure(world.callers.editor.testCases.create({ promptId: prompt.id, assertions: [{ type: "regex", value: "(" }] }))).toMatchObject({
      code: "BAD_REQUEST", message: expect.stringContaining("The regular expression is not valid"),
    });
    expect(await failure(world.callers.editor.testCases.create({ promptId: prompt.id, assertions: [{ type: "maxCost", value: "cheap" }] }))).toMatchObject({
      message: EVALUATION_MSG.assertionNumber("maxCost"),
    });
    expect(await failure(world.callers.editor.testCases.create({ promptId: prompt.id, assertions: [{ type: "judge", value: "Polite?" }] }))).toMatchObject({
      message: EVALUATION_MSG.judgeNeedsConnection,
    });
    const judge = { type: "judge" as const, value: "Polite?", connectionId: "00000000-0000-4000-8000-00000000beef", model: "gpt-4o-mini" };
    expect(await failure(world.callers.editor.testCases.create({ promptId: prompt.id, assertions: [judge] }))).toEqual({ code: "BAD_REQUEST", message: PROVIDER_MSG.notFound });
    const connection = await world.callers.orgAdmin.providers.create({
      organizationId: world.organization.id, kind: "openai", name: `Judge ${counter}`, apiKey: "sk-test-judge-0001", models: ["gpt-4o-mini"],
    });
    expect(await outcome(world.callers.editor.testCases.create({ promptId: prompt.id, assertions: [{ ...judge, connectionId: connection.id }] }))).toBe("OK");
    expect(await failure(world.callers.editor.testCases.create({ promptId: prompt.id, assertions: [{ ...judge, connectionId: connection.id, model: "gpt-5" }] }))).toMatchObject({
      message: expect.stringContaining("gpt-5"),
    });
    expect(await cases(prompt.id)).toHaveLength(1);
  });

  it("refuses control characters PostgreSQL cannot keep (a NUL in a variable, an expected output or an assertion), writing nothing", async () => {
    const prompt = await casePrompt();
    for (const content of [{ variables: { question: "a\u0000b" } }, { expected: "a\u0000b" }, { assertions: [{ type: "contains" as const, value: "a\u0000b" }] }]) {
      expect(await failure(world.callers.editor.testCases.create({ promptId: prompt.id, ...content }))).toMatchObject({ code: "BAD_REQUEST", message: MSG.multilineControlCharacters });
    }
    expect(await failure(world.callers.editor.testCases.import({ promptId: prompt.id, format: "jsonl", content: '{"question":"a\\u0000b"}' }))).toEqual({
      code: "BAD_REQUEST", message: EVALUATION_MSG.importRow(1, `variables: ${MSG.multilineControlCharacters}`),
    });
    expect(await cases(prompt.id)).toEqual([]);
  });

  it("refuses a case whose variables and placeholders take more than 100,000 characters as JSON, by hand or imported, writing nothing", async () => {
    const prompt = await casePrompt();
    const variables = { question: "a".repeat(100_000) };
    const tooLarge = EVALUATION_MSG.valuesTooLarge(JSON.stringify(variables).length + JSON.stringify({}).length);
    expect(await failure(world.callers.editor.testCases.create({ promptId: prompt.id, variables }))).toMatchObject({ code: "BAD_REQUEST", message: tooLarge });
    const created = await world.callers.editor.testCases.create({ promptId: prompt.id, variables: { question: "a".repeat(99_000) } });
    expect(await failure(world.callers.editor.testCases.update({ id: created.id, variables }))).toMatchObject({ code: "BAD_REQUEST", message: tooLarge });
    expect(await failure(world.callers.editor.testCases.import({ promptId: prompt.id, format: "jsonl", content: JSON.stringify({ variables }) }))).toEqual({
      code: "BAD_REQUEST", message: EVALUATION_MSG.importRow(1, `variables: ${tooLarge}`),
    });
    expect((await cases(prompt.id)).map((testCase) => (testCase.variables as { question: string }).question.length)).toEqual([99_000]);
  });

  it("an archived prompt refuses every write, and still lists its cases", async () => {
    const prompt = await casePrompt();
    const created = await world.callers.editor.testCases.create({ promptId: prompt.id, variables: { question: "Still?" } });
    await world.callers.admin.prompts.archive({ id: prompt.id });
    // One at a time: a call started before the previous one is awaited would reject with nobody listening yet.
    for (const call of [
      () => world.callers.editor.testCases.create({ promptId: prompt.id, variables: {} }),
      () => world.callers.editor.testCases.update({ id: created.id, variables: {} }),
      () => world.callers.editor.testCases.delete({ id: created.id }),
      () => world.callers.editor.testCases.import({ promptId: prompt.id, format: "jsonl", content: "{}" }),
    ]) {
      expect(await callOutcome(call(), { reason: true })).toEqual({ code: "CONFLICT", message: PROMPT_MSG.archived, reason: "ARCHIVED" });
    }
    expect(await world.callers.viewer.testCases.list({ promptId: prompt.id })).toHaveLength(1);
  });

  it("keeps to the prompt's limit", async () => {
    const prompt = await casePrompt();
    await h.database.db.testCase.createMany({ data: Array.from({ length: TEST_CASES_MAX - 1 }, () => ({ promptId: prompt.id })) });
    expect(await failure(world.callers.editor.testCases.import({ promptId: prompt.id, format: "jsonl", content: '{"question":"a"}\n{"question":"b"}' }))).toEqual({
      code: "CONFLICT", message: EVALUATION_MSG.importTooMany(2, 1),
    });
    expect(await outcome(world.callers.editor.testCases.create({ promptId: prompt.id }))).toBe("OK");
    expect(await failure(world.callers.editor.testCases.create({ promptId: prompt.id }))).toEqual({ code: "CONFLICT", message: EVALUATION_MSG.tooManyTestCases });
    expect(await h.database.db.testCase.count({ where: { promptId: prompt.id } })).toBe(TEST_CASES_MAX);
  });
});

describe("testCases.list is bounded; testCases.get reads one case whole", () => {
  it("lists many large cases as previews far smaller than the cases; get gives the case whole to its prompt's readers only", async () => {
    const prompt = await casePrompt();
    // Written straight to the table: 40 cases each near the limits (25 variables of 3,900 characters,
    // 100,000 of expected output, 20 assertions of 10,000 characters).
    const variables = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`v${String(i).padStart(2, "0")}`, `${i}`.repeat(3_900)]));
    const expected = "e".repeat(100_000);
    const assertions = Array.from({ length: 20 }, (_, i) => ({ type: "contains", value: `${i % 10}`.repeat(10_000) }));
    const base = Date.now();
    await h.database.db.testCase.createMany({
      data: Array.from({ length: 40 }, (_, i) => ({ promptId: prompt.id, variables, expected, assertions, createdAt: new Date(base + i) })),
    });
    const whole = JSON.stringify(await cases(prompt.id)).length;

    const listed = await world.callers.viewer.testCases.list({ promptId: prompt.id });
    expect(listed).toHaveLength(40);
    expect(JSON.stringify(listed).length).toBeLessThan(whole / 50);
    const [first] = listed;
    expect(first!.variableCount).toBe(25);
    expect(first!.variables.map((variable) => variable.name)).toEqual(Object.keys(variables).slice(0, 20));
    expect(first!.variables[3]).toEqual({ name: "v03", nameCut: false, value: "3".repeat(200), cut: true });
    expect(first!.expected).toEqual({ text: "e".repeat(200), cut: true });
    expect(first!.assertions).toHaveLength(20);
    expect(first!.assertions[1]).toEqual({ type: "contains", value: "1".repeat(100) });

    const got = await world.callers.viewer.testCases.get({ promptId: prompt.id, id: first!.id });
    expect(got).toMatchObject({ id: first!.id, promptId: prompt.id, variables, expected, assertions });

    // The case under another prompt the caller reads, or read by someone who may not read its prompt: not found.
    const other = await casePrompt();
    expect(await failure(world.callers.viewer.testCases.get({ promptId: other.id, id: first!.id }))).toEqual({ code: "NOT_FOUND", message: EVALUATION_MSG.testCaseNotFound });
    for (const kind of ["outsider", "orgMember", "otherOrgMember"] as const) {
      expect(await outcome(world.callers[kind].testCases.get({ promptId: prompt.id, id: first!.id })), kind).toBe("NOT_FOUND");
    }
    expect(await outcome(world.callers.viewer.testCases.get({ promptId: prompt.id, id: "00000000-0000-4000-8000-000000000000" }))).toBe("NOT_FOUND");
  });

  it("shows the latest version's variables first, in its order, then the others by code point, as many as a preview holds", async () => {
    const prompt = await casePrompt();
    // Written straight to the table: values of 25 variables older versions used, whose names sort before
    // the template's, beside the latest version's own (count, which it declares, then question).
    const old = Array.from({ length: 25 }, (_, i) => `a${String(i).padStart(2, "0")}`);
    const variables = { ...Object.fromEntries(old.map((name) => [name, name])), Zed: "Z", count: 3, question: "Why?" };
    await h.database.db.testCase.create({ data: { promptId: prompt.id, variables } });
    const [listed] = await world.callers.viewer.testCases.list({ promptId: prompt.id });
    expect(listed!.variableCount).toBe(28);
    expect(listed!.variables.map((variable) => variable.name)).toEqual(["count", "question", "Zed", ...old.slice(0, 17)]);
    expect(listed!.variables.slice(0, 2)).toEqual([{ name: "count", nameCut: false, value: "3", cut: false }, { name: "question", nameCut: false, value: "Why?", cut: false }]);

    // A latest version with no variables: all of them by name.
    const plain = await world.callers.editor.prompts.create({ teamId: team.id, name: `cases-${++counter}`, title: "Plain", visibility: "team", type: "text", template: "Hello." });
    await h.database.db.testCase.create({ data: { promptId: plain.id, variables } });
    const [plainListed] = await world.callers.viewer.testCases.list({ promptId: plain.id });
    expect(plainListed!.variables.map((variable) => variable.name)).toEqual(["Zed", ...old.slice(0, 19)]);
  });

  it("says when a variable's name is cut: two long names alike in their first 100 characters stay two", async () => {
    const prompt = await casePrompt();
    const stem = "n".repeat(100);
    await h.database.db.testCase.create({ data: { promptId: prompt.id, variables: { [`${stem}_a`]: "first", [`${stem}_b`]: "second", [stem]: "exact" } } });
    const [listed] = await world.callers.viewer.testCases.list({ promptId: prompt.id });
    expect(listed!.variables).toEqual([
      { name: stem, nameCut: false, value: "exact", cut: false },
      { name: stem, nameCut: true, value: "first", cut: false },
      { name: stem, nameCut: true, value: "second", cut: false },
    ]);
  });
});

describe("testCases.import", () => {
  const header = "question,count,expected,assertions";
  const csvLines = (n: number) =>
    Array.from({ length: n }, (_, i) => `"Question ${i + 1}, please",${i + 1},Answer ${i + 1},"[{""type"":""contains"",""value"":""${i + 1}""}]"`);

  it("CSV: 20 cases with one bad row: the row's line and reason, nothing imported; fixed, all 20 in the file's order", async () => {
    const prompt = await casePrompt();
    const rows = csvLines(20);
    const bad = [...rows];
    bad[6] = '"Question 7",seven,Answer 7,';
    expect(await callOutcome(world.callers.editor.testCases.import({ promptId: prompt.id, format: "csv", content: [header, ...bad].join("\r\n") }), { reason: true })).toEqual({
      code: "BAD_REQUEST", message: EVALUATION_MSG.importRow(8, EVALUATION_MSG.importVariableType("count", "number")), reason: "IMPORT_ROWS",
    });
    expect(EVALUATION_MSG.importRow(8, EVALUATION_MSG.importVariableType("count", "number"))).toBe("Line 8: The variable 'count' must be a number");
    expect(await cases(prompt.id)).toEqual([]);

    expect(await world.callers.editor.testCases.import({ promptId: prompt.id, format: "csv", content: [header, ...rows].join("\r\n") + "\r\n" })).toEqual({ imported: 20 });
    const listed = await world.callers.viewer.testCases.list({ promptId: prompt.id });
    expect(listed).toHaveLength(20);
    expect(listed[0]).toMatchObject({
      variables: [{ name: "count", nameCut: false, value: "1", cut: false }, { name: "question", nameCut: false, value: "Question 1, please", cut: false }],
      expected: { text: "Answer 1", cut: false }, assertions: [{ type: "contains", value: "1" }],
    });
    expect(await world.callers.viewer.testCases.get({ promptId: prompt.id, id: listed[0]!.id })).toMatchObject({ variables: { question: "Question 1, please", count: 1 }, expected: "Answer 1" });
    expect(listed.map((item) => item.variables[0]!.value)).toEqual(Array.from({ length: 20 }, (_, i) => String(i + 1)));
    const events = await h.database.db.auditEvent.findMany({ where: { promptId: prompt.id, action: "prompt.test_case.import" } });
    expect(events.map((event) => event.after)).toEqual([{ imported: 20, format: "csv" }]);
  });

  it("CSV: every bad row by its line (a quoted cell over two lines counts both), unknown columns, bad assertions, wrong cell counts", async () => {
    const prompt = await casePrompt();
    const content = [
      "question,expected,assertions",
      '"two\nlines",ok,',
      'fine,,"[{""type"":""regex"",""value"":""(""}]"',
      "short",
      "x,y,not json",
      'ok,,"[{""type"":""equals""}]"',
    ].join("\n");
    const { message } = await failure(world.callers.editor.testCases.import({ promptId: prompt.id, format: "csv", content }));
    const [first, ...rest] = message.split("\n");
    expect(first).toMatch(/^Line 4: assertions\.0\.value: The regular expression is not valid: /);
    expect(rest).toEqual([
      EVALUATION_MSG.importRow(5, EVALUATION_MSG.importCsvColumns(1, 3)),
      EVALUATION_MSG.importRow(6, EVALUATION_MSG.importAssertionsJson),
      EVALUATION_MSG.importRow(7, `assertions.0.value: ${EVALUATION_MSG.assertionValueRequired("equals")}`),
    ]);
    expect((await failure(world.callers.editor.testCases.import({ promptId: prompt.id, format: "csv", content: "topic\nCats" }))).message).toBe(
      EVALUATION_MSG.importRow(2, EVALUATION_MSG.unknownVariables(["topic"], 2, ["count", "question"])),
    );
    expect((await failure(world.callers.editor.testCases.import({ promptId: prompt.id, format: "csv", content: "question,question\na,b" }))).message).toBe(
      EVALUATION_MSG.importRow(1, EVALUATION_MSG.importCsvDuplicateColumn("question")),
    );
    // A header of many columns is refused at once (finding a duplicate among them took seconds, minutes for a few hundred thousand).
    for (const count of [201, 100_000]) {
      const header = Array.from({ length: count }, (_, index) => `column${index}`).join(",");
      expect((await failure(world.callers.editor.testCases.import({ promptId: prompt.id, format: "csv", content: `${header}\n` }))).message).toBe(
        EVALUATION_MSG.importRow(1, EVALUATION_MSG.importCsvTooManyColumns(count)),
      );
    }
    expect((await failure(world.callers.editor.testCases.import({ promptId: prompt.id, format: "csv", content: "question\n" }))).message).toBe(EVALUATION_MSG.importEmpty);
    expect((await failure(world.callers.editor.testCases.import({ promptId: prompt.id, format: "csv", content: 'question\nok\n"open' }))).message).toBe(
      EVALUATION_MSG.importRow(3, EVALUATION_MSG.importCsvQuote),
    );
    expect(await cases(prompt.id)).toEqual([]);
  });

  it("lists the first ten bad lines, then counts the rest", async () => {
    const prompt = await casePrompt();
    const content = Array.from({ length: 13 }, () => "[1]").join("\n");
    const lines = (await failure(world.callers.editor.testCases.import({ promptId: prompt.id, format: "jsonl", content }))).message.split("\n");
    expect(lines).toHaveLength(11);
    expect(lines[0]).toBe(EVALUATION_MSG.importRow(1, EVALUATION_MSG.importJsonLine));
    expect(lines[10]).toBe(EVALUATION_MSG.importMoreRows(3));
  });

  it("JSON Lines: a case per line, structured or a flat object of variables; blank lines skipped; a bad line by its number", async () => {
    const prompt = await casePrompt();
    const good = [
      JSON.stringify({ variables: { question: "Why?", count: 3 }, expected: "Because.", assertions: [{ type: "maxLength", value: "50" }] }),
      "",
      JSON.stringify({ question: "How?", count: 5 }),
    ];
    expect(await failure(world.callers.editor.testCases.import({ promptId: prompt.id, format: "jsonl", content: [...good, "{nope"].join("\n") }))).toEqual({
      code: "BAD_REQUEST", message: EVALUATION_MSG.importRow(4, EVALUATION_MSG.importJsonLine),
    });
    expect(await cases(prompt.id)).toEqual([]);
    expect(await world.callers.editor.testCases.import({ promptId: prompt.id, format: "jsonl", content: good.join("\n") })).toEqual({ imported: 2 });
    expect((await cases(prompt.id)).map(({ variables, expected, assertions }) => ({ variables, expected, assertions }))).toEqual([
      { variables: { question: "Why?", count: 3 }, expected: "Because.", assertions: [{ type: "maxLength", value: "50" }] },
      { variables: { question: "How?", count: 5 }, expected: null, assertions: [] },
    ]);
  });

  it("a case of another prompt is not found through this one's ids", async () => {
    expect(await failure(world.callers.editor.testCases.update({ id: "00000000-0000-4000-8000-000000000000", variables: {} }))).toEqual({ code: "NOT_FOUND", message: MSG.notFound });
  });
});

describe("test cases of a chat prompt with a placeholder", () => {
  async function historyPrompt() {
    return world.callers.editor.prompts.create({
      teamId: team.id, name: `cases-history-${++counter}`, title: "History", visibility: "team", type: "chat",
      messages: [{ role: "system", content: "Answer {{ question }}." }, { type: "placeholder", name: "history" }],
    });
  }
  const history = [{ role: "user" as const, content: "Earlier" }, { role: "assistant" as const, content: "Noted" }];

  it("fills the placeholder with a list of messages by hand, and refuses one the latest version does not have, naming those it has", async () => {
    const prompt = await historyPrompt();
    const created = await world.callers.editor.testCases.create({ promptId: prompt.id, variables: { question: "Why?" }, placeholders: { history } });
    expect(created).toMatchObject({ variables: { question: "Why?" }, placeholders: { history } });
    expect((await world.callers.editor.testCases.get({ promptId: prompt.id, id: created.id })).placeholders).toEqual({ history });
    expect(await failure(world.callers.editor.testCases.create({ promptId: prompt.id, placeholders: { past: [] } }))).toMatchObject({
      code: "BAD_REQUEST", message: EVALUATION_MSG.unknownPlaceholders(["past"], 1, ["history"]),
    });
    expect(await outcome(world.callers.editor.testCases.create({ promptId: prompt.id, placeholders: { history: "Earlier" as never } }))).toBe("BAD_REQUEST");
  });

  it("imports a placeholder's messages from a CSV column of JSON and from JSON Lines' placeholders; a cell that is not JSON by its line", async () => {
    const prompt = await historyPrompt();
    const csv = ["question,history", `Why?,"${JSON.stringify(history).replaceAll('"', '""')}"`, "How?,"].join("\n");
    expect(await world.callers.editor.testCases.import({ promptId: prompt.id, format: "csv", content: csv })).toEqual({ imported: 2 });
    const jsonl = JSON.stringify({ variables: { question: "When?" }, placeholders: { history } });
    expect(await world.callers.editor.testCases.import({ promptId: prompt.id, format: "jsonl", content: jsonl })).toEqual({ imported: 1 });
    expect((await cases(prompt.id)).map((row) => row.placeholders)).toEqual([{ history }, {}, { history }]);
    const bad = await failure(world.callers.editor.testCases.import({ promptId: prompt.id, format: "csv", content: "question,history\nWhy?,not json" }));
    expect(bad.message).toBe(EVALUATION_MSG.importRow(2, EVALUATION_MSG.importPlaceholderJson("history")));
  });

  it("refuses a case whose placeholders make it too large on its placeholders, not its variables, imported from CSV or JSON Lines", async () => {
    const prompt = await historyPrompt();
    const variables = { question: "Why?" };
    const long = [{ role: "user" as const, content: "a".repeat(60_000) }, { role: "assistant" as const, content: "b".repeat(60_000) }];
    const tooLarge = EVALUATION_MSG.valuesTooLarge(JSON.stringify(variables).length + JSON.stringify({ history: long }).length);
    const csv = ["question,history", `Why?,"${JSON.stringify(long).replaceAll('"', '""')}"`].join("\n");
    expect(await failure(world.callers.editor.testCases.import({ promptId: prompt.id, format: "csv", content: csv }))).toEqual({
      code: "BAD_REQUEST", message: EVALUATION_MSG.importRow(2, `placeholders: ${tooLarge}`),
    });
    expect(await failure(world.callers.editor.testCases.import({ promptId: prompt.id, format: "jsonl", content: JSON.stringify({ variables, placeholders: { history: long } }) }))).toEqual({
      code: "BAD_REQUEST", message: EVALUATION_MSG.importRow(1, `placeholders: ${tooLarge}`),
    });
    expect(await cases(prompt.id)).toEqual([]);
  });
});
