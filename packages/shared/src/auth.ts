// Auth rules both sides need: where a sign-in may send the browser next.

/**
 * A redirect target after sign-in, accepted only as a path of this app: it starts with "/" and not
 * with "//" or "/\" (which browsers read as another host), and holds no control characters.
 * Anything else becomes null, so a crafted link can never send someone to a foreign site.
 */
export function safeRedirectPath(value: unknown): string | null {
  if (typeof value !== "string" || value.length === 0 || value.length > 2000) return null;
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return null;
  // Control characters and whitespace (tabs and newlines are stripped by URL parsers, turning "/\t/x" into "//x").
  if (/[\u0000-\u0020\u007f-\u009f\\]/.test(value)) return null;
  return value;
}
