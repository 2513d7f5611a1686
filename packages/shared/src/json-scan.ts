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
