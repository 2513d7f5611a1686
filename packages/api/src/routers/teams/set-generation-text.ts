import { z } from "zod";
import { idSchema } from "@promptly/shared";
import { byTeam, teamResourceProcedure } from "../../procedures.ts";
import { setKeepGenerationText } from "../../services/organizations/teams.ts";
import { forgetTeamTextSetting } from "../../services/production/ingest.ts";

/** Whether the team's production generations keep their input and output text (capped; off by default), at team admin level. */
export const setGenerationText = teamResourceProcedure("team.manage", byTeam)
  .input(z.object({ id: idSchema, keep: z.boolean() }))
  .output(z.object({ keepGenerationText: z.boolean() }))
  .mutation(async ({ ctx, input }) => {
    const result = await setKeepGenerationText(ctx.db, ctx.team.teamId, input.keep, ctx.audit);
    // This process's ingestion reads it again at once (the others within seconds).
    forgetTeamTextSetting(ctx.team.teamId);
    return result;
  });
