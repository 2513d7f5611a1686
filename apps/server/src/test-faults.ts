// TEST_FAULTS (test-only): the end-to-end suite sets the cookie promptly-test-faults to a comma-separated
// list of procedure paths (or "*") that must answer 500 for this browser, to show how every page fails.
import { TestFault } from "@promptly/api";

const COOKIE = "promptly-test-faults";

/** The procedures the request's cookie asks to fail, or undefined when it asks for none. */
export function requestedFaults(cookieHeader: string | undefined): ReadonlySet<string> | undefined {
  const value = cookieHeader
    ?.split(";")
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${COOKIE}=`))
    ?.slice(COOKIE.length + 1);
  if (!value) return undefined;
  const paths = decodeURIComponent(value).split(",").map((path) => path.trim()).filter(Boolean);
  return paths.length ? new Set(paths) : undefined;
}

/** Asked-for failures are not incidents: they stay out of the error log. */
export const isTestFault = (error: Error) => error.cause instanceof TestFault;
