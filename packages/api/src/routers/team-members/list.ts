import { z } from "zod";
import { byTeamId, teamReadProcedure } from "../../procedures.ts";
import { listTeamMembersFor, teamMemberItem } from "../../services/organizations/members.ts";

/** Members ordered by role (admin, editor, viewer), for anyone who may read the team. */
export const list = teamReadProcedure("team.read", byTeamId)
  .output(z.array(teamMemberItem))
  .query(({ ctx }) => ctx.team.read(listTeamMembersFor));
