// Test cases and evaluations: a prompt's cases (variables, an expected output, assertions), run in bulk
// against versions and compared. Input schemas, limits and texts shared by the procedures, the REST
// routes, the command line and the web app.
import { z } from "zod";
import { MSG } from "./messages.ts";
import { idSchema, multilineText } from "./validation.ts";
import { placeholderValuesSchema } from "./runtime-api.ts";

export const ASSERTION_TYPES = [
  "equals", "contains", "notContains", "regex", "json", "jsonSchema", "maxLength", "maxLatencyMs", "maxCost", "judge",
  "toolCalled", "toolArguments", "responseSchema",
] as const;
export type AssertionType = (typeof ASSERTION_TYPES)[number];

const EVALUATION_STATUSES = ["queued", "running", "done", "failed", "cancelled"] as const;
export type EvaluationStatus = (typeof EVALUATION_STATUSES)[number];
export const EVALUATION_ITEM_STATUSES = ["pending", "passed", "failed", "error", "cancelled"] as const;

/** A prompt has at most this many test cases; an import adds at most this many at once. */
export const TEST_CASES_MAX = 2_000;
export const TEST_CASE_ASSERTIONS_MAX = 20;
const TEST_CASE_TEXT_MAX = 100_000;
/** A case's variables and placeholders together, as JSON, in characters: a list of cases loads every case whole. */
const TEST_CASE_VALUES_MAX = 100_000;
/** A CSV import's columns: a prompt's variables (at most 100), its placeholders, and the answer columns. */
export const IMPORT_CSV_COLUMNS_MAX = 200;
const ASSERTION_VALUE_MAX = 10_000;

export const EVALUATION_MSG = {
  testCaseNotFound: "Test case not found",
  evaluationNotFound: "Evaluation not found",
  evaluationItemNotFound: "The evaluation has no such case on that version",
  tooManyTestCases: `A prompt has at most ${TEST_CASES_MAX.toLocaleString("en-US")} test cases`,
  noTestCases: "This prompt has no test cases yet: add some before running an evaluation",
  assertionValueRequired: (type: string) => `The assertion '${type}' needs a value`,
  assertionNumber: (type: string) => `The assertion '${type}' needs a number of at least 0`,
  assertionRegex: (message: string) => `The regular expression is not valid: ${message}`,
  assertionJsonSchema: "The JSON schema is not valid JSON",
  /** A toolArguments assertion's value: which tool, and a JSON Schema of its arguments or the values they hold. */
  assertionToolArguments: 'The assertion \'toolArguments\' needs JSON naming the tool and a schema or values: { "tool": "get_weather", "schema": { … } } or { "tool": "get_weather", "values": { "city": "Oslo" } }',
  assertionToolName: "The assertion 'toolCalled' needs the name of a tool (letters, digits, '_' and '-')",
  judgeNeedsConnection: "A judged assertion needs a connection and a model to judge with",
  tooManyAssertions: `A test case has at most ${TEST_CASE_ASSERTIONS_MAX} assertions`,
  valuesTooLarge: (size: number) =>
    `A test case's variables and placeholders take at most ${TEST_CASE_VALUES_MAX.toLocaleString("en-US")} characters as JSON; these take ${size.toLocaleString("en-US")}`,
  importRow: (line: number, message: string) => `Line ${line}: ${message}`,
  importEmpty: "The file has no test cases",
  /** Several bad rows: the first few, then how many more. */
  importMoreRows: (count: number) => `and ${count} more ${count === 1 ? "line" : "lines"} with problems`,
  importTooMany: (count: number, room: number) => `The file has ${count} test cases; this prompt has room for ${room} more`,
  importCsvHeader: "The first line names the columns: the variables, and optionally expected and assertions",
  importCsvDuplicateColumn: (name: string) => `The column '${name}' appears twice`,
  importCsvTooManyColumns: (count: number) => `The header names ${count.toLocaleString("en-US")} columns; a file has at most ${IMPORT_CSV_COLUMNS_MAX}`,
  importCsvColumns: (count: number, expected: number) => `${count} ${count === 1 ? "cell" : "cells"}, but the header names ${expected} columns`,
  importCsvQuote: "A quoted cell is not closed",
  importAssertionsJson: "The assertions cell is not a JSON array of assertions",
  importJsonLine: "The line is not a JSON object",
  importVariableType: (name: string, type: string) => `The variable '${name}' must be ${type === "json" ? "JSON" : type === "boolean" ? "true or false" : `a ${type}`}`,
  importPlaceholderJson: (name: string) => `The placeholder '${name}' must be a JSON array of messages ({ "role", "content" })`,
  /** A placeholder's messages over a limit (too many, one too long): the limit's own words on the placeholder's field. */
  placeholderLimit: (name: string, message: string) => `The placeholder '${name}': ${message}`,
  unknownPlaceholders: (names: string[], version: number, known: string[]) =>
    `${names.length === 1 ? `The prompt has no placeholder '${names[0]}'` : `The prompt has no placeholders ${names.map((name) => `'${name}'`).join(", ")}`}: version ${version} has ${known.length ? known.map((name) => `'${name}'`).join(", ") : "none"}`,
  unknownVariables: (names: string[], version: number, known: string[]) =>
    `${names.length === 1 ? `The prompt has no variable '${names[0]}'` : `The prompt has no variables ${names.map((name) => `'${name}'`).join(", ")}`}: version ${version} uses ${known.length ? known.map((name) => `'${name}'`).join(", ") : "none"}`,
  notCancellable: "This evaluation has already ended",
  /** Cases that could not run (the provider could not be reached, a case broke the prompt's contract): "1 case could not run", "12 cases could not run". */
  casesCouldNotRun: (count: number) => `${count.toLocaleString("en-US")} ${count === 1 ? "case" : "cases"} could not run`,
  retryStillRunning: "This evaluation is still running: retry its cases in error once it has ended",
  retryNothing: "This evaluation has no cases in error to retry",
  retryCancelled: "This evaluation was cancelled: start a new one instead",
  retryConnectionDeleted: (name: string) => `The connection '${name}' was deleted: start a new evaluation on another connection`,
  passRateWithErrors: (count: number, required: number) =>
    `${count.toLocaleString("en-US")} ${count === 1 ? "case" : "cases"} could not run in the candidate version's latest evaluation; this team requires ${required} % of the cases to pass, and every case to run, before production moves`,
  passRateTooLow: (passRate: number, required: number) =>
    `The candidate version's latest evaluation passes ${passRate} % of its cases; this team requires ${required} % before production moves`,
  notEvaluated: (required: number) => `This team requires an evaluation passing ${required} % of the cases before production moves; the candidate version has none`,
  passRateInvalid: "The required pass rate is a whole number from 0 to 100",
} as const;

