import { tokenInput } from "@promptly/shared";
import { publicProcedure } from "../../procedures.ts";
import { signInWithMagicLink as consumeMagicLink } from "../../services/auth.ts";
import { signInOutput } from "./outputs.ts";

/** Consumes the emailed link's token (the page's button) and signs in; the link also confirms the address. */
export const signInWithMagicLink = publicProcedure
  .input(tokenInput)
  .output(signInOutput)
  .mutation(({ ctx, input }) => consumeMagicLink(ctx, ctx.req, input.token));
