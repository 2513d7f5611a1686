import { inviteIdInput } from "@promptly/shared";
import { optionalViewerProcedure } from "../../procedures.ts";
import { getInviteSummary, inviteSummary } from "../../services/organizations/accept-invite.ts";

/**
 * The accept page: open to whoever holds the link (the id is an unguessable UUID). It shows the team,
 * organization, role and the invited address (the sign-up from the link fills it in).
 */
export const get = optionalViewerProcedure
  .input(inviteIdInput)
  .output(inviteSummary)
  .query(({ ctx, input }) => getInviteSummary(ctx.db, { inviteId: input.id, viewerEmail: ctx.signedInUser?.email ?? null, now: ctx.now() }));
