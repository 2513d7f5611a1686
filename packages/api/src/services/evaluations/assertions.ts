// A test case's assertions, checked on one run's output: pure (the judged kind is delegated to an
// injected judge), each verdict with a reason in plain words when it fails.
//
// Rules where the issue is silent:
// - `expected`: shown beside the output for review and given to the judge as the reference answer. A
//   case with no assertions at all is checked as an implicit `equals` against it (else such a case
//   would pass whatever the model said); with any assertion, the assertions alone decide.
// - `equals` compares with the surrounding whitespace of both sides trimmed (a model's trailing
//   newline is no difference a reader sees); `contains`/`notContains` are exact and case-sensitive.
// - `regex`: JavaScript syntax, no flags; run with a time limit (REGEX_TIMEOUT_MS) in a separate V8
//   context, so a catastrophic pattern fails its assertion instead of stalling the worker.
// - `jsonSchema`: the output parsed as JSON and validated by zod's JSON Schema reader
//   (z.fromJSONSchema: draft 2020-12 / draft 7 keywords); a schema it cannot read fails with its reason.
//   zod runs a schema's `pattern`s itself and takes no other regular expression engine, so a schema
//   holding any is checked as a whole under the same time limit, grown with the output's length (a
//   millisecond per 10,000 characters, at most 5 s), and fails when it runs out.
// - `maxLength` counts characters (code points), `maxLatencyMs` the whole answer's time, `maxCost` US
//   dollars; a run whose cost is unknown (no price for the model) fails `maxCost`, saying so.
// - `toolCalled` passes when the model called the named tool (any of its calls); `toolArguments` when
//   one call of its tool has arguments (the model's JSON text) that match its JSON Schema, or that hold
//   each of its values (equal as JSON; other arguments are free).
// - `responseSchema` checks the output against the version's own response format (its JSON Schema, or
//   any JSON object); a version with none, or a text one, fails it, saying so.
import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
import { toolArgumentsSchema, type Assertion, type AssertionType, type ResponseFormat, type ToolCall } from "@promptly/shared";
import { schemaMismatch } from "../prompts/json-schemas.ts";
import { REGEX_TIMEOUT_MS, schemaCheckTimeoutMs, schemaHasPatterns, schemaPatternsTimedOut, withinRegexTimeLimit } from "../prompts/regex-time-limit.ts";
import { answerMatch } from "../runs/runs.ts";

export interface AssertionOutcome {
  type: AssertionType;
  value?: string;
  pass: boolean;
  reason?: string;
}

export interface RunFacts {
  output: string;
  latencyMs: number;
  cost: number | null;
  expected?: string | null;
  /** The tools the model called. */
  toolCalls?: readonly ToolCall[];
  /** The version's response format (null: none). */
  responseFormat?: ResponseFormat | null;
}

/** Why no call of the assertion's tool has arguments that match its schema or hold its values; null when one does. */
function toolArgumentsFailure(value: string, calls: readonly ToolCall[]): string | null {
  const parsed = toolArgumentsSchema.safeParse(parseJson(value).ok ? JSON.parse(value) : undefined);
  if (!parsed.success) return "The assertion is not JSON naming a tool and a schema or values";
  const wanted = parsed.data;
  const ofTool = calls.filter((call) => call.name === wanted.tool);
  if (!ofTool.length) return `The model did not call ${quote(wanted.tool)}${calls.length ? ` (it called ${calls.map((call) => quote(call.name)).join(", ")})` : ""}`;
  const reasons = ofTool.map((call) => {
    const args = parseJson(call.arguments);
    if (!args.ok) return `its arguments are not JSON: ${args.message}`;
    if ("schema" in wanted) {
      const mismatch = schemaMismatch(wanted.schema, args.value);
      return mismatch === null ? null : `its arguments do not match the schema: ${mismatch}`;
    }
    const given = (args.value ?? {}) as Record<string, unknown>;
    const differing = Object.entries(wanted.values).find(([name, expected]) => !isDeepStrictEqual(given[name], expected));
    return differing ? `its argument ${quote(differing[0])} is ${JSON.stringify(given[differing[0]]) ?? "missing"}, not ${JSON.stringify(differing[1])}` : null;
  });
  return reasons.includes(null) ? null : `The model called ${quote(wanted.tool)}, but ${reasons[0]}`;
}

/** judge: runs a rubric against a connection/model and answers pass/fail with a reason; injected so the checker stays pure. */
export type Judge = (assertion: Assertion, facts: RunFacts) => Promise<{ pass: boolean; reason: string }>;

/** How much of a text a reason quotes. */
const QUOTE_MAX = 80;

const quote = (text: string) => JSON.stringify(text.length > QUOTE_MAX ? `${text.slice(0, QUOTE_MAX)}…` : text);
const characters = (text: string) => [...text].length;

function parseJson(output: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(output) };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
}

/** Whether `pattern` matches `output`, within REGEX_TIMEOUT_MS; or why it could not tell. */
function testPattern(pattern: string, output: string): { ok: true; matched: boolean } | { ok: false; reason: string } {
  let regex: RegExp;
  try {
    regex = new RegExp(pattern);
  } catch (error) {
    return { ok: false, reason: `The regular expression is not valid: ${(error as Error).message}` };
  }
  const tested = withinRegexTimeLimit(() => regex.test(output));
  if (tested.ok) return { ok: true, matched: tested.value };
  return { ok: false, reason: `The regular expression took longer than ${REGEX_TIMEOUT_MS} ms on this output and was stopped (it may backtrack catastrophically)` };
}

