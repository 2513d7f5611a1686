import { teamRoleForm } from "@promptly/shared";
import { byTeamMember, teamResourceProcedure } from "../../procedures.ts";
import { updateTeamMemberRole } from "../../services/organizations/teams.ts";
import { teamMemberItem } from "../../services/organizations/members.ts";

/** Any role change except demoting the team's last admin. */
export const updateRole = teamResourceProcedure("team.members.manage", byTeamMember)
  .input(teamRoleForm)
  .output(teamMemberItem)
  .mutation(({ ctx, input }) =>
    updateTeamMemberRole(ctx.db, {
      teamId: ctx.team.teamId,
      memberId: input.id,
      role: input.role,
      actor: ctx.team,
    }, ctx.audit),
  );
