import { createApiKeyInput } from "@promptly/shared";
import { byTeamId, teamResourceProcedure } from "../../procedures.ts";
import { createApiKey, createdApiKey } from "../../services/identity/api-keys.ts";

/** A new key for the team's tools; the answer is the only time the key is shown. */
export const create = teamResourceProcedure("apiKey.manage", byTeamId)
  .input(createApiKeyInput)
  .output(createdApiKey)
  .mutation(({ ctx, input }) =>
    createApiKey(ctx.db, { teamId: ctx.team.teamId, createdById: ctx.caller.userId, settings: input, now: ctx.now() }, ctx.audit),
  );
