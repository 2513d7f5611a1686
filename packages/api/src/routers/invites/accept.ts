import { inviteIdInput, MSG } from "@promptly/shared";
import { signedInProcedure } from "../../procedures.ts";
import { acceptInvite, acceptedInvite } from "../../services/organizations/accept-invite.ts";

/** The invitee joins the organization, and the team of a team invitation. */
export const accept = signedInProcedure(MSG.inviteSignInRequired)
  .input(inviteIdInput)
  .output(acceptedInvite)
  .mutation(({ ctx, input }) =>
    acceptInvite(ctx.db, { inviteId: input.id, userId: ctx.caller.userId, email: ctx.user.email, now: ctx.now() }, ctx.audit),
  );