/** Network failures as Node names them, each in words for people who do not read error codes. */
const NETWORK_WORDS: [RegExp, (match: string, at: string) => string][] = [
  [/connect ECONNREFUSED ([^\s)]+)/, (_match, at) => `nothing answered at ${at}: the connection was refused`],
  [/getaddrinfo (?:ENOTFOUND|EAI_AGAIN) ([^\s)]+)/, (_match, host) => `no server is known by the name ${host}`],
  [/connect ETIMEDOUT ([^\s)]+)/, (_match, at) => `${at} did not answer in time`],
  [/(?:read |write )?ECONNRESET()/, () => "the connection was cut off"],
];

/** Why a case could not run, with a network failure's code said in words ("connect ECONNREFUSED 127.0.0.1:9": "nothing answered at 127.0.0.1:9: ..."). */
export function caseErrorInWords(error: string): string {
  for (const [pattern, words] of NETWORK_WORDS) if (pattern.test(error)) return error.replace(pattern, words);
  return error;
}

/** `value` as JSON, or undefined when it is not JSON. */
function parsedJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

/**
 * A toolArguments assertion's value: the tool that must have been called, and a JSON Schema its
 * arguments must match or the values they must hold (each named argument equal, others free).
 */
export const toolArgumentsSchema = z.union([
  z.object({ tool: z.string().min(1).max(64), schema: z.record(z.string(), z.unknown()) }).strict(),
  z.object({ tool: z.string().min(1).max(64), values: z.record(z.string(), z.unknown()) }).strict(),
]);

