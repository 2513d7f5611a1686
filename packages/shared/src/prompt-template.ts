// Prompt templates: `{{ name }}` variables with a typed contract, one compile function and one lint,
// shared by the server, the web's editor and try-it panel, and the typed client (the prompt library
// issue). A value that breaks the contract is an error naming every offending variable: nothing
// renders blank by accident.

/** `{{ name }}`: spaces inside the braces allowed; `\{{` is a literal `{{`. */
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const VARIABLE_TYPES = ["string", "number", "boolean", "enum", "json"] as const;
export type VariableType = (typeof VARIABLE_TYPES)[number];
export const CHAT_ROLES = ["system", "user", "assistant"] as const;
export type ChatRole = (typeof CHAT_ROLES)[number];

/** What the author says of one variable. A variable of the template that is not described is a required string. */
export interface VariableContract {
  name: string;
  type: VariableType;
  /** Default true. */
  required?: boolean;
  default?: unknown;
  description?: string;
  /** For `enum`: the allowed values. */
  options?: string[];
}

export interface ChatMessage {
  role: ChatRole;
  content: string;
}

/**
 * Where a list of messages goes when a chat prompt is used (a conversation's earlier turns, examples),
 * written as Langfuse writes it. Its name follows the variable name rule and is not a variable's.
 */
export interface MessagePlaceholder {
  type: "placeholder";
  name: string;
}

/** One message of a chat version: a role's message, or a placeholder. */
export type PromptMessage = ChatMessage | MessagePlaceholder;

export const isPlaceholder = (message: PromptMessage): message is MessagePlaceholder => "type" in message && message.type === "placeholder";

/** What fills each placeholder by name: a list of messages. */
export type PlaceholderValues = Record<string, readonly ChatMessage[]>;

export type PromptBody = { type: "text"; template: string } | { type: "chat"; messages: PromptMessage[] };
export type PromptVersionBody = PromptBody & { variables?: VariableContract[] };

