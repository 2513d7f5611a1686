// Answers shared by the auth procedures.
import { z } from "zod";

/** The whole answer of flows that must not reveal anything (unknown addresses get the same). */
export const okOutput = z.object({ ok: z.literal(true) });
export const OK = { ok: true } as const;

/** verifyEmail: where sign-up asked to return after signing in (e.g. an invitation), or null. */
export const verifyEmailOutput = z.object({ ok: z.literal(true), redirectTo: z.string().nullable() });

/** Where the browser goes next: a same-origin path, or null for "/". */
const redirectTo = z.string().nullable();
/** The account had never completed a sign-in before this one: the greeting is 'Welcome!', not 'Welcome back!'. */
const firstSignIn = z.boolean();

export const signInOutput = z.discriminatedUnion("status", [
  z.object({ status: z.literal("signed_in"), redirectTo, firstSignIn }),
  // Not signed in yet: the greeting waits for the code (twoFactorSignInOutput).
  z.object({ status: z.literal("two_factor_required"), redirectTo }),
]);

/** The second step of a sign-in, by code or by recovery code. */
export const twoFactorSignInOutput = z.object({ status: z.literal("signed_in"), firstSignIn });
