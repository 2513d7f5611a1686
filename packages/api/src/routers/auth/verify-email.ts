import { tokenInput } from "@promptly/shared";
import { publicProcedure } from "../../procedures.ts";
import { verifyEmail as confirmAddress } from "../../services/auth.ts";
import { OK, okOutput } from "./outputs.ts";

/** Consumes the emailed verification token (the confirm page's button, never the link itself). */
export const verifyEmail = publicProcedure
  .input(tokenInput)
  .output(okOutput)
  .mutation(async ({ ctx, input }) => {
    await confirmAddress(ctx, input.token);
    return OK;
  });
