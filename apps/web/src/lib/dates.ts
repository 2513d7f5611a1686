// Dates as the app shows them: one format everywhere, in the reader's own locale and time
// zone. Every screen formats through these two functions, so a list and a detail never disagree.

type Locale = string | undefined;

const dateFormats = new Map<string, Intl.DateTimeFormat>();
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

// Building a formatter is costly next to using one; tables format a date per row.
function formatter(cache: Map<string, Intl.DateTimeFormat>, locale: Locale, options: Intl.DateTimeFormatOptions) {
  const key = locale ?? "";
  let format = cache.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    cache.set(key, format);
  }
  return format;
}

/** A day, e.g. "Mar 5, 2025" (en-US) or "05.03.2025" (de-DE). The locale is the browser's unless a test names one. */
export const formatDate = (date: Date, locale?: string) => formatter(dateFormats, locale, { dateStyle: "medium" }).format(date);

/** A day and a time to the minute, e.g. "Mar 5, 2025, 2:07 PM" (en-US). */
export const formatDateTime = (date: Date, locale?: string) =>
  formatter(dateTimeFormats, locale, { dateStyle: "medium", timeStyle: "short" }).format(date);
