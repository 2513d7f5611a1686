// The one door: whether a caller (a person, a team's API key as keyCaller makes it, or the operator's
// command line as commandLineCaller makes it) may do an action
// of the permission table, on a resource the visibility rule loaded. Every transport asks here, the
// tRPC builders and the REST routes alike, and maps the answer to its own error; a new transport is
// an adapter over this decision, never a copy of a rule.
//
// The order is fixed: first what the caller alone decides, without looking anything up (a read-only
// key never writes, a label-bound key fetches only its labels, a key never moves `production`), so a
// refusal of that kind costs no query and reveals nothing; then the resource: what the caller may not
// see does not exist for them (NOT_FOUND), what they see but may not act on is FORBIDDEN.
import {
  API_KEY_MSG, DENIED_MESSAGES, MSG, PERMISSIONS, PROMPT_MSG, PROTECTED_LABEL, RUNTIME_MSG, can, canOnPrompt, type Access, type Action, type PromptAbility,
  type ApiKeyScope, type PromptAccess, type PromptFacts, type RuntimeSelector,
} from "@promptly/shared";
import { fail } from "../../errors.ts";
import type { Caller } from "./visibility.ts";

/** Allowed, or why not: NOT_FOUND (the caller may not know of it) or FORBIDDEN, with what they are told. */
export type Decision = { ok: true } | { ok: false; code: "NOT_FOUND" | "FORBIDDEN"; message: string };

/** What an action concerns, as far as it is known when the door asks. */
export interface Resource {
  /** The organization or team, as the visibility rule loaded it: null when the caller may not know of it. */
  place?: Access | null;
  /** The prompt, its facts and the caller's access in its team: null when the caller may not see it. */
  prompt?: { facts: PromptFacts; access: PromptAccess } | null;
  /** What a read fetches of a prompt: a label or an explicit version. */
  fetch?: RuntimeSelector;
  /** The label a write moves or removes. */
  label?: string;
}

const ALLOW: Decision = { ok: true };
const forbidden = (message: string): Decision => ({ ok: false, code: "FORBIDDEN", message });
const notFound = (message: string = MSG.notFound): Decision => ({ ok: false, code: "NOT_FOUND", message });

/** What a key may do without the `write` scope: read (a generation's text included, as its team's viewer reads it). */
const KEY_READS: readonly Action[] = ["organization.read", "team.read", "prompt.read", "production.text.read"];

/** The scope a key needs for `action`: the one the permission table names for it (`run` to run a prompt on a model, `delete` to delete one, `ingest` to send generations and scores), `read` to read, `write` for anything else. */
export const keyScopeFor = (action: Action): ApiKeyScope => keyScopeGrant(action) ?? (KEY_READS.includes(action) ? "read" : "write");

/** The key scope that stands in for the roles of `action`, by the permission table. */
const keyScopeGrant = (action: Action): ApiKeyScope | undefined => (PERMISSIONS[action] as { keyScope?: ApiKeyScope }).keyScope;

/** The prompt abilities of canOnPrompt are the table's `prompt.*` actions. */
const PROMPT_ACTIONS: Partial<Record<Action, PromptAbility>> = {
  "prompt.read": "read",
  "prompt.write": "write",
  "prompt.label.protected": "label.protected",
  "prompt.rename": "rename",
  "prompt.archive": "archive",
  "prompt.delete": "delete",
  "prompt.rate": "rate",
  "prompt.run": "run",
};

const PROMPT_DENIED: Partial<Record<Action, string>> = { "prompt.rate": PROMPT_MSG.ownPromptRating };

/** The table's action for a prompt ability. */
export const promptAction = (ability: PromptAbility) => `prompt.${ability}` as Action;

/**
 * The rules of a key that no role expresses, decided from the key and the request alone: the `run`
 * scope to run a prompt, the `delete` scope to delete one, the `write` scope for anything else but
 * reading, a label-bound key's labels (it lists its team's prompts and fetches and runs only those
 * labels, no explicit version, nothing else), and `production`, which no key moves, nor deletes the
 * version it points to (`label` is then `production`: a team setting letting keys move it would be decided here).
 */
function keyRefusal(key: NonNullable<Caller["apiKey"]>, action: Action, resource: Resource): Decision | null {
  const scope = keyScopeFor(action);
  if (scope === "run" && !key.mayRun) return forbidden(RUNTIME_MSG.runScopeNeeded);
  if (scope === "delete" && !key.mayDelete) return forbidden(RUNTIME_MSG.deleteScopeNeeded);
  if (scope === "ingest") return key.mayIngest ? null : forbidden(RUNTIME_MSG.ingestScopeNeeded);
  if (scope === "delete" && resource.label === PROTECTED_LABEL) return forbidden(RUNTIME_MSG.deleteProduction);
  if (scope === "delete" && key.labels) return forbidden(RUNTIME_MSG.labelsOnly(key.labels));
  const writes = scope === "write";
  if (writes && key.teamRole === "viewer") return forbidden(RUNTIME_MSG.readOnlyKey);
  if (writes && resource.label === PROTECTED_LABEL) return forbidden(RUNTIME_MSG.protectedLabel);
  if (key.labels && !writes && action !== "organization.read") {
    const { fetch } = resource;
    if (fetch) return fetch.version === undefined && key.labels.includes(fetch.label) ? null : forbidden(RUNTIME_MSG.labelsOnly(key.labels));
    // A read that names no label (a prompt's page, its history, a team) is refused once the door asks
    // about what it reads, before it says whether that exists; a door that knows the label passes it.
    if (resource.prompt !== undefined || resource.place !== undefined) return forbidden(API_KEY_MSG.labelBound(key.labels));
  }
  return null;
}

/**
 * Whether `caller` may do `action` on `resource`. Without a place or a prompt, only what the caller
 * alone decides is asked (a door asks so before its lookup, then again with what it loaded): a
 * decision on the resource itself needs it.
 */
export function authorize(caller: Caller, action: Action, resource: Resource = {}): Decision {
  if (caller.apiKey) {
    const refusal = keyRefusal(caller.apiKey, action, resource);
    if (refusal) return refusal;
  }
  // The operator on the server may do anything to what exists.
  if (caller.commandLine) return resource.place === null || resource.prompt === null ? notFound() : ALLOW;
  if (resource.prompt !== undefined) {
    const ability = PROMPT_ACTIONS[action];
    if (!ability) throw new Error(`${action} is not an action on a prompt`);
    const { prompt } = resource;
    if (!prompt || !canOnPrompt(prompt.access, prompt.facts, "read")) return notFound();
    // A key holding the scope that stands in for the action's roles (checked above) may, on what it reads.
    if (caller.apiKey && keyScopeGrant(action)) return ALLOW;
    if (!canOnPrompt(prompt.access, prompt.facts, ability)) return forbidden(PROMPT_DENIED[action] ?? MSG.permissionDenied);
    return ALLOW;
  }
  if (resource.place !== undefined) {
    if (!resource.place) return notFound();
    if (!can(resource.place, action)) return forbidden(DENIED_MESSAGES[action] ?? MSG.permissionDenied);
    return ALLOW;
  }
  return ALLOW;
}

/** Throws a refusal as the services' DomainError; `notFoundMessage` is the door's wording for NOT_FOUND. */
export function allowOrFail(decision: Decision, notFoundMessage?: string): void {
  if (!decision.ok) fail(decision.code, decision.code === "NOT_FOUND" ? (notFoundMessage ?? decision.message) : decision.message);
}
