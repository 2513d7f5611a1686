import { z } from "zod";
import { TEAM_ROLES } from "@promptly/shared";
import { byTeamId, teamResourceProcedure } from "../../procedures.ts";
import { listTeamMembers } from "../../services/teams.ts";

export const teamMemberItem = z.object({
  id: z.string(),
  teamId: z.string(),
  userId: z.string(),
  role: z.enum(TEAM_ROLES),
  joinedAt: z.date(),
  profile: z.object({ fullName: z.string().nullable(), avatarUrl: z.string().nullable(), email: z.string().nullable() }),
  isLastAdmin: z.boolean(),
});

/** Members ordered by role (admin, editor, viewer), for anyone at viewer level in the team. */
export const list = teamResourceProcedure("team.read", byTeamId)
  .output(z.array(teamMemberItem))
  .query(({ ctx }) => listTeamMembers(ctx.db, ctx.team.teamId));
