import { z } from "zod";
import { PROMPT_MSG } from "@promptly/shared";
import { fail } from "../../errors.ts";

// A keyset cursor is the last row's sort value and id, as base64url JSON `[sortValue, id]`: opaque to
// clients, and every list (REST /api/v1 and the app's) reads the same shape and answers the same error.

export const encodeKeysetCursor = (sortValue: string | number, id: string): string =>
  Buffer.from(JSON.stringify([sortValue, id])).toString("base64url");

/** Reads a cursor whose sort value `sortValue` validates; anything else is the one INVALID_CURSOR refusal. */
export function decodeKeysetCursor<T>(cursor: string, sortValue: z.ZodType<T>): { sortValue: T; id: string } {
  try {
    const [value, id] = z.tuple([sortValue, z.uuid()]).parse(JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")));
    return { sortValue: value, id };
  } catch {
    return fail("INVALID", PROMPT_MSG.invalidCursor, "INVALID_CURSOR");
  }
}

/**
 * The sort value of a list ordered by a time (its creation, a generation's start): the ISO instant, read back
 * as a Date, in a year PostgreSQL holds (ISO text allows year 0, which it refuses: a forged cursor is refused here).
 */
export const instantSortValue = z.iso.datetime().transform((at) => new Date(at)).refine((at) => at.getUTCFullYear() >= 1);
