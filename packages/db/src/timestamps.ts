// timestamptz values as node-postgres reads them, parsed without its regular expressions.
//
// node-postgres parses each timestamptz cell with three regular expressions (postgres-date); on a
// 500-team list (two dates a row) that was about a fifteenth of the request's CPU. PostgreSQL writes
// them in one shape (DateStyle ISO): "2026-11-28 00:14:38.585123+00", the offset with minutes or
// seconds where it has them ("+05:30", "-00:25:21"). That shape is read here by position; anything
// else (years before 100 or after 9999, BC, infinity) is node-postgres's own parser's, so the Date is
// always the one node-postgres would have made.
import pg from "pg";

const TIMESTAMPTZ = 1184;
const defaultParser = pg.types.getTypeParser(TIMESTAMPTZ, "text") as (text: string) => Date | number | null;

/** The number written by `count` digits at `start`, or -1 where one is not a digit. */
function digits(text: string, start: number, count: number): number {
  let value = 0;
  for (let index = start; index < start + count; index++) {
    const digit = text.charCodeAt(index) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/** A timestamptz's text as node-postgres's parser reads it: a Date (or ±Infinity for infinity). */
export function parseTimestamptz(text: string): Date | number | null {
  const fast = fastParse(text);
  return fast === null ? defaultParser(text) : new Date(fast);
}

/** The time value of the usual shape, or null for any other. */
function fastParse(text: string): number | null {
  // "YYYY-MM-DD HH:MM:SS": 19 characters, then the fraction and the offset.
  if (text.length < 22 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 32 || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) {
    return null;
  }
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  // Years 0-99 mean 1900-1999 to Date.UTC, and node-postgres corrects them: its parser's case.
  if (year < 100 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) return null;
  let at = 19;
  // The fraction: milliseconds are its first three digits (node-postgres's 1000 × 0.585123, truncated by Date.UTC).
  let ms = 0;
  if (text.charCodeAt(at) === 46) {
    at++;
    let scale = 100;
    while (at < text.length) {
      const digit = text.charCodeAt(at) - 48;
      if (digit < 0 || digit > 9) break;
      ms += digit * scale;
      scale /= 10;
      at++;
    }
    ms = Math.floor(ms);
  }
  // The offset: +HH, +HH:MM or +HH:MM:SS, and nothing after it (" BC" is the other parser's).
  const sign = text.charCodeAt(at) === 43 ? 1 : text.charCodeAt(at) === 45 ? -1 : 0;
  if (sign === 0) return null;
  const offsetHours = digits(text, at + 1, 2);
  let offsetSeconds = offsetHours * 3600;
  at += 3;
  for (const unit of [60, 1]) {
    if (at === text.length) break;
    const value = text.charCodeAt(at) === 58 ? digits(text, at + 1, 2) : -1;
    if (value < 0) return null;
    offsetSeconds += value * unit;
    at += 3;
  }
  if (offsetHours < 0 || at !== text.length) return null;
  return Date.UTC(year, month - 1, day, hour, minute, second, ms) - sign * offsetSeconds * 1000;
}

/** node-postgres's `types` option: its own parsers, but timestamptz's text read by parseTimestamptz. */
export const fastTimestampTypes = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === TIMESTAMPTZ && format !== "binary" ? parseTimestamptz : pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
};
