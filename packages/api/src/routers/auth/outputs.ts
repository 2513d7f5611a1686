// Answers shared by the auth procedures.
import { z } from "zod";

/** The whole answer of flows that must not reveal anything (unknown addresses get the same). */
export const okOutput = z.object({ ok: z.literal(true) });
export const OK = { ok: true } as const;

/** verifyEmail: where sign-up asked to return after signing in (e.g. an invitation), or null. */
export const verifyEmailOutput = z.object({ ok: z.literal(true), redirectTo: z.string().nullable() });

export const signInOutput = z.object({
  status: z.enum(["signed_in", "two_factor_required"]),
  /** Where the browser goes next: a same-origin path, or null for "/". */
  redirectTo: z.string().nullable(),
});
