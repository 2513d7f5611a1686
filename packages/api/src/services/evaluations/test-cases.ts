// A prompt's test cases: variable values, an optional expected output and assertions. Written by hand
// or imported (CSV, JSON Lines) all at once or not at all; every write under the prompt's row lock
// (an archived prompt refuses it, and two writers cannot pass the prompt's limit together) and audited.
//
// Rules where the issue is silent:
// - Variables are checked against the prompt's latest version: a name it does not use is refused
//   (a typo would otherwise run as a missing value); values are not required nor type-checked on a
//   hand-written case, since other versions may want other ones (the evaluation's compile says so).
// - CSV cells are text: a variable the latest version declares as number, boolean or JSON is read as
//   one (a cell that is not one is a bad row); an empty cell leaves the variable out.
// - JSON Lines: a line `{ "variables": {...}, "expected"?, "assertions"? }` (its only keys), or a flat
//   object of variables.
// - A judged assertion's connection must be the organization's and open to the team, and offer its model.
import { z } from "zod";
import { Prisma, type Db, type DbOrTx, type DbTransaction } from "@promptly/db";
import {
  EVALUATION_MSG, IMPORT_CSV_COLUMNS_MAX, TEST_CASES_MAX, effectiveContract, extractPlaceholders, parseCsv, testCaseInput, type Assertion, type PromptMessage, type VariableContract,
} from "@promptly/shared";
import { fail } from "../../errors.ts";
import { authorOf } from "../access/actor.ts";
import type { AuditContext } from "../insight/audit.ts";
import type { LoadedPrompt } from "../prompts/loaded-prompt.ts";
import { auditPrompt } from "../prompts/prompt-changes.ts";
import { archivedRefusal, lockLivePrompt, refuse } from "../prompts/prompt-rules.ts";
import { allowModel, allowTeamConnection, findRunConnection } from "../models/connections.ts";

export const testCaseItem = z.object({
  id: z.string(),
  promptId: z.string(),
  variables: z.record(z.string(), z.unknown()),
  placeholders: z.record(z.string(), z.array(z.object({ role: z.enum(["system", "user", "assistant"]), content: z.string() }))),
  expected: z.string().nullable(),
  assertions: z.array(z.object({ type: z.string(), value: z.string().optional(), connectionId: z.string().optional(), model: z.string().optional() })),
  createdAt: z.date(),
  updatedAt: z.date(),
});
export type TestCaseItem = z.infer<typeof testCaseItem>;

const caseSelect = { id: true, promptId: true, variables: true, placeholders: true, expected: true, assertions: true, createdAt: true, updatedAt: true } as const;
const toItem = (row: Prisma.TestCaseGetPayload<{ select: typeof caseSelect }>) => testCaseItem.parse(row);

/** A case's content as the shared input gives it. */
type CaseContent = Pick<z.output<typeof testCaseInput>, "variables" | "placeholders" | "expected" | "assertions">;

/** How many bad lines an import's refusal lists before it counts the rest. */
const IMPORT_LINES_LISTED = 10;

/** The prompt a test case belongs to; null when there is no such case. */
export async function findTestCasePromptId(db: DbOrTx, id: string): Promise<string | null> {
  const row = await db.testCase.findUnique({ where: { id }, select: { promptId: true } });
  return row?.promptId ?? null;
}

// A prompt's list of cases is a preview of each: read whole, 2,000 cases of 100,000 characters of
// values and of expected output and 20 long assertions each would pass the server's heap. The cut is
// made in the query, so the whole texts never reach the server; one case is read whole by getTestCase.
/** How many of a case's variables its preview shows (its variableCount says how many it has). */
const PREVIEW_VARIABLES = 20;
/** How much of a variable's value, or of the expected output, a preview shows. */
const PREVIEW_TEXT = 200;
/** How much of a variable's name, or of an assertion's value, a preview shows: a chip clips its value shorter, with its own ellipsis. */
const PREVIEW_LABEL = 100;

export const testCasePreview = z.object({
  id: z.string(),
  promptId: z.string(),
  /**
   * The first PREVIEW_VARIABLES in the latest version's order (any it does not name after, by name): each
   * name's first PREVIEW_LABEL characters (nameCut: it has more), its value as text (JSON for one that is
   * not a string), its first PREVIEW_TEXT characters (cut: it has more).
   */
  variables: z.array(z.object({ name: z.string(), nameCut: z.boolean(), value: z.string(), cut: z.boolean() })),
  variableCount: z.number(),
  expected: z.object({ text: z.string(), cut: z.boolean() }).nullable(),
  /** Each assertion's kind, its value's first PREVIEW_LABEL characters and its judge's model. */
  assertions: z.array(z.object({ type: z.string(), value: z.string().optional(), model: z.string().optional() })),
  createdAt: z.date(),
  updatedAt: z.date(),
});
type TestCasePreview = z.infer<typeof testCasePreview>;

