// TEST_FAULTS (test-only): the end-to-end suite sets the cookie promptly-test-faults to a comma-separated
// list of procedure paths (or "*") that must answer 500 for this browser, to show how every page fails.
// The cookie promptly-test-delay holds a request for that many milliseconds first (shutdown tests need
// requests that are still running when the process is told to stop).
import type { NextFunction, Request, Response } from "express";
import { TestFault } from "@promptly/api";
import type { Logger } from "./logger.ts";

const COOKIE = "promptly-test-faults";
const DELAY_COOKIE = "promptly-test-delay";
const MAX_DELAY_MS = 120_000;

function cookieValue(cookieHeader: string | undefined, name: string) {
  return cookieHeader
    ?.split(";")
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${name}=`))
    ?.slice(name.length + 1);
}

/** The procedures the request's cookie asks to fail, or undefined when it asks for none. */
export function requestedFaults(cookieHeader: string | undefined): ReadonlySet<string> | undefined {
  const value = cookieValue(cookieHeader, COOKIE);
  if (!value) return undefined;
  const paths = decodeURIComponent(value).split(",").map((path) => path.trim()).filter(Boolean);
  return paths.length ? new Set(paths) : undefined;
}

/** Asked-for failures are not incidents: they stay out of the error log. */
export const isTestFault = (error: Error) => error.cause instanceof TestFault;

/**
 * Holds the request for the milliseconds its promptly-test-delay cookie asks (at most two minutes), and
 * logs that it does: a test waits for that line to know the server has the request in hand.
 */
export function delayAsRequested(req: Request & { log?: Logger }, _res: Response, next: NextFunction) {
  const value = cookieValue(req.get("cookie"), DELAY_COOKIE);
  const ms = value && /^\d+$/.test(value) ? Math.min(Number(value), MAX_DELAY_MS) : 0;
  if (ms <= 0) return next();
  req.log?.info({ delayMs: ms }, "request held by its test delay cookie");
  setTimeout(next, ms);
}
