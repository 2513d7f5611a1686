import { signInInput } from "@promptly/shared";
import { publicProcedure } from "../../procedures.ts";
import { signInWithPassword } from "../../services/identity/auth.ts";
import { signInClientOf, withSessionCookie } from "../../auth/cookies.ts";
import { signInOutput } from "./outputs.ts";

/** Email and password; with two-factor on, the session then waits for the code (/auth/two-factor). */
export const signIn = publicProcedure
  .input(signInInput)
  .output(signInOutput)
  .mutation(async ({ ctx, input }) => withSessionCookie(ctx, ctx.req, await signInWithPassword(ctx, signInClientOf(ctx, ctx.req), input)));