/** One assertion on a case's output. `value`: the text, pattern, schema or number it checks against; a judge's rubric. */
const assertionSchema = z
  .object({
    type: z.enum(ASSERTION_TYPES),
    value: multilineText().max(ASSERTION_VALUE_MAX).optional(),
    /** A judged assertion: the connection and model that judge. */
    connectionId: idSchema.optional(),
    model: z.string().trim().min(1).max(200).optional(),
  })
  .superRefine((assertion, ctx) => {
    const value = assertion.value ?? "";
    // Checked against the version's own response format: no value.
    if (assertion.type === "json" || assertion.type === "responseSchema") return;
    if (!value.trim()) return ctx.addIssue({ code: "custom", path: ["value"], message: EVALUATION_MSG.assertionValueRequired(assertion.type) });
    if (assertion.type === "maxLength" || assertion.type === "maxLatencyMs" || assertion.type === "maxCost") {
      const number = Number(value);
      if (!Number.isFinite(number) || number < 0) ctx.addIssue({ code: "custom", path: ["value"], message: EVALUATION_MSG.assertionNumber(assertion.type) });
    } else if (assertion.type === "regex") {
      try {
        new RegExp(value);
      } catch (error) {
        ctx.addIssue({ code: "custom", path: ["value"], message: EVALUATION_MSG.assertionRegex((error as Error).message) });
      }
    } else if (assertion.type === "jsonSchema") {
      try {
        JSON.parse(value);
      } catch {
        ctx.addIssue({ code: "custom", path: ["value"], message: EVALUATION_MSG.assertionJsonSchema });
      }
    } else if (assertion.type === "toolCalled") {
      if (!/^[a-zA-Z0-9_-]{1,64}$/.test(value.trim())) ctx.addIssue({ code: "custom", path: ["value"], message: EVALUATION_MSG.assertionToolName });
    } else if (assertion.type === "toolArguments") {
      if (!toolArgumentsSchema.safeParse(parsedJson(value)).success) ctx.addIssue({ code: "custom", path: ["value"], message: EVALUATION_MSG.assertionToolArguments });
    } else if (assertion.type === "judge" && (!assertion.connectionId || !assertion.model)) {
      ctx.addIssue({ code: "custom", path: ["connectionId"], message: EVALUATION_MSG.judgeNeedsConnection });
    }
  });
export type Assertion = z.infer<typeof assertionSchema>;

/** A test case's content: variable values, an optional expected output and assertions. */
const testCaseFields = {
  // PostgreSQL's jsonb holds no NUL character, in a value or a name: refused here rather than failing the write.
  variables: z
    .record(z.string(), z.unknown())
    .refine((variables) => !JSON.stringify(variables).includes("\\u0000"), MSG.multilineControlCharacters)
    .default({}),
  /** What fills each of the prompt's placeholders: its list of messages by its name. */
  placeholders: placeholderValuesSchema.default({}),
  expected: multilineText().max(TEST_CASE_TEXT_MAX).optional(),
  assertions: z.array(assertionSchema).max(TEST_CASE_ASSERTIONS_MAX, EVALUATION_MSG.tooManyAssertions).default([]),
};

/**
 * Refuses a case whose variables and placeholders are too large together (an import's rows too, parsed by
 * testCaseInput), on the field of the two that takes the more: where the case is to be made smaller.
 */
function checkValuesSize(content: { variables: Record<string, unknown>; placeholders: Record<string, unknown> }, ctx: z.RefinementCtx) {
  const variables = JSON.stringify(content.variables).length;
  const placeholders = JSON.stringify(content.placeholders).length;
  const size = variables + placeholders;
  if (size > TEST_CASE_VALUES_MAX) ctx.addIssue({ code: "custom", path: [placeholders > variables ? "placeholders" : "variables"], message: EVALUATION_MSG.valuesTooLarge(size) });
}

export const testCaseInput = z.object({ promptId: idSchema, ...testCaseFields }).superRefine(checkValuesSize);
export const updateTestCaseInput = z.object({ id: idSchema, ...testCaseFields }).superRefine(checkValuesSize);
export const testCaseIdInput = z.object({ id: idSchema });
export const listTestCasesInput = z.object({ promptId: idSchema });
export const getTestCaseInput = z.object({ promptId: idSchema, id: idSchema });
/** CSV (a header row naming the variables, plus `expected` and `assertions` columns) or JSON Lines (one case a line). */
export const importTestCasesInput = z.object({
  promptId: idSchema,
  format: z.enum(["csv", "jsonl"]),
  content: z.string().max(5_000_000),
});

