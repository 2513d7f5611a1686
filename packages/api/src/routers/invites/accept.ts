import { z } from "zod";
import { inviteIdInput, MSG, ORGANIZATION_ROLES, TEAM_ROLES } from "@promptly/shared";
import { signedInProcedure } from "../../procedures.ts";
import { acceptInvite } from "../../services/invites.ts";

/** The invitee joins the organization, and the team of a team invitation (spec 4, 5). */
export const accept = signedInProcedure(MSG.inviteSignInRequired)
  .input(inviteIdInput)
  .output(
    z.object({
      kind: z.enum(["team", "organization"]),
      teamId: z.string().nullable(),
      teamName: z.string().nullable(),
      organizationId: z.string(),
      organizationName: z.string(),
      role: z.enum([...TEAM_ROLES, ...ORGANIZATION_ROLES]),
      addedToOrganization: z.boolean(),
      addedToTeam: z.boolean(),
    }),
  )
  .mutation(({ ctx, input }) =>
    acceptInvite(ctx.db, { inviteId: input.id, userId: ctx.viewer.userId, email: ctx.user.email, now: ctx.now() }),
  );
