import { z } from "zod";
import { protectedProcedure } from "../../procedures.ts";
import { listOrganizations, organizationListItem } from "../../services/organizations/organizations.ts";

/** The organizations the caller may see, by name: every one for a super user. */
export const list = protectedProcedure
  .output(z.array(organizationListItem))
  .query(({ ctx }) => listOrganizations(ctx.db, ctx.caller));
