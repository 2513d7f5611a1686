import { tokenInput } from "@promptly/shared";
import { publicProcedure } from "../../procedures.ts";
import { consumeMagicLink } from "../../services/identity/auth.ts";
import { signInClientOf, withSessionCookie } from "../../auth/cookies.ts";
import { signInOutput } from "./outputs.ts";

/** Consumes the emailed link's token (the page's button) and signs in; the link also confirms the address. */
export const signInWithMagicLink = publicProcedure
  .input(tokenInput)
  .output(signInOutput)
  .mutation(async ({ ctx, input }) => withSessionCookie(ctx, ctx.req, await consumeMagicLink(ctx, signInClientOf(ctx, ctx.req), input.token)));
