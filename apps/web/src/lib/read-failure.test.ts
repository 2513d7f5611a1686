import { describe, expect, it } from "vitest";
import { QUERY_RETRIES } from "@promptly/shared";
import { readFailure, readRetryDelay, retryingLabel, serverNotReached, shouldRetryReachedRead, shouldRetryRead } from "./read-failure.ts";

const answered = (httpStatus: number) => ({ message: "x", data: { httpStatus } });
const unreachable = new TypeError("Failed to fetch");

describe("shouldRetryRead", () => {
  it.each([400, 401, 403, 404, 409, 429])("never retries a %i: a refusal is an answer", (status) => {
    expect(shouldRetryRead(0, answered(status))).toBe(false);
  });

  it.each([403, 404])("never retries a %i that is not tRPC's own answer (a proxy's page)", (status) => {
    expect(shouldRetryRead(0, { message: "Unknown error", data: undefined, meta: { response: { status } } })).toBe(false);
  });

  it.each([
    ["a server failure", answered(500)],
    ["a proxy's server failure", { message: "Unknown error", meta: { response: { status: 502 } } }],
    ["an unreachable server", unreachable],
  ])("retries %s up to the limit", (_name, error) => {
    for (let failures = 0; failures < QUERY_RETRIES; failures++) expect(shouldRetryRead(failures, error)).toBe(true);
    expect(shouldRetryRead(QUERY_RETRIES, error)).toBe(false);
  });

  it("waits longer before each retry, 1 s first", () => {
    expect([0, 1, 2].map(readRetryDelay)).toEqual([1000, 2000, 4000]);
  });
});

describe("shouldRetryReachedRead (the signed-in person a fresh page load waits for)", () => {
  it("never retries a server that was not reached: the page says so at once and tries again itself", () => {
    expect(serverNotReached(unreachable)).toBe(true);
    expect(shouldRetryReachedRead(0, unreachable)).toBe(false);
  });

  it("retries a server's failure as any read, and never a refusal", () => {
    expect(serverNotReached(answered(500))).toBe(false);
    expect(shouldRetryReachedRead(0, answered(500))).toBe(true);
    expect(shouldRetryReachedRead(QUERY_RETRIES, answered(500))).toBe(false);
    expect(shouldRetryReachedRead(0, answered(401))).toBe(false);
  });
});

describe("readFailure", () => {
  const idle = { data: undefined, error: null, failureReason: null, failureCount: 0, isFetching: false, errorUpdatedAt: 0, dataUpdatedAt: 0 };
  const failure = answered(500);

  it("is nothing while the first attempt is on its way", () => {
    expect(readFailure({ ...idle, isFetching: true })).toBeNull();
  });

  it("is told from the first failed attempt, with the retry under way", () => {
    expect(readFailure({ ...idle, isFetching: true, failureCount: 1, failureReason: failure })).toEqual({ error: failure, retrying: 1 });
    expect(readFailure({ ...idle, isFetching: true, failureCount: 2, failureReason: failure })).toEqual({ error: failure, retrying: 2 });
  });

  it("stops saying it retries once the retries are spent", () => {
    const spent = { ...idle, error: failure, failureReason: failure, failureCount: QUERY_RETRIES + 1, errorUpdatedAt: 5 };
    expect(readFailure(spent)).toEqual({ error: failure, retrying: null });
  });

  it("stays told while a new attempt after a failure runs (Try again, or the page's read after its loader's)", () => {
    // A new fetch clears the error and the count; the time of the last failure stays.
    expect(readFailure({ ...idle, isFetching: true, errorUpdatedAt: 5 })).toEqual({ error: null, retrying: 0 });
  });

  it("is nothing once there is data: a failed refresh keeps what is shown", () => {
    expect(readFailure({ ...idle, data: [], error: failure, failureCount: 4, errorUpdatedAt: 9, dataUpdatedAt: 5 })).toBeNull();
  });
});

describe("retryingLabel", () => {
  it("counts the automatic retries", () => {
    expect(retryingLabel(2)).toBe(`Retrying... (2 of ${QUERY_RETRIES})`);
    expect(retryingLabel(0)).toBe("Retrying...");
  });
});
