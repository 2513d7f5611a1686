/** Deeper JSON than any of our inputs needs: refused before parsing, so nothing recurses on it. */
export const MAX_JSON_DEPTH = 64;

/**
 * What JSON text holds past a limit, read without parsing it (strings skipped, escapes honoured): "deep"
 * when it nests arrays and objects deeper than `maxDepth`, "many" when it holds more than `maxNodes`
 * objects, arrays and commas (about its values, counted before anything is built); null within both.
 */
export function jsonBeyond(text: string | Uint8Array, maxDepth = MAX_JSON_DEPTH, maxNodes = Number.POSITIVE_INFINITY): "deep" | "many" | null {
  let depth = 0;
  let nodes = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = typeof text === "string" ? text.charCodeAt(i) : text[i]!;
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5d || c === 0x7d) depth--;
    else if (c === 0x5b || c === 0x7b || c === 0x2c) {
      if (++nodes > maxNodes) return "many";
      if (c !== 0x2c && ++depth > maxDepth) return "deep";
    }
  }
  return null;
}

/**
 * What a parsed value holds, walked without recursion (a parsed value may nest deeper than the stack) and
 * without writing it out (which would copy a multi-megabyte value only to measure it): `characters`, its
 * strings' and keys' together, and `values`, how many it has (strings, numbers, arrays, objects and the
 * rest each one). The walk stops once the two together pass `atMost`.
 */
export function parsedSize(value: unknown, atMost = Number.POSITIVE_INFINITY): { characters: number; values: number } {
  let characters = 0;
  let values = 0;
  const pending: unknown[] = [value];
  while (pending.length && characters + values < atMost) {
    const node = pending.pop();
    values += 1;
    if (typeof node === "string") characters += node.length;
    else if (Array.isArray(node)) for (const item of node) pending.push(item);
    else if (node !== null && typeof node === "object") {
      for (const key of Object.keys(node)) {
        characters += key.length;
        pending.push((node as Record<string, unknown>)[key]);
      }
    }
  }
  return { characters, values };
}