/** PostgreSQL's largest int: a version or a position past it would fail in the query, not be refused. */
const INT4_MAX = 2_147_483_647;
/** A version's number. */
const versionNumber = z.number().int().min(1).max(INT4_MAX);
/** A case's place in an evaluation. */
const casePosition = z.number().int().min(0).max(INT4_MAX);

/** Every case against each chosen version, on the version's model or `model` (on `connectionId`, else the team's first connection offering it). */
export const startEvaluationInput = z.object({
  promptId: idSchema,
  versions: z.array(versionNumber).min(1).max(5),
  model: z.string().trim().min(1).max(200).optional(),
  connectionId: idSchema.optional(),
});
export const evaluationIdInput = z.object({ id: idSchema });
export const listEvaluationsInput = z.object({ promptId: idSchema, cursor: z.string().max(500).optional(), limit: z.number().int().min(1).max(100).default(20) });
/** The latest finished evaluation that ran every one of `versions` (a change request: the candidate and production on the same cases). */
export const latestEvaluationInput = z.object({ promptId: idSchema, versions: z.array(versionNumber).min(1).max(5) });
/** A page of the cases (`cursor`: the last position read), so a reader never holds all 10,000 items at once. */
const casePage = { cursor: casePosition.optional(), limit: z.number().int().min(1).max(100).default(50) };
export const evaluationResultsInput = z.object({ id: idSchema, ...casePage });
export const compareEvaluationInput = z.object({ id: idSchema, base: versionNumber, candidate: versionNumber, ...casePage });
/** One item (a case against a version) of an evaluation, whole. */
export const evaluationItemInput = z.object({ id: idSchema, position: casePosition, version: versionNumber });

/** A team's required pass rate: 0-100, or null (off). */
export const requiredPassRateSchema = z.number({ error: EVALUATION_MSG.passRateInvalid }).int(EVALUATION_MSG.passRateInvalid).min(0, EVALUATION_MSG.passRateInvalid).max(100, EVALUATION_MSG.passRateInvalid).nullable();

/**
 * Per version of an evaluation: its cases that passed, failed (an assertion did not hold) and could not
 * run (`errors`: the provider could not be reached, the case broke the prompt's contract); the pass
 * rate (0-100, one decimal) is passed over passed + failed, null while no case was judged; p50
 * latency, tokens and cost.
 */
const evaluationVersionSummary = z.object({
  version: z.number(),
  passed: z.number(),
  failed: z.number(),
  errors: z.number(),
  passRate: z.number().nullable(),
  p50Ms: z.number().nullable(),
  tokens: z.number(),
  cost: z.number().nullable(),
});
export type EvaluationVersionSummary = z.infer<typeof evaluationVersionSummary>;

/**
 * What `evaluations.get` and `GET /api/v1/evaluations/{id}` answer. `done`: cases run and judged
 * (passed or failed); `failed`: of those, the ones whose assertions did not hold; `errors`: cases that
 * could not run, `firstError` the first one's reason; the rest remain (or were cancelled).
 */
export const evaluationSummary = z.object({
  id: z.string(),
  promptId: z.string(),
  status: z.enum(EVALUATION_STATUSES),
  total: z.number(),
  done: z.number(),
  failed: z.number(),
  errors: z.number(),
  firstError: z.string().nullable(),
  versions: z.array(evaluationVersionSummary),
  model: z.string().nullable(),
  connectionName: z.string(),
  createdAt: z.date(),
  finishedAt: z.date().nullable(),
});
export type EvaluationSummary = z.infer<typeof evaluationSummary>;

/** One assertion's verdict on an item's output (the judge's reason with it). */
const assertionResult = z.object({ type: z.string(), value: z.string().optional(), pass: z.boolean(), reason: z.string().optional() });

/**
 * What `GET /api/v1/evaluations/{id}/items` answers: every item (a case against a version) of an
 * evaluation, ordered by version then position, for reports such as the command line's JUnit XML.
 */