function checkJsonSchema(schemaText: string, output: string): string | null {
  let schema: unknown;
  try {
    schema = JSON.parse(schemaText);
  } catch {
    return "The JSON schema is not valid JSON";
  }
  let validator: z.ZodType;
  try {
    validator = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (error) {
    return `The JSON schema could not be read: ${(error as Error).message}`;
  }
  const parsed = parseJson(output);
  if (!parsed.ok) return `The output is not JSON: ${parsed.message}`;
  const validate = () => validator.safeParse(parsed.value);
  const checked = schemaHasPatterns(schema) ? withinRegexTimeLimit(validate, schemaCheckTimeoutMs(output.length)) : { ok: true as const, value: validate() };
  if (!checked.ok) return schemaPatternsTimedOut(checked.timeoutMs, "output");
  const result = checked.value;
  if (result.success) return null;
  const issue = result.error.issues[0]!;
  const where = issue.path.length ? `at ${issue.path.map(String).join(".")}` : "at the top level";
  const more = result.error.issues.length > 1 ? ` (and ${result.error.issues.length - 1} more)` : "";
  return `The output does not match the schema ${where}: ${issue.message}${more}`;
}

/** A limit's number (the shared schema checked it on the way in; an old row may not have). */
function limitOf(assertion: Assertion): number | null {
  const limit = Number(assertion.value);
  return assertion.value !== undefined && assertion.value.trim() !== "" && Number.isFinite(limit) ? limit : null;
}

/** The reason `assertion` fails on these facts, or null when it passes. Not for `judge`. */
function failureOf(assertion: Assertion, facts: RunFacts): string | null {
  const value = assertion.value ?? "";
  const { output } = facts;
  switch (assertion.type) {
    case "equals":
      return output.trim() === value.trim() ? null : `The output ${quote(output.trim())} is not ${quote(value.trim())}`;
    case "contains":
      return output.includes(value) ? null : `The output does not contain ${quote(value)}`;
    case "notContains":
      return output.includes(value) ? `The output contains ${quote(value)}` : null;
    case "regex": {
      const tested = testPattern(value, output);
      if (!tested.ok) return tested.reason;
      return tested.matched ? null : `The output does not match /${value}/`;
    }
    case "json": {
      const parsed = parseJson(output);
      return parsed.ok ? null : `The output is not JSON: ${parsed.message}`;
    }
    case "jsonSchema":
      return checkJsonSchema(value, output);
    case "maxLength": {
      const limit = limitOf(assertion);
      if (limit === null) return `The assertion's limit ${quote(value)} is not a number`;
      const length = characters(output);
      return length <= limit ? null : `The output is ${length} characters long, over the limit of ${limit}`;
    }
    case "maxLatencyMs": {
      const limit = limitOf(assertion);
      if (limit === null) return `The assertion's limit ${quote(value)} is not a number`;
      return facts.latencyMs <= limit ? null : `The answer took ${facts.latencyMs} ms, over the limit of ${limit} ms`;
    }
    case "maxCost": {
      const limit = limitOf(assertion);
      if (limit === null) return `The assertion's limit ${quote(value)} is not a number`;
      if (facts.cost === null) return "The run's cost is unknown (the model has no price), so it cannot be held under the limit";
      return facts.cost <= limit ? null : `The run cost $${facts.cost}, over the limit of $${limit}`;
    }
    case "toolCalled": {
      const calls = facts.toolCalls ?? [];
      if (calls.some((call) => call.name === value.trim())) return null;
      return `The model did not call ${quote(value.trim())}${calls.length ? ` (it called ${calls.map((call) => quote(call.name)).join(", ")})` : ""}`;
    }
    case "toolArguments":
      return toolArgumentsFailure(value, facts.toolCalls ?? []);
    case "responseSchema": {
      if (!facts.responseFormat || facts.responseFormat.type === "text") return "The version has no JSON response format to check the output against";
      if (facts.toolCalls?.length) return "The model called a tool instead of answering";
      return answerMatch(facts.responseFormat, output).schemaProblem;
    }
    case "judge":
      throw new Error("a judged assertion is the judge's");
  }
}

async function checkOne(assertion: Assertion, facts: RunFacts, judge: Judge): Promise<AssertionOutcome> {
  const base = { type: assertion.type, ...(assertion.value !== undefined ? { value: assertion.value } : {}) };
  if (assertion.type === "judge") {
    try {
      const verdict = await judge(assertion, facts);
      return { ...base, pass: verdict.pass, reason: verdict.reason };
    } catch (error) {
      return { ...base, pass: false, reason: `The judge could not answer: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
  const reason = failureOf(assertion, facts);
  return reason === null ? { ...base, pass: true } : { ...base, pass: false, reason };
}

/**
 * Each assertion's verdict on a run, in the assertions' order (judged ones run at once). A case with no
 * assertions but an expected output gets one implicit `equals` verdict; with neither, no verdict (it passes).
 */
export async function checkAssertions(assertions: Assertion[], facts: RunFacts, judge: Judge): Promise<AssertionOutcome[]> {
  const checked: Assertion[] = assertions.length === 0 && facts.expected != null ? [{ type: "equals", value: facts.expected }] : assertions;
  return Promise.all(checked.map((assertion) => checkOne(assertion, facts, judge)));
}
