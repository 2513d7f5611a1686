import { byApiKey, teamResourceProcedure } from "../../procedures.ts";
import { revokeApiKey, revokedApiKey } from "../../services/identity/api-keys.ts";

/** Revokes a key for good; revoking it again is no error and keeps the first time. */
export const revoke = teamResourceProcedure("apiKey.manage", byApiKey)
  .output(revokedApiKey)
  .mutation(async ({ ctx, input }) => {
    const revoked = await revokeApiKey(ctx.db, { teamId: ctx.team.teamId, apiKeyId: input.id, now: ctx.now() }, ctx.audit);
    // Other processes hear of it from the database trigger; this one refuses the key at once.
    ctx.runtime.invalidate(`key:${revoked.id}`);
    return revoked;
  });
