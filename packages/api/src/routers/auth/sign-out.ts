import { publicProcedure } from "../../procedures.ts";
import { endSession } from "../../services/identity/auth.ts";
import { clearSessionCookie } from "../../auth/cookies.ts";
import { OK, okOutput } from "./outputs.ts";

/** Ends this browser's session (if any) and clears its cookie. */
export const signOut = publicProcedure.output(okOutput).mutation(async ({ ctx }) => {
  await endSession(ctx, ctx.principal?.kind === "user" ? ctx.principal.session.id : null);
  clearSessionCookie(ctx, ctx.req);
  return OK;
});
