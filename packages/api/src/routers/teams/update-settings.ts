import { z } from "zod";
import { teamSettingsInput } from "@promptly/shared";
import { byTeam, teamResourceProcedure } from "../../procedures.ts";
import { updateTeamSettings } from "../../services/organizations/teams.ts";

/** The team's review settings (required approvals, required pass rate), at team admin level. */
export const updateSettings = teamResourceProcedure("team.manage", byTeam)
  .input(teamSettingsInput)
  .output(z.object({ requiredApprovals: z.number(), requiredPassRate: z.number().nullable() }))
  .mutation(({ ctx, input }) => updateTeamSettings(ctx.db, ctx.team.teamId, { requiredApprovals: input.requiredApprovals, requiredPassRate: input.requiredPassRate }, ctx.audit));
