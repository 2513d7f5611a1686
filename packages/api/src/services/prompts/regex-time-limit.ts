// Regular expressions a team writes (a `regex` assertion, a JSON Schema's `pattern` and
// `patternProperties`) run on model and production output that whoever holds a key can shape. A pattern
// that backtracks catastrophically takes twice as long per character of such output, and would hold the
// whole process for hours; so they run under a time limit, in a separate V8 context whose watchdog stops
// them (a termination no code inside can catch).
import { Script, createContext } from "node:vm";

/** How long one regular expression, or a small value's check against a schema's patterns, may run. */
export const REGEX_TIMEOUT_MS = 250;

// A schema check walks the whole value and runs its patterns on every string and key, so a large value
// that backtracks nowhere (a multi-megabyte answer with tens of thousands of checked strings), or a
// garbage collection during its check, could run out of a fixed 250 ms; its time limit grows with its size
// instead, up to a ceiling that still keeps one check from holding the process for long.
/** Characters of a checked value that earn its check one more millisecond. */
const CHARACTERS_PER_EXTRA_MS = 10_000;
/** The longest one value's check against a schema's patterns may run, however large the value. */
const SCHEMA_CHECK_TIMEOUT_MAX_MS = 5_000;
/** The size (characters) past which a value's check gets no more time: measuring need not go further. */
export const SCHEMA_CHECK_SIZE_MAX = (SCHEMA_CHECK_TIMEOUT_MAX_MS - REGEX_TIMEOUT_MS) * CHARACTERS_PER_EXTRA_MS;

/** How long the check of a value `characters` long (its JSON text, or an estimate of it) against a schema's patterns may run. */
export function schemaCheckTimeoutMs(characters: number): number {
  return Math.min(SCHEMA_CHECK_TIMEOUT_MAX_MS, REGEX_TIMEOUT_MS + Math.floor(characters / CHARACTERS_PER_EXTRA_MS));
}

/** A time limit as a reason shows it: `1,250`. */
const formatTimeout = (timeoutMs: number) => timeoutMs.toLocaleString("en-US");

/**
 * Why a value's check against a schema's patterns was stopped, the one text of it: a response format's
 * check says it of the `answer` (within a sentence of its own), an assertion's of the `output` (a reason
 * by itself, so it starts with a capital).
 */
export function schemaPatternsTimedOut(timeoutMs: number, value: "answer" | "output"): string {
  const the = value === "output" ? "The" : "the";
  return `${the} schema's patterns took longer than ${formatTimeout(timeoutMs)} ms on this ${value} and were stopped (one may backtrack catastrophically)`;
}

/** The one context and script every limited run goes through (a context of its own per run would cost a millisecond or two each). */
const limitedContext = createContext({ work: () => undefined });
const runWork = new Script("work()");

/**
 * `work`'s result, or `{ ok: false }` with the limit it ran out of when it ran longer than `timeoutMs` and
 * was stopped. `work` is synchronous; what it throws is thrown on. Each run starts a watchdog thread (a
 * tenth of a millisecond), so callers limit a whole check at once rather than each of its matches.
 */
export function withinRegexTimeLimit<T>(work: () => T, timeoutMs = REGEX_TIMEOUT_MS): { ok: true; value: T } | { ok: false; timeoutMs: number } {
  Object.assign(limitedContext, { work });
  try {
    return { ok: true, value: runWork.runInContext(limitedContext, { timeout: timeoutMs }) as T };
  } catch (error) {
    if ((error as { code?: unknown }).code === "ERR_SCRIPT_EXECUTION_TIMEOUT") return { ok: false, timeoutMs };
    throw error;
  } finally {
    // Not to keep the checked value alive until the next run.
    Object.assign(limitedContext, { work: () => undefined });
  }
}

/**
 * Whether a JSON Schema holds a regular expression anywhere (`pattern`, `patternProperties`), its
 * definitions and unknown keywords included: only those need the time limit. Walked without recursion,
 * as a schema read from a request may nest deeper than the stack.
 */
export function schemaHasPatterns(schema: unknown): boolean {
  const pending: unknown[] = [schema];
  while (pending.length) {
    const node = pending.pop();
    if (node === null || typeof node !== "object") continue;
    for (const [key, value] of Object.entries(node)) {
      if (!Array.isArray(node) && ((key === "pattern" && typeof value === "string") || key === "patternProperties")) return true;
      pending.push(value);
    }
  }
  return false;
}
