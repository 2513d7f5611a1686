import { z } from "zod";
import { TEAM_ROLES } from "@promptly/shared";
import { teamProcedure } from "../../procedures.ts";
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
export const listPending = teamProcedure("admin")
  .output(z.array(pendingInviteItem))
  .query(({ ctx }) => listPendingInvites(ctx.db, ctx.team.teamId, ctx.now()));