/**
 * The variables shown of a case (or of an evaluation's item, which holds its case's values): the template's own
 * first, in its order, then any it does not name, by name (code point, as every server sorts them): a case keeps
 * the values of variables older versions used, which must not push out the ones it runs with.
 */
export async function variableOrder(db: DbOrTx, promptId: string): Promise<string[]> {
  return (await latestContract(db, promptId)).contract.map((variable) => variable.name);
}

/**
 * A jsonb column of variables previewed in the query (the listing of cases and the evaluation's previews alike):
 * the first PREVIEW_VARIABLES in `order` (variableOrder), each name's first PREVIEW_LABEL characters (nameCut: it has
 * more), its value as text (JSON for one that is not a string), its first `textMax` characters (cut: it has more).
 * Whether a text is cut is asked of its first N + 1 characters: the whole one's length would read (and decompress) it.
 */
export const variablesPreview = (variables: Prisma.Sql, order: string[], textMax: number) => Prisma.sql`COALESCE((
        SELECT jsonb_agg(jsonb_build_object(
                 'name', left(v.key, ${PREVIEW_LABEL}), 'nameCut', length(left(v.key, ${PREVIEW_LABEL + 1})) > ${PREVIEW_LABEL},
                 'value', left(v.text, ${textMax}), 'cut', length(left(v.text, ${textMax + 1})) > ${textMax}) ORDER BY v.n)
        FROM (SELECT key, CASE jsonb_typeof(value) WHEN 'string' THEN value #>> '{}' ELSE value::text END AS text,
                     row_number() OVER (ORDER BY array_position(${order}::text[], key) NULLS LAST, key COLLATE "C") AS n
              FROM jsonb_each(${variables}) ORDER BY n LIMIT ${PREVIEW_VARIABLES}) v
      ), '[]'::jsonb)`;

/** The prompt's cases, oldest first (at most TEST_CASES_MAX), each a preview. */
export async function listTestCases(db: DbOrTx, prompt: LoadedPrompt): Promise<TestCasePreview[]> {
  const order = await variableOrder(db, prompt.id);
  const rows = await db.$queryRaw<unknown[]>`
    SELECT t.id::text AS id, t.prompt_id::text AS "promptId", t.created_at AS "createdAt", t.updated_at AS "updatedAt",
      (SELECT count(*)::int FROM jsonb_object_keys(t.variables)) AS "variableCount",
      ${variablesPreview(Prisma.sql`t.variables`, order, PREVIEW_TEXT)} AS variables,
      CASE WHEN t.expected IS NULL THEN NULL
           ELSE jsonb_build_object('text', left(t.expected, ${PREVIEW_TEXT}), 'cut', length(left(t.expected, ${PREVIEW_TEXT + 1})) > ${PREVIEW_TEXT}) END AS expected,
      COALESCE((
        SELECT jsonb_agg(jsonb_strip_nulls(jsonb_build_object('type', a.value->>'type', 'value', left(a.value->>'value', ${PREVIEW_LABEL}), 'model', a.value->>'model')) ORDER BY a.n)
        FROM jsonb_array_elements(t.assertions) WITH ORDINALITY AS a(value, n)
      ), '[]'::jsonb) AS assertions
    FROM test_cases t
    WHERE t.prompt_id = ${prompt.id}::uuid
    ORDER BY t.created_at, t.id`;
  return rows.map((row) => testCasePreview.parse(row));
}

/** One case of the prompt, whole (a case of another prompt is not found). */
export async function getTestCase(db: DbOrTx, prompt: LoadedPrompt, id: string): Promise<TestCaseItem> {
  const row = await db.testCase.findFirst({ where: { id, promptId: prompt.id }, select: caseSelect });
  if (!row) return fail("NOT_FOUND", EVALUATION_MSG.testCaseNotFound);
  return toItem(row);
}

