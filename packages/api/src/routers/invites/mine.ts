import { z } from "zod";
import { protectedProcedure } from "../../procedures.ts";
import { listMyInvites, myInvite } from "../../services/organizations/accept-invite.ts";

/** The invitations waiting for the signed-in person (by their account's address): where to go next without an organization. */
export const mine = protectedProcedure
  .output(z.array(myInvite))
  .query(({ ctx }) => listMyInvites(ctx.db, { email: ctx.user.email, now: ctx.now() }));
