import { z } from "zod";
import { byTeamId, teamResourceProcedure } from "../../procedures.ts";
import { apiKeyItem, listApiKeys } from "../../services/identity/api-keys.ts";

/** The team's keys, newest first, revoked and expired ones included; never the keys themselves. */
export const list = teamResourceProcedure("apiKey.manage", byTeamId)
  .output(z.array(apiKeyItem))
  .query(({ ctx }) => listApiKeys(ctx.db, ctx.team.teamId, ctx.now()));
