import { z } from "zod";
import { inviteForm, TEAM_ROLES } from "@promptly/shared";
import { byTeamId, teamResourceProcedure } from "../../procedures.ts";
import { createInvite } from "../../services/invites.ts";
import { pendingInviteItem } from "./list-pending.ts";

const createInviteOutput = z.discriminatedUnion("status", [
  z.object({
    status: z.literal("added"),
    userId: z.string(),
    email: z.string(),
    role: z.enum(TEAM_ROLES),
    addedToOrganization: z.boolean(),
  }),
  z.object({ status: z.literal("invited"), invite: pendingInviteItem, resent: z.boolean() }),
]);

/**
 * Adds a colleague already in the team's organization at once; anyone else gets a pending invitation
 * whose mail is queued (spec 4, narrowed by the security review: nobody is enrolled without consent).
 */
export const create = teamResourceProcedure("team.members.manage", byTeamId)
  .input(inviteForm)
  .output(createInviteOutput)
  .mutation(({ ctx, input }) =>
    createInvite(
      { db: ctx.db, now: ctx.now, rateLimiter: ctx.rateLimiter, rateLimits: ctx.config.rateLimits },
      { teamId: ctx.team.teamId, email: input.email, role: input.role, inviterId: ctx.viewer.userId },
    ),
  );
