// Regular expressions a team writes (a `regex` assertion, a JSON Schema's `pattern` and
// `patternProperties`) run on model and production output that whoever holds a key can shape. A pattern
// that backtracks catastrophically takes twice as long per character of such output, and would hold the
// whole process for hours; so they run under a time limit, in a separate V8 context whose watchdog stops
// them (a termination no code inside can catch).
import { Script, createContext } from "node:vm";

/** How long one regular expression, or one value's check against a schema's patterns, may run. */
export const REGEX_TIMEOUT_MS = 250;

/** The one context and script every limited run goes through (a context of its own per run would cost a millisecond or two each). */
const limitedContext = createContext({ work: () => undefined });
const runWork = new Script("work()");

/**
 * `work`'s result, or `{ ok: false }` when it ran longer than REGEX_TIMEOUT_MS and was stopped. `work`
 * is synchronous; what it throws is thrown on. Each run starts a watchdog thread (a tenth of a
 * millisecond), so callers limit a whole check at once rather than each of its matches.
 */
export function withinRegexTimeLimit<T>(work: () => T): { ok: true; value: T } | { ok: false } {
  Object.assign(limitedContext, { work });
  try {
    return { ok: true, value: runWork.runInContext(limitedContext, { timeout: REGEX_TIMEOUT_MS }) as T };
  } catch (error) {
    if ((error as { code?: unknown }).code === "ERR_SCRIPT_EXECUTION_TIMEOUT") return { ok: false };
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
