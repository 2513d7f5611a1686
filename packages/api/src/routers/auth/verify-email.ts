import { tokenInput } from "@promptly/shared";
import { publicProcedure } from "../../procedures.ts";
import { verifyEmail as confirmAddress } from "../../services/auth.ts";
import { verifyEmailOutput } from "./outputs.ts";

/** Consumes the emailed verification token (the confirm page's button, never the link itself). */
export const verifyEmail = publicProcedure
  .input(tokenInput)
  .output(verifyEmailOutput)
  .mutation(async ({ ctx, input }) => ({ ok: true as const, ...(await confirmAddress(ctx, input.token)) }));
