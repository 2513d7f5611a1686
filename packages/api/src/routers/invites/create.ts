import { inviteForm } from "@promptly/shared";
import { byTeamId, teamResourceProcedure } from "../../procedures.ts";
import { createInvite, createInviteResult } from "../../services/organizations/team-invites.ts";

/**
 * Adds a colleague already in the team's organization at once; anyone else gets a pending invitation
 * whose mail is queued (nobody is enrolled without consent).
 */
export const create = teamResourceProcedure("team.members.manage", byTeamId)
  .input(inviteForm)
  .output(createInviteResult)
  .mutation(({ ctx, input }) =>
    createInvite(
      { db: ctx.db, now: ctx.now, rateLimiter: ctx.rateLimits, rateLimits: ctx.config.rateLimits },
      { teamId: ctx.team.teamId, email: input.email, role: input.role, inviterId: ctx.caller.userId },
      ctx.audit,
    ),
  );
