// Prompts that include prompts: `@@@langfusePrompt:name=NAME|label=LABEL@@@` or `|version=N`,
// Langfuse's syntax and its parsing rules: the name first, exactly two parts, a tag that does not parse
// is left as plain text. A text prompt's template and each chat message's content may include; only a
// text prompt may be included (its text takes the tag's place). Resolution has a budget: a version
// holds at most INCLUDE_MAX_TAGS tags, its resolved text at most INCLUDE_MAX_RESOLVED_CHARS, and one
// resolution looks up at most INCLUDE_MAX_LOOKUPS different includes.

/** How deep includes go: a chain of at most this many prompts (the root and four levels), as in Langfuse. */
export const INCLUDE_MAX_DEPTH = 5;

/** Include tags one version holds at most, a tag written twice counted twice (in the template, or every message together). */
export const INCLUDE_MAX_TAGS = 20;

/** The most characters a version's resolved text (its template, or every message together) may hold: what one template may hold. */
export const INCLUDE_MAX_RESOLVED_CHARS = 100_000;

/**
 * Different includes (a prompt and a label, or a prompt and a version number) one resolution looks up
 * at most. Each is looked up once however often it is written, so this bounds a resolution's queries
 * where the tags and depth alone allow 20 to the fourth.
 */
export const INCLUDE_MAX_LOOKUPS = 100;

const INCLUDE_TAG = /@@@langfusePrompt:(.*?)@@@/g;

/** One include as written: the prompt's name and the label or version it names. */
export type IncludeRef = { name: string; label: string; version?: undefined } | { name: string; version: number; label?: undefined };

/** An include with the tag's exact text, which resolution replaces. */
export type IncludeTag = IncludeRef & { tag: string };

/** The includes of one text, in order, each tag once; `count` adds each occurrence of a valid tag to its tally. */
function parseIncludes(text: string, count?: Map<string, number>): IncludeTag[] {
  const found = new Map<string, IncludeTag>();
  for (const match of text.matchAll(INCLUDE_TAG)) {
    if (count && found.has(match[0])) {
      count.set(match[0], count.get(match[0])! + 1);
      continue;
    }
    const parts = match[1]!.split("|");
    if (parts.length !== 2 || !parts[0]!.startsWith("name=")) continue;
    const params: Record<string, string | undefined> = {};
    for (const part of parts) {
      const [key, value] = part.split("=");
      params[key!] = value;
    }
    const name = params.name;
    if (!name || found.has(match[0])) continue;
    if (params.version) {
      const version = Number(params.version);
      if (Number.isInteger(version) && version > 0) found.set(match[0], { tag: match[0], name, version });
    } else if (params.label) found.set(match[0], { tag: match[0], name, label: params.label });
    if (count && found.has(match[0])) count.set(match[0], (count.get(match[0]) ?? 0) + 1);
  }
  return [...found.values()];
}

/**
 * A text with the prompts its include tags name renamed (`renames`: old name to new), each tag's label
 * or version kept; a tag that does not parse is left as written.
 */
export function renameIncludes(text: string, renames: ReadonlyMap<string, string>): string {
  return text.replace(INCLUDE_TAG, (tag: string, inner: string) => {
    const [first, ...rest] = inner.split("|");
    const renamed = first?.startsWith("name=") && rest.length === 1 ? renames.get(first.slice("name=".length)) : undefined;
    return renamed === undefined ? tag : `@@@langfusePrompt:name=${renamed}|${rest[0]}@@@`;
  });
}

type IncludingBody = { type: "text"; template: string } | { type: "chat"; messages: readonly ({ content: string } | { type: "placeholder" })[] };

/** The texts that may include: the template, or each message's content (a placeholder has none). */
const bodyTexts = (body: IncludingBody) =>
  body.type === "text" ? [body.template] : body.messages.flatMap((message) => ("content" in message ? [message.content] : []));

