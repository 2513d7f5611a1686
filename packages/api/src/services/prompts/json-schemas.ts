// JSON Schemas of a version (its tools' parameters, its response schema): whether each is a valid JSON
// Schema (draft 2020-12, as OpenAI and Anthropic read them), checked at save, and whether a value (an
// answer, a tool call's arguments) matches one. A schema holding regular expressions (`pattern`,
// `patternProperties`) checks a value under their time limit, a whole check at once (one watchdog per
// check, not per string matched) with time in proportion to the value's size, and a check that runs out of
// it is a mismatch saying so.
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { TOOLS_MSG, parsedSize, versionSchemas, type PromptTool, type ResponseFormat } from "@promptly/shared";
import { fail } from "../../errors.ts";
import { SCHEMA_CHECK_SIZE_MAX, schemaCheckTimeoutMs, schemaHasPatterns, schemaPatternsTimedOut, withinRegexTimeLimit } from "./regex-time-limit.ts";

// Unknown keywords are allowed (providers add their own, and the meta-schema allows them); formats are not checked.
// A compiled schema's `$id` is not registered, so one team's schema never answers another's `$ref`, and the
// same `$id` compiles again (two teams' schemas, or one compiled anew after leaving `compiled`).
const newAjv = () => new Ajv2020({ strict: false, validateFormats: false, allErrors: false, addUsedSchema: false });

// An Ajv instance keeps every schema it compiles for as long as it lives (in its cache, and each schema, pattern
// and validator in the scope its generated code shares), whatever `removeSchema` drops: it is replaced after
// COMPILED_MAX compiles, and dropped once `compiled` has let go of its last validator (each holds its Ajv).
let ajv = newAjv();
let compiledByAjv = 0;

/** A compiled validator, and whether its schema holds regular expressions (then it runs under their time limit). */
interface Compiled {
  validate: ValidateFunction;
  hasPatterns: boolean;
}

/** Compiled validators by schema text, so a schema checked many times (an evaluation's cases) is compiled once. */
const compiled = new Map<string, Compiled>();
const COMPILED_MAX = 500;

/** `/properties/city/type` as `.properties.city.type` (after `tools[0].parameters`). */
const pathOf = (pointer: string) =>
  pointer
    .split("/")
    .slice(1)
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`))
    .join("");

/**
 * `schema`'s validator, Ajv keeping no name from it: an `$id` inside a schema is registered by name even
 * with `addUsedSchema` off, and would answer another schema's `$ref` to it.
 */
function compiledAlone(schema: Record<string, unknown>): ValidateFunction {
  const namesBefore = new Set(Object.keys(ajv.refs));
  try {
    return ajv.compile(schema);
  } finally {
    for (const name of Object.keys(ajv.refs)) if (!namesBefore.has(name)) delete ajv.refs[name];
  }
}

function compile(schema: Record<string, unknown>): Compiled {
  const key = JSON.stringify(schema);
  const known = compiled.get(key);
  if (known) return known;
  if (compiledByAjv >= COMPILED_MAX) {
    ajv = newAjv();
    compiledByAjv = 0;
  }
  compiledByAjv += 1;
  const made = { validate: compiledAlone(schema), hasPatterns: schemaHasPatterns(schema) };
  if (compiled.size >= COMPILED_MAX) compiled.delete(compiled.keys().next().value!);
  compiled.set(key, made);
  return made;
}

/** Why `schema` is not a valid JSON Schema, naming the keyword's path under `path`; null when it is one. */
export function jsonSchemaProblem(path: string, schema: Record<string, unknown>): string | null {
  if (!ajv.validateSchema(schema)) {
    const [first] = ajv.errors ?? [];
    const allowed = first?.params && "allowedValues" in first.params ? ` (${(first.params.allowedValues as unknown[]).join(", ")})` : "";
    return TOOLS_MSG.schemaInvalid(path + pathOf(first?.instancePath ?? ""), `${first?.message ?? "invalid"}${allowed}`);
  }
  try {
    compile(schema);
    return null;
  } catch (error) {
    // A reference that leads nowhere, a pattern that is not a regular expression.
    return TOOLS_MSG.schemaInvalid(path, error instanceof Error ? error.message : String(error));
  }
}

/** Refuses a version whose tools or response format hold a schema that is not a valid JSON Schema (INVALID, naming it). */
export function checkVersionSchemas(tools: readonly PromptTool[] | undefined, responseFormat: ResponseFormat | null | undefined) {
  for (const { path, schema } of versionSchemas(tools, responseFormat)) {
    const problem = jsonSchemaProblem(path, schema);
    if (problem) fail("INVALID", problem);
  }
}

/**
 * About how many characters `value` takes as JSON, counted no further than `atMost`: its strings' and
 * keys' characters and one for each value, where a schema check spends its time.
 */
function sizeOf(value: unknown, atMost: number): number {
  const { characters, values } = parsedSize(value, atMost);
  return characters + values;
}

/** Whether `value` matches `schema`: null when it does, else the first reason (`/city must be string`). */
export function schemaMismatch(schema: Record<string, unknown>, value: unknown): string | null {
  let schemaCheck: Compiled;
  try {
    schemaCheck = compile(schema);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  const { validate, hasPatterns } = schemaCheck;
  const checked = hasPatterns
    ? withinRegexTimeLimit(() => validate(value), schemaCheckTimeoutMs(sizeOf(value, SCHEMA_CHECK_SIZE_MAX)))
    : { ok: true as const, value: validate(value) };
  if (!checked.ok) return schemaPatternsTimedOut(checked.timeoutMs, "answer");
  if (checked.value) return null;
  const [first] = validate.errors ?? [];
  return `${first?.instancePath || "the answer"} ${first?.message ?? "does not match"}`.trim();
}
