// Each person's playgrounds are kept in this browser (columns, variables, last outputs) until Reset;
// signing out forgets them, so the next person at a shared computer does not find them.

/** The start of every kept playground's key in localStorage. */
export const KEPT_PLAYGROUND_PREFIX = "promptly.playground.";

/** Forgets every playground kept in this browser. */
export function forgetKeptPlaygrounds(): void {
  try {
    const keys = Array.from({ length: localStorage.length }, (_, index) => localStorage.key(index));
    for (const key of keys) if (key?.startsWith(KEPT_PLAYGROUND_PREFIX)) localStorage.removeItem(key);
  } catch {
    // A disabled storage keeps nothing to forget.
  }
}
