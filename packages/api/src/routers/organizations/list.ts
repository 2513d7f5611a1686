import { z } from "zod";
import { protectedProcedure } from "../../procedures.ts";
import { listOrganizations } from "../../services/organizations.ts";

export const organizationListItem = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string().nullable(),
  memberCount: z.number(),
  createdAt: z.date(),
  myRole: z.enum(["admin", "member"]).nullable(),
  isAdmin: z.boolean(),
});

export const list = protectedProcedure
  .output(z.array(organizationListItem))
  .query(({ ctx }) => listOrganizations(ctx.db, ctx.viewer));