/** `{ name }}`: a variable opened with one brace. */
const HALF_OPENED = /(?<![{\\])\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** About characters per token: a template over this many "tokens" draws a warning. */
const LONG_TEMPLATE_TOKENS = 8_000;

/**
 * The longest prompt compile makes, in characters: about 2.5 million tokens, room for the largest
 * context windows (2 million tokens, about 8 million characters). A template is short (100,000 characters where it is saved), so only values
 * repeated many times reach it: a 2,000-character value in 200,000 `{{x}}` would be 400 million.
 */
export const COMPILED_TEXT_MAX = 10_000_000;

export const COMPILE_MSG = {
  /** Said of the variable or placeholder whose value passed the limit: `'x' makes the compiled prompt longer than 10,000,000 characters`. */
  tooLong: `makes the compiled prompt longer than ${COMPILED_TEXT_MAX.toLocaleString("en")} characters`,
} as const;

type Part = { text: string } | { variable: string; valid: boolean };

interface Scan {
  parts: Part[];
  /** Problems of the template's syntax, in the order met. */
  problems: string[];
  strayClosings: number;
}

/** Splits a template into text and variables, noting unbalanced braces and invalid names. */
function scan(template: string): Scan {
  const parts: Part[] = [];
  const problems: string[] = [];
  let strayClosings = 0;
  let text = "";
  let i = 0;
  // The first '}}' at or after `closingFrom` (-1: none), kept between '{{': each search starts where the
  // last one did or later, so while it starts no later than the '}}' found, that '}}' is still the first
  // (and after a search found none, none is found later). Searching again for each '{{' read to the end
  // of the text each time: quadratic in a text of '{{{{...'.
  let closingFrom = -1;
  let closing = -1;
  while (i < template.length) {
    if (template.startsWith("\\{{", i)) {
      text += "{{";
      i += 3;
    } else if (template.startsWith("{{", i)) {
      if (closingFrom === -1 || (closing !== -1 && closing < i + 2)) {
        closingFrom = i + 2;
        closing = template.indexOf("}}", closingFrom);
      }
      const end = closing;
      const nextOpen = template.indexOf("{{", i + 2);
      if (end === -1 || (nextOpen !== -1 && nextOpen < end)) {
        problems.push(`'{{' without a closing '}}' at character ${i + 1}`);
        text += "{{";
        i += 2;
        continue;
      }
      const name = template.slice(i + 2, end).trim();
      const valid = VARIABLE_NAME.test(name);
      if (!valid) problems.push(`'{{ ${name} }}' is not a valid variable name (letters, digits and _, not starting with a digit)`);
      if (text) parts.push({ text });
      text = "";
      parts.push({ variable: name, valid });
      i = end + 2;
    } else {
      if (template.startsWith("}}", i)) strayClosings += 1;
      text += template[i];
      i += 1;
    }
  }
  if (text) parts.push({ text });
  return { parts, problems, strayClosings };
}

/** The texts of a body, one per message (a placeholder has none: ''), so an index is the message's. */
const templatesOf = (body: PromptBody): string[] =>
  body.type === "text" ? [body.template] : body.messages.map((m) => (isPlaceholder(m) ? "" : m.content));

/** The placeholder names of a body, in the order they first appear (none for text). */
export function extractPlaceholders(body: { type: PromptBody["type"]; messages?: readonly PromptMessage[] | null }): string[] {
  if (body.type !== "chat") return [];
  return [...new Set((body.messages ?? []).filter(isPlaceholder).map((m) => m.name))];
}

/** The variable names a prompt uses, in the order they first appear (every message, for chat). */
export function extractVariables(body: PromptBody): string[] {
  const names = new Set<string>();
  for (const template of templatesOf(body)) {
    for (const part of scan(template).parts) {
      if ("variable" in part && part.valid) names.add(part.variable);
    }
  }
  return [...names];
}

/** A version as it is stored or answered: the other type's field may be absent or null. */
export interface StoredVersionBody {
  type: PromptBody["type"];
  template?: string | null;
  messages?: readonly PromptMessage[] | null;
  variables?: readonly VariableContract[] | null;
}

/**
 * The contract in force, the one compile checks and every answer carries: the described variables
 * as described (those the template no longer uses too: compile still asks for them), then each
 * undescribed variable of the template as a required string. Applying it twice changes nothing.
 */
export function effectiveContract(version: StoredVersionBody): VariableContract[] {
  const described = [...(version.variables ?? [])];
  const body: PromptBody =
    version.type === "text" ? { type: "text", template: version.template ?? "" } : { type: "chat", messages: [...(version.messages ?? [])] };
  const describedNames = new Set(described.map((v) => v.name));
  const undescribed = extractVariables(body)
    .filter((name) => !describedNames.has(name))
    .map((name): VariableContract => ({ name, type: "string", required: true }));
  return [...described, ...undescribed];
}

/** Why `value` does not fit `contract`, or null when it does. */
function typeProblem(contract: VariableContract, value: unknown): string | null {
  switch (contract.type) {
    case "string":
      return typeof value === "string" ? null : "must be a string";
    case "number":
      return typeof value === "number" && Number.isFinite(value) ? null : "must be a number";
    case "boolean":
      return typeof value === "boolean" ? null : "must be true or false";
    case "enum":
      return typeof value === "string" && (contract.options ?? []).includes(value)
        ? null
        : `must be one of ${(contract.options ?? []).map((o) => `'${o}'`).join(", ") || "its options (none are set)"}`;
    case "json":
      try {
        return JSON.stringify(value) === undefined ? "must be a JSON value" : null;
      } catch {
        return "must be a JSON value";
      }
  }
}

const rendered = (contract: VariableContract, value: unknown): string =>
  contract.type === "json" ? JSON.stringify(value) : String(value);

export interface VariableProblem {
  variable: string;
  message: string;
}

export type CompileResult =
  | { ok: true; text: string }
  | { ok: true; messages: PromptMessage[] }
  | { ok: false; problems: VariableProblem[]; message: string };

/** A compile that fails: every problem, and all of them in one message. */
const refused = (problems: VariableProblem[]): CompileResult => ({
  ok: false,
  problems,
  message: problems.map((p) => `'${p.variable}' ${p.message}`).join("; "),
});

/**
 * Fills the template (or every message) with `values`. A missing required value, a value of the
 * wrong type or an enum value outside its options is an error, reported for every offending variable
 * at once. An optional variable without value or default renders as nothing; values the contract does
 * not know are ignored. No HTML escaping: prompts are text for a model, not markup. Each placeholder
 * given in `placeholders` is replaced by its messages as given (their text is not compiled: a
 * conversation is not a template); one not given stays in place, as Langfuse's SDKs leave it. A
 * prompt longer than COMPILED_TEXT_MAX (every message and placeholder's message together) is an error
 * naming the variable or placeholder whose value passed it.
 */
export function compile(version: PromptVersionBody, values: Record<string, unknown>, placeholders: PlaceholderValues = {}): CompileResult {
  const contract = effectiveContract(version);
  const problems: VariableProblem[] = [];
  const filled = new Map<string, string>();
  for (const variable of contract) {
    const given = Object.hasOwn(values, variable.name) ? values[variable.name] : undefined;
    const value = given ?? variable.default;
    if (value === undefined || value === null) {
      if (variable.required ?? true) problems.push({ variable: variable.name, message: "is required" });
      else filled.set(variable.name, "");
      continue;
    }
    const problem = typeProblem(variable, value);
    if (problem) problems.push({ variable: variable.name, message: problem });
    else filled.set(variable.name, rendered(variable, value));
  }
  if (problems.length) return refused(problems);
  // Counted as it is built, and stopped at the value that passes the limit: the whole text is never
  // made first (hundreds of megabytes for a value repeated many times). The count is checked where a
  // variable or placeholder adds to it; the template's own text is bounded where it is saved.
  let length = 0;
  const tooLong = (name: string) => refused([{ variable: name, message: COMPILE_MSG.tooLong }]);
  /** One template filled, or the name of the variable whose value passed the limit. */
  const fill = (template: string): { text: string } | { passedBy: string } => {
    const pieces: string[] = [];
    for (const part of scan(template).parts) {
      const piece = "text" in part ? part.text : part.valid ? (filled.get(part.variable) ?? "") : `{{ ${part.variable} }}`;
      length += piece.length;
      if ("variable" in part && part.valid && length > COMPILED_TEXT_MAX) return { passedBy: part.variable };
      pieces.push(piece);
    }
    return { text: pieces.join("") };
  };
  if (version.type === "text") {
    const filledTemplate = fill(version.template);
    return "passedBy" in filledTemplate ? tooLong(filledTemplate.passedBy) : { ok: true, text: filledTemplate.text };
  }
  const messages: PromptMessage[] = [];
  for (const message of version.messages) {
    if (!isPlaceholder(message)) {
      const content = fill(message.content);
      if ("passedBy" in content) return tooLong(content.passedBy);
      messages.push({ role: message.role, content: content.text });
      continue;
    }
    const given = Object.hasOwn(placeholders, message.name) ? placeholders[message.name] : undefined;
    if (!given) {
      messages.push({ type: "placeholder", name: message.name });
      continue;
    }
    for (const { role, content } of given) {
      length += content.length;
      if (length > COMPILED_TEXT_MAX) return tooLong(message.name);
      messages.push({ role, content });
    }
  }
  return { ok: true, messages };
}

/** The names a version uses both as a variable (in a text or described) and as a placeholder: none may be. */
export function namesOfBothKinds(version: PromptVersionBody): string[] {
  const placeholders = new Set(extractPlaceholders(version));
  const variables = [...extractVariables(version), ...(version.variables ?? []).map((v) => v.name)];
  return [...new Set(variables)].filter((name) => placeholders.has(name));
}

/** The names of the placeholders compile left in place (none given for them). */
export const unfilledPlaceholders = (messages: readonly PromptMessage[]): string[] => [...new Set(messages.filter(isPlaceholder).map((m) => m.name))];

export interface LintResult {
  /** Block the save. */
  errors: string[];
  /** Shown, but the save goes through. */
  warnings: string[];
}

/** The lint's errors that only say nothing is written yet. */
const LINT_EMPTY = {
  noMessages: "A chat prompt needs at least one message",
  template: "The template is empty",
  message: (index: number, role: string) => `Message ${index + 1} (${role}) is empty`,
} as const;
export const PLACEHOLDER_MSG = {
  nameInvalid: (index: number, name: string) =>
    `Message ${index + 1}: '${name}' is not a valid placeholder name (letters, digits and _, not starting with a digit)`,
  /** Langfuse's words for the same refusal, so a client that looks for them finds them. */
  notUnique: (names: string[]) => `Names of variables and placeholders must be unique, the following are not: ${names.join(", ")}`,
} as const;
const EMPTY_MESSAGE = /^Message \d+ \(\w+\) is empty$/;

/** Whether a lint error only says that nothing is written yet (a new form nobody has typed in shows none). */
export const saysNothingWrittenYet = (error: string) => error === LINT_EMPTY.noMessages || error === LINT_EMPTY.template || EMPTY_MESSAGE.test(error);

/** Checks a draft before it is saved (on the server) and while it is written (in the editor). */
export function lint(draft: PromptVersionBody): LintResult {
  const errors: string[] = [];
  const warnings: string[] = [];
  if (draft.type === "chat" && draft.messages.length === 0) errors.push(LINT_EMPTY.noMessages);
  if (draft.type === "text" && !draft.template.trim()) errors.push(LINT_EMPTY.template);
  if (draft.type === "chat") {
    draft.messages.forEach((message, index) => {
      if (isPlaceholder(message)) {
        if (!VARIABLE_NAME.test(message.name)) errors.push(PLACEHOLDER_MSG.nameInvalid(index, message.name));
      } else if (!message.content.trim()) errors.push(LINT_EMPTY.message(index, message.role));
    });
  }
  let strayClosings = 0;
  templatesOf(draft).forEach((template, index) => {
    const found = scan(template);
    const where = draft.type === "chat" ? `Message ${index + 1}: ` : "";
    // One at a time: spread into push, some 120,000 problems (a pasted text of '{' alone) overflowed the stack.
    for (const problem of found.problems) errors.push(`${where}${problem}`);
    // A '}}' closing what opened with one '{' is a variable with a missing brace; other stray '}}'
    // (nested JSON such as {"a": {"b": 1}}) are text, with a warning.
    for (const match of template.matchAll(HALF_OPENED)) {
      errors.push(`${where}'${match[0]}' opens with one '{': write '{{ ${match[1]} }}'`);
      strayClosings -= 1;
    }
    strayClosings += found.strayClosings;
  });
  if (strayClosings > 0) warnings.push("'}}' without an opening '{{' is kept as text; write '{{ name }}' for a variable");

  const used = new Set(extractVariables(draft));
  const both = namesOfBothKinds(draft);
  if (both.length) errors.push(PLACEHOLDER_MSG.notUnique(both));
  const seen = new Set<string>();
  for (const variable of draft.variables ?? []) {
    if (!VARIABLE_NAME.test(variable.name)) errors.push(`'${variable.name}' is not a valid variable name`);
    if (seen.has(variable.name)) errors.push(`'${variable.name}' is described twice`);
    seen.add(variable.name);
    if (variable.type === "enum" && !(variable.options ?? []).length) errors.push(`'${variable.name}' is an enum without options`);
    if (variable.default !== undefined && variable.default !== null) {
      const problem = typeProblem(variable, variable.default);
      if (problem) errors.push(`The default of '${variable.name}' ${problem}`);
    }
    if (!used.has(variable.name)) warnings.push(`'${variable.name}' is described but the template does not use it`);
  }
  const length = templatesOf(draft).reduce((sum, template) => sum + template.length, 0);
  if (length / 4 > LONG_TEMPLATE_TOKENS) warnings.push(`The prompt is long: about ${Math.round(length / 4).toLocaleString("en")} tokens`);
  return { errors, warnings };
}
