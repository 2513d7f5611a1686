// Where the test case dialog shows the server's refusal of a case. The dialog checks the procedures'
// own schema first, so this answers a server whose schema is stricter than the page's (a page loaded
// before an upgrade): a refusal of the expected output under that field, as the other dialogs place
// theirs (serverFieldErrors); the rest (the values, an assertion, an unknown variable, a judge's
// connection) above the buttons.
import { serverFieldErrors } from "../../lib/form-errors.ts";

interface RefusalPlaces {
  expected?: string;
  /** Above the buttons: every message not shown on a field; none when the expected output's is the only one. */
  form?: string;
}

export function refusalPlaces(error: { message: string; data?: unknown }): RefusalPlaces {
  const { expected, ...others } = serverFieldErrors(error);
  // The error's own message is its first problem's: said once, on the expected output when it is that one's.
  const messages = new Set([...(error.message === expected ? [] : [error.message]), ...Object.values(others)].filter((message) => message !== undefined));
  return { expected, form: messages.size ? [...messages].join("; ") : undefined };
}