/** The latest version's number, its variables' contract and its placeholders. */
async function latestContract(db: DbOrTx, promptId: string): Promise<{ version: number; contract: VariableContract[]; placeholders: string[] }> {
  const [row] = await db.$queryRaw<{ version: number; type: "text" | "chat"; template: string | null; messages: PromptMessage[] | null; variables: VariableContract[] }[]>`
    SELECT v.version, v.type::text AS type, v.template, v.messages, v.variables
    FROM prompts p JOIN prompt_versions v ON v.prompt_id = p.id AND v.version = p.latest_version
    WHERE p.id = ${promptId}::uuid`;
  return row ? { version: row.version, contract: effectiveContract(row), placeholders: extractPlaceholders(row) } : { version: 0, contract: [], placeholders: [] };
}

/** Why the placeholders filled are not the latest version's, or null. */
function unknownPlaceholders(placeholders: Record<string, unknown>, latest: { version: number; placeholders: string[] }): string | null {
  const unknown = Object.keys(placeholders).filter((name) => !latest.placeholders.includes(name));
  return unknown.length ? EVALUATION_MSG.unknownPlaceholders(unknown, latest.version, latest.placeholders) : null;
}

/** Why the variables do not fit the latest version's names, or null. */
function unknownVariables(variables: Record<string, unknown>, latest: { version: number; contract: VariableContract[] }): string | null {
  const known = latest.contract.map((variable) => variable.name);
  const unknown = Object.keys(variables).filter((name) => !known.includes(name));
  return unknown.length ? EVALUATION_MSG.unknownVariables(unknown, latest.version, known) : null;
}

/** Why a judged assertion's connection or model cannot judge for this prompt, or null. Each connection read once. */
export async function judgeProblem(db: DbOrTx, prompt: LoadedPrompt, assertions: Assertion[], seen = new Map<string, string | null>()): Promise<string | null> {
  for (const assertion of assertions) {
    if (assertion.type !== "judge" || !assertion.connectionId || !assertion.model) continue;
    const key = `${assertion.connectionId}\u0000${assertion.model}`;
    if (!seen.has(key)) {
      const row = await findRunConnection(db, assertion.connectionId);
      try {
        allowTeamConnection(row, prompt);
        allowModel(row, assertion.model);
        seen.set(key, null);
      } catch (error) {
        seen.set(key, (error as Error).message);
      }
    }
    const problem = seen.get(key);
    if (problem) return problem;
  }
  return null;
}

const caseData = (content: CaseContent) => ({
  variables: content.variables as Prisma.InputJsonObject,
  placeholders: content.placeholders as unknown as Prisma.InputJsonObject,
  expected: content.expected ?? null,
  assertions: content.assertions as unknown as Prisma.InputJsonArray,
});

/** Locks the prompt's row (refusing an archived one) and refuses more cases than the prompt may have. */
async function lockWithRoom(tx: DbTransaction, prompt: LoadedPrompt, adding: number): Promise<void> {
  await lockLivePrompt(tx, prompt.id);
  if (adding === 0) return;
  const count = await tx.testCase.count({ where: { promptId: prompt.id } });
  if (count + adding > TEST_CASES_MAX) {
    fail("STATE_CONFLICT", adding === 1 ? EVALUATION_MSG.tooManyTestCases : EVALUATION_MSG.importTooMany(adding, Math.max(0, TEST_CASES_MAX - count)), "TOO_MANY_TEST_CASES");
  }
}

/** Checks a hand-written case's variables and judges before any write. */
async function checkContent(db: DbOrTx, prompt: LoadedPrompt, content: CaseContent) {
  const latest = await latestContract(db, prompt.id);
  const variables = unknownVariables(content.variables, latest);
  if (variables) fail("INVALID", variables, "UNKNOWN_VARIABLE");
  const placeholders = unknownPlaceholders(content.placeholders, latest);
  if (placeholders) fail("INVALID", placeholders, "UNKNOWN_PLACEHOLDER");
  const judge = await judgeProblem(db, prompt, content.assertions);
  if (judge) fail("INVALID", judge, "JUDGE_CONNECTION");
}

export async function createTestCase(db: Db, prompt: LoadedPrompt, content: CaseContent, context: AuditContext): Promise<TestCaseItem> {
  refuse(archivedRefusal(prompt.archived));
  await checkContent(db, prompt, content);
  return db.$transaction(async (tx) => {
    await lockWithRoom(tx, prompt, 1);
    const row = await tx.testCase.create({ data: { promptId: prompt.id, createdById: authorOf(context.actor), ...caseData(content) }, select: caseSelect });
    await auditPrompt(tx, context, prompt, "prompt.test_case.create", { after: { testCaseId: row.id } });
    return toItem(row);
  });
}