export const evaluationItemsAnswer = z.object({
  items: z.array(
    z.object({
      position: z.number(),
      version: z.number(),
      status: z.enum(EVALUATION_ITEM_STATUSES),
      variables: z.record(z.string(), z.unknown()),
      output: z.string().nullable(),
      results: z.array(assertionResult).nullable(),
      error: z.string().nullable(),
      /** The provider's or the network's own words behind `error`. */
      errorDetail: z.string().nullable().optional(),
      latencyMs: z.number().nullable(),
    }),
  ),
});
export type EvaluationItemsAnswer = z.infer<typeof evaluationItemsAnswer>;

/** The summary as the REST API answers it (GET /api/v1/evaluations/{id}): times as ISO 8601 strings. */
export const runtimeEvaluationSummary = evaluationSummary.extend({ createdAt: z.iso.datetime(), finishedAt: z.iso.datetime().nullable() });

/** Assertions one prompt's online evaluation runs on each sampled generation. */
const ONLINE_ASSERTIONS_MAX = 20;
export const ONLINE_EVALUATION_MSG = {
  assertionNameTaken: (name: string) => `Two assertions are named '${name}': each needs a name of its own (it is the score's name)`,
  assertionNameScored: (name: string) => `The prompt already has scores named '${name}': a new assertion needs a name of its own (it is the score's name)`,
  tooManyAssertions: `An online evaluation has at most ${ONLINE_ASSERTIONS_MAX} assertions`,
  judgeModelUnpriced: (model: string) =>
    `The judge's model '${model}' has no price, so the daily cap could not count what judging costs: set its price in the organization's model prices first`,
} as const;

/** An assertion's name: the name of the scores it writes. */
const onlineAssertionName = z.string().trim().min(1).max(100);

/** Each name once (an unnamed assertion, of the input, is given one): a repeat is refused at its own place. */
function namesOnce(list: { name?: string | undefined }[], context: z.RefinementCtx) {
  const seen = new Set<string>();
  list.forEach(({ name }, index) => {
    if (name === undefined) return;
    if (seen.has(name)) context.addIssue({ code: "custom", path: [index, "name"], message: ONLINE_EVALUATION_MSG.assertionNameTaken(name) });
    seen.add(name);
  });
}

const onlineEvaluationFields = {
  enabled: z.boolean(),
  samplePercent: z.number().min(0).max(100),
  dailyCapUsd: z.number().min(0).max(1_000_000),
};

/**
 * A prompt's online evaluation: its assertions (each named: the score it writes) run on `samplePercent`
 * of its generations whose output text is kept, judged ones until the day's judging cost reaches `dailyCapUsd`.
 */
export const onlineEvaluationSettings = z.object({
  ...onlineEvaluationFields,
  assertions: z
    .array(z.object({ name: onlineAssertionName, assertion: assertionSchema }))
    .max(ONLINE_ASSERTIONS_MAX, ONLINE_EVALUATION_MSG.tooManyAssertions)
    .superRefine(namesOnce),
});
export type OnlineEvaluationSettings = z.infer<typeof onlineEvaluationSettings>;
/**
 * Setting it: an assertion keeps the name it is sent with (an existing one its own, so its scores stay one
 * series); one sent without a name is new and is given one that names no other assertion or score of the prompt.
 */
export const setOnlineEvaluationInput = z.object({
  promptId: idSchema,
  ...onlineEvaluationFields,
  assertions: z
    .array(z.object({ name: onlineAssertionName.optional(), assertion: assertionSchema }))
    .max(ONLINE_ASSERTIONS_MAX, ONLINE_EVALUATION_MSG.tooManyAssertions)
    .superRefine(namesOnce),
});
/** The settings (off with no assertions until first set) and today's judging spend. */
export const onlineEvaluationAnswer = onlineEvaluationSettings.extend({ spentTodayUsd: z.number(), evaluatedToday: z.number() });

/**
 * How long a judge's whole answer may take: twice the provider's timeout (the SDK's ends at the answer's
 * headers), so a provider keeping its stream open cannot hold a judgement. A judging job must not expire
 * sooner (the queue's default expiry and the start-up check of EVALUATION_JOB_EXPIRY_SECONDS follow it).
 */
export const judgeAnswerLimitMs = (providerTimeoutMs: number) => 2 * providerTimeoutMs;
