import { z } from "zod";
import { inviteIdInput } from "@promptly/shared";
import { teamInviteProcedure } from "../../procedures.ts";
import { cancelInvite } from "../../services/invites.ts";

/** Cancelling deletes a pending invite (spec 4). */
export const cancel = teamInviteProcedure("admin")
  .input(inviteIdInput)
  .output(z.object({ id: z.string() }))
  .mutation(async ({ ctx, input }) => {
    await cancelInvite(ctx.db, { teamId: ctx.team.teamId, inviteId: input.id });
    return { id: input.id };
  });
