import { signUpWithInviteInput } from "@promptly/shared";
import { z } from "zod";
import { publicProcedure } from "../../procedures.ts";
import { createAccountFromInvite } from "../../services/organizations/accept-invite.ts";
import { acceptedInvite } from "../../services/organizations/accept-invite.ts";
import { signInClientOf, withSessionCookie } from "../../auth/cookies.ts";

/**
 * Sign-up from an invitation link, in one step: the invitation (checked on the server: live, and sent
 * to this address) confirms the address, so the account is created confirmed, the invitation
 * accepted and the person signed in.
 */
export const signUpWithInvite = publicProcedure
  .input(signUpWithInviteInput)
  .output(z.object({ status: z.literal("signed_in"), firstSignIn: z.boolean(), accepted: acceptedInvite }))
  .mutation(async ({ ctx, input }) => {
    const { redirectTo: _redirectTo, ...answer } = withSessionCookie(ctx, ctx.req, await createAccountFromInvite(ctx, signInClientOf(ctx, ctx.req), input));
    return answer;
  });