export async function updateTestCase(db: Db, prompt: LoadedPrompt, id: string, content: CaseContent, context: AuditContext): Promise<TestCaseItem> {
  refuse(archivedRefusal(prompt.archived));
  await checkContent(db, prompt, content);
  return db.$transaction(async (tx) => {
    await lockWithRoom(tx, prompt, 0);
    const { count } = await tx.testCase.updateMany({ where: { id, promptId: prompt.id }, data: caseData(content) });
    if (count === 0) fail("NOT_FOUND", EVALUATION_MSG.testCaseNotFound);
    await auditPrompt(tx, context, prompt, "prompt.test_case.update", { after: { testCaseId: id } });
    return toItem(await tx.testCase.findUniqueOrThrow({ where: { id }, select: caseSelect }));
  });
}

/** The case goes; evaluations that ran it keep their copy of it. */
export async function deleteTestCase(db: Db, prompt: LoadedPrompt, id: string, context: AuditContext): Promise<{ id: string }> {
  refuse(archivedRefusal(prompt.archived));
  return db.$transaction(async (tx) => {
    await lockWithRoom(tx, prompt, 0);
    const { count } = await tx.testCase.deleteMany({ where: { id, promptId: prompt.id } });
    if (count === 0) fail("NOT_FOUND", EVALUATION_MSG.testCaseNotFound);
    await auditPrompt(tx, context, prompt, "prompt.test_case.delete", { before: { testCaseId: id } });
    return { id };
  });
}

// ---- import ----

/** A row of a file, before its content is checked: its line, and its content or why it has none. */
type ImportRow = { line: number } & ({ content: unknown } | { problem: string });

const ANSWER_COLUMNS = ["expected", "assertions", "placeholders"];

/** A CSV cell as the variable's declared type wants it; undefined: it is not one. */
function cellValue(cell: string, type: VariableContract["type"] | undefined): unknown {
  if (type === "number") {
    const number = Number(cell);
    return cell.trim() !== "" && Number.isFinite(number) ? number : undefined;
  }
  if (type === "boolean") return cell.trim() === "true" ? true : cell.trim() === "false" ? false : undefined;
  if (type === "json") {
    try {
      return JSON.parse(cell) as unknown;
    } catch {
      return undefined;
    }
  }
  return cell;
}

function csvRows(content: string, contract: VariableContract[], placeholderNames: string[]): ImportRow[] {
  const { records, unclosedQuoteLine } = parseCsv(content);
  const [header, ...data] = records;
  if (!header || header.cells.every((cell) => !cell.trim())) return [{ line: 1, problem: EVALUATION_MSG.importCsvHeader }];
  if (header.cells.length > IMPORT_CSV_COLUMNS_MAX) return [{ line: header.line, problem: EVALUATION_MSG.importCsvTooManyColumns(header.cells.length) }];
  const columns = header.cells.map((cell) => cell.trim());
  const seen = new Set<string>();
  const duplicate = columns.find((name) => seen.has(name) || !seen.add(name));
  if (duplicate !== undefined) return [{ line: header.line, problem: EVALUATION_MSG.importCsvDuplicateColumn(duplicate) }];
  if (columns.some((name) => !name)) return [{ line: header.line, problem: EVALUATION_MSG.importCsvHeader }];
  const rows: ImportRow[] = data.map(({ line, cells }) => {
    if (cells.length !== columns.length) return { line, problem: EVALUATION_MSG.importCsvColumns(cells.length, columns.length) };
    const variables: Record<string, unknown> = {};
    const placeholders: Record<string, unknown> = {};
    let expected: string | undefined;
    let assertions: unknown = [];
    for (const [index, name] of columns.entries()) {
      const cell = cells[index]!;
      if (name === "expected") expected = cell === "" ? undefined : cell;
      else if (name === "assertions") {
        if (!cell.trim()) continue;
        try {
          assertions = JSON.parse(cell) as unknown;
        } catch {
          return { line, problem: EVALUATION_MSG.importAssertionsJson };
        }
        if (!Array.isArray(assertions)) return { line, problem: EVALUATION_MSG.importAssertionsJson };
      } else if (placeholderNames.includes(name)) {
        // A placeholder's column: its messages as a JSON array (empty: none given).
        if (!cell.trim()) continue;
        try {
          placeholders[name] = JSON.parse(cell) as unknown;
        } catch {
          return { line, problem: EVALUATION_MSG.importPlaceholderJson(name) };
        }
      } else if (cell !== "") {
        const type = contract.find((variable) => variable.name === name)?.type;
        const value = cellValue(cell, type);
        if (value === undefined) return { line, problem: EVALUATION_MSG.importVariableType(name, type ?? "string") };
        variables[name] = value;
      }
    }
    return { line, content: { variables, placeholders, expected, assertions } };
  });
  if (unclosedQuoteLine !== null) rows.push({ line: unclosedQuoteLine, problem: EVALUATION_MSG.importCsvQuote });
  return rows;
}

