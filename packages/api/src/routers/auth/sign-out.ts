import { publicProcedure } from "../../procedures.ts";
import { signOut as endSession } from "../../services/auth.ts";
import { OK, okOutput } from "./outputs.ts";

/** Ends this browser's session (if any) and clears its cookie. */
export const signOut = publicProcedure.output(okOutput).mutation(async ({ ctx }) => {
  await endSession(ctx, ctx.req, ctx.session?.id ?? null);
  return OK;
});
