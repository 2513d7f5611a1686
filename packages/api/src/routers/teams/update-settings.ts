import { z } from "zod";
import { teamSettingsInput } from "@promptly/shared";
import { byTeam, teamResourceProcedure } from "../../procedures.ts";
import { updateTeamSettings } from "../../services/organizations/teams.ts";

/** The team's review setting, at team admin level. */
export const updateSettings = teamResourceProcedure("team.manage", byTeam)
  .input(teamSettingsInput)
  .output(z.object({ requiredApprovals: z.number() }))
  .mutation(({ ctx, input }) => updateTeamSettings(ctx.db, ctx.team.teamId, { requiredApprovals: input.requiredApprovals }, ctx.audit));
