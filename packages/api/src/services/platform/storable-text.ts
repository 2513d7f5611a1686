// What no PostgreSQL text or jsonb can hold, made storable: NUL (text refuses it, 22021) and a lone
// surrogate (no UTF-8 encodes it; jsonb refuses its escape, 22P02) become U+FFFD, as a decoder's
// replacement. For texts from outside (a model's answer, a provider's error, a sender's event).

/** NUL, or a surrogate not paired (the `u` flag reads a pair as one code point). */
const UNSTORABLE = /[\u0000\uD800-\uDFFF]/u;
const UNSTORABLE_ALL = /[\u0000\uD800-\uDFFF]/gu;

/** A text as stored: NUL and lone surrogates as U+FFFD (the same text when it has none). */
export function storableText(text: string): string;
export function storableText<T extends string | null | undefined>(text: T): T;
export function storableText(text: string | null | undefined): string | null | undefined {
  return typeof text === "string" && UNSTORABLE.test(text) ? text.replace(UNSTORABLE_ALL, "\uFFFD") : text;
}

/** A text as stored, cut to `max` characters first (never inside a surrogate pair). */
export function storableCut(text: string, max: number): string {
  if (text.length <= max) return storableText(text);
  const high = text.charCodeAt(max - 1);
  const low = text.charCodeAt(max);
  return storableText(text.slice(0, high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff ? max - 1 : max));
}

/** What a score's comment keeps at the most, however it came (a key's, a person's, a judge's reason). */
export const SCORE_COMMENT_MAX = 5_000;

/** JSON.stringify's replacer that writes every string, and every object's key, as storableText has it. */
function storableJsonReplacer(_key: string, value: unknown): unknown {
  if (typeof value === "string") return storableText(value);
  if (value && typeof value === "object" && !Array.isArray(value) && Object.keys(value).some((key) => UNSTORABLE.test(key))) {
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [storableText(key), entry]));
  }
  return value;
}

/** A value as JSON text that jsonb takes: its strings and keys as storableText has them. */
export const storableJson = (value: unknown): string => JSON.stringify(value, storableJsonReplacer);
