import { z } from "zod";
import { byTeamId, teamResourceProcedure } from "../../procedures.ts";
import { listPendingInvites, pendingInviteItem } from "../../services/organizations/team-invites.ts";

/** The team's pending invites, newest first, for its admins. */
export const listPending = teamResourceProcedure("team.members.manage", byTeamId)
  .output(z.array(pendingInviteItem))
  .query(({ ctx }) => listPendingInvites(ctx.db, ctx.team.teamId, ctx.now()));
