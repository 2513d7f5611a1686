import { z } from "zod";
import { TEAM_ROLES } from "@promptly/shared";
import { byTeamId, teamResourceProcedure } from "../../procedures.ts";
import { listPendingInvites } from "../../services/invites.ts";

export const pendingInviteItem = z.object({
  id: z.string(),
  teamId: z.string(),
  email: z.string(),
  role: z.enum(TEAM_ROLES),
  createdAt: z.date(),
  expiresAt: z.date(),
  expired: z.boolean(),
});

/** The team's pending invites, newest first, for its admins. */
export const listPending = teamResourceProcedure("team.members.manage", byTeamId)
  .output(z.array(pendingInviteItem))
  .query(({ ctx }) => listPendingInvites(ctx.db, ctx.team.teamId, ctx.now()));
