import { z } from "zod";
import { idSchema, TEAM_ROLES } from "@promptly/shared";
import { protectedProcedure } from "../../procedures.ts";
import { listTeams } from "../../services/teams.ts";

export const teamListItem = z.object({
  id: z.string(),
  name: z.string(),
  organizationId: z.string(),
  organizationName: z.string(),
  memberCount: z.number(),
  createdAt: z.date(),
  updatedAt: z.date(),
  createdById: z.string().nullable(),
  myRole: z.enum(TEAM_ROLES).nullable(),
});

export const list = protectedProcedure
  .input(z.object({ organizationId: idSchema.optional() }).optional())
  .output(z.array(teamListItem))
  .query(({ ctx, input }) => listTeams(ctx.db, ctx.viewer, input?.organizationId));