/** The includes of a version's body: its template, or every message's content. */
export function bodyIncludes(body: IncludingBody): IncludeTag[] {
  return bodyIncludeTally(body).includes;
}

/**
 * The includes of a version's body, each tag once, with how often each tag is written (`times`, by
 * tag), how many tags it holds in all, and its length as written.
 */
export function bodyIncludeTally(body: IncludingBody): { includes: IncludeTag[]; times: Map<string, number>; tags: number; length: number } {
  const seen = new Map<string, IncludeTag>();
  const times = new Map<string, number>();
  let length = 0;
  for (const text of bodyTexts(body)) {
    length += text.length;
    for (const include of parseIncludes(text, times)) if (!seen.has(include.tag)) seen.set(include.tag, include);
  }
  let tags = 0;
  for (const count of times.values()) tags += count;
  return { includes: [...seen.values()], times, tags, length };
}

/** `'b' (label 'production')` or `'b' (version 3)`. */
export const includeName = (ref: IncludeRef) => `'${ref.name}' (${ref.version !== undefined ? `version ${ref.version}` : `label '${ref.label}'`})`;

export const INCLUDE_MSG = {
  /** `Include not found: 'b' (label 'production'), included by a`: missing, archived, or not readable by the saver or reader. */
  notFound: (ref: IncludeRef, chain: readonly string[]) =>
    `Include not found: ${includeName(ref)}, included by ${chain.join(" → ")}`,
  notText: (ref: IncludeRef) => `Only a text prompt can be included: ${includeName(ref)} is a chat prompt`,
  /** `Circular dependency: …: a → b → a` (Langfuse's words first, which its clients and tests look for). */
  cycle: (chain: readonly string[]) => `Circular dependency: the includes are circular: ${chain.join(" → ")}`,
  tooDeep: (chain: readonly string[]) => `Maximum nesting depth exceeded: includes go deeper than ${INCLUDE_MAX_DEPTH} prompts: ${chain.join(" → ")}`,
  /** `Too many includes: a holds 21 include tags, and a version holds at most 20`. */
  tooManyTags: (chain: readonly string[], tags: number) =>
    `Too many includes: ${chain.join(" → ")} holds ${tags.toLocaleString("en-US")} include tags, and a version holds at most ${INCLUDE_MAX_TAGS}`,
  /** `Too many includes: including 'b' (version 3) in a → c makes 101 different includes in one resolution, and a resolution looks up at most 100`. */
  tooManyLookups: (ref: IncludeRef, chain: readonly string[]) =>
    `Too many includes: including ${includeName(ref)} in ${chain.join(" → ")} makes ${(INCLUDE_MAX_LOOKUPS + 1).toLocaleString("en-US")} different includes in one resolution, ` +
    `and a resolution looks up at most ${INCLUDE_MAX_LOOKUPS}`,
  /** `Resolved prompt too long: including 'big' (label 'staging') in a makes 1,980,040 characters, over the 100,000 …`. */
  tooLong: (ref: IncludeRef, chain: readonly string[], chars: number) =>
    `Resolved prompt too long: including ${includeName(ref)} in ${chain.join(" → ")} makes ${chars.toLocaleString("en-US")} characters, ` +
    `over the ${INCLUDE_MAX_RESOLVED_CHARS.toLocaleString("en-US")} a resolved prompt may hold`,
  /** A move that would push a prompt that includes this one past the budget: names the includer and what broke it. */
  includerTooLong: (includer: string, version: number, detail: string) => `This change would break '${includer}' (version ${version}), which includes this prompt: ${detail}`,
  /** A delete that would take what other prompts include (Langfuse's words), one include a line: `parent v2 depends on child v1`. */
  deleteIncluded: (dependencies: readonly string[]) =>
    `Other prompts are depending on prompt versions you are trying to delete:\n\n${dependencies.join("\n")}\n\nPlease delete the dependent prompts first.`,
  /** An including prompt the caller may not see, in deleteIncluded's lines instead of its name. */
  hiddenIncluder: "A prompt you cannot see",
} as const;
