// Prompts that include prompts (issue 30): `@@@langfusePrompt:name=NAME|label=LABEL@@@` or
// `|version=N`, Langfuse's syntax and its parsing rules: the name first, exactly two parts, a tag that
// does not parse is left as plain text. A text prompt's template and each chat message's content may
// include; only a text prompt may be included (its text takes the tag's place).

/** How deep includes go: a chain of at most this many prompts (the root and four levels), as in Langfuse. */
export const INCLUDE_MAX_DEPTH = 5;

const INCLUDE_TAG = /@@@langfusePrompt:(.*?)@@@/g;

/** One include as written: the prompt's name and the label or version it names. */
export type IncludeRef = { name: string; label: string; version?: undefined } | { name: string; version: number; label?: undefined };

/** An include with the tag's exact text, which resolution replaces. */
export type IncludeTag = IncludeRef & { tag: string };

/** The includes of one text, in order, each tag once. */
function parseIncludes(text: string): IncludeTag[] {
  const found = new Map<string, IncludeTag>();
  for (const match of text.matchAll(INCLUDE_TAG)) {
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
  }
  return [...found.values()];
}

/** The includes of a version's body: its template, or every message's content. */
export function bodyIncludes(body: { type: "text"; template: string } | { type: "chat"; messages: readonly { content: string }[] }): IncludeTag[] {
  const texts = body.type === "text" ? [body.template] : body.messages.map((message) => message.content);
  const seen = new Map<string, IncludeTag>();
  for (const text of texts) for (const include of parseIncludes(text)) if (!seen.has(include.tag)) seen.set(include.tag, include);
  return [...seen.values()];
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
} as const;
