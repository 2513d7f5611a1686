import { z } from "zod";
import { byTeamId, teamResourceProcedure } from "../../procedures.ts";
import { listTeamMembers, teamMemberItem } from "../../services/organizations/members.ts";

/** Members ordered by role (admin, editor, viewer), for anyone who may read the team. */
export const list = teamResourceProcedure("team.read", byTeamId)
  .output(z.array(teamMemberItem))
  .query(({ ctx }) => listTeamMembers(ctx.db, ctx.team.teamId));