function jsonLinesRows(content: string): ImportRow[] {
  const rows: ImportRow[] = [];
  for (const [index, text] of content.replace(/^\uFEFF/, "").split(/\r?\n/).entries()) {
    if (!text.trim()) continue;
    const line = index + 1;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      rows.push({ line, problem: EVALUATION_MSG.importJsonLine });
      continue;
    }
    if (!value || typeof value !== "object" || Array.isArray(value)) {
      rows.push({ line, problem: EVALUATION_MSG.importJsonLine });
      continue;
    }
    const object = value as Record<string, unknown>;
    const structured =
      !!object.variables && typeof object.variables === "object" && !Array.isArray(object.variables) && Object.keys(object).every((key) => key === "variables" || ANSWER_COLUMNS.includes(key));
    rows.push({ line, content: structured ? object : { variables: object } });
  }
  return rows;
}

/** The first problem of a row's content in the shared schema's words, with its field. */
function schemaProblem(error: z.ZodError): string {
  const issue = error.issues[0]!;
  const field = issue.path.filter((part) => part !== "promptId").map(String).join(".");
  return field ? `${field}: ${issue.message}` : issue.message;
}

/**
 * Every case of a CSV or JSON Lines file, added in one transaction, or none: the bad rows are reported
 * by line with their reasons (the first IMPORT_LINES_LISTED, then how many more). Answers how many were added.
 */
export async function importTestCases(db: Db, prompt: LoadedPrompt, format: "csv" | "jsonl", content: string, context: AuditContext): Promise<{ imported: number }> {
  refuse(archivedRefusal(prompt.archived));
  const latest = await latestContract(db, prompt.id);
  const rows = format === "csv" ? csvRows(content, latest.contract, latest.placeholders) : jsonLinesRows(content);
  const problems: { line: number; message: string }[] = [];
  const cases: CaseContent[] = [];
  const judges = new Map<string, string | null>();
  for (const row of rows) {
    if ("problem" in row) {
      problems.push({ line: row.line, message: row.problem });
      continue;
    }
    const parsed = testCaseInput.safeParse({ ...(row.content as object), promptId: prompt.id });
    const problem = !parsed.success
      ? schemaProblem(parsed.error)
      : (unknownVariables(parsed.data.variables, latest) ??
        unknownPlaceholders(parsed.data.placeholders, latest) ??
        (await judgeProblem(db, prompt, parsed.data.assertions, judges)));
    if (problem) problems.push({ line: row.line, message: problem });
    else if (parsed.success) cases.push(parsed.data);
  }
  if (problems.length) {
    const listed = problems.sort((a, b) => a.line - b.line).slice(0, IMPORT_LINES_LISTED).map((problem) => EVALUATION_MSG.importRow(problem.line, problem.message));
    const more = problems.length - listed.length;
    return fail("INVALID", [...listed, ...(more > 0 ? [EVALUATION_MSG.importMoreRows(more)] : [])].join("\n"), "IMPORT_ROWS");
  }
  if (cases.length === 0) return fail("INVALID", EVALUATION_MSG.importEmpty, "IMPORT_EMPTY");
  if (cases.length > TEST_CASES_MAX) return fail("INVALID", EVALUATION_MSG.importTooMany(cases.length, TEST_CASES_MAX), "TOO_MANY_TEST_CASES");
  const createdById = authorOf(context.actor);
  return db.$transaction(async (tx) => {
    await lockWithRoom(tx, prompt, cases.length);
    // The file's order is the list's: each case a millisecond after the one before it.
    const base = context.now.getTime();
    await tx.testCase.createMany({
      data: cases.map((testCase, index) => ({ promptId: prompt.id, createdById, createdAt: new Date(base + index), updatedAt: new Date(base + index), ...caseData(testCase) })),
    });
    await auditPrompt(tx, context, prompt, "prompt.test_case.import", { after: { imported: cases.length, format } });
    return { imported: cases.length };
  });
}
