import { z } from "zod";
import { can } from "@promptly/shared";
import { byOrganizationId, organizationResourceProcedure } from "../../procedures.ts";
import { getOrganization, organizationSummary } from "../../services/organizations/organizations.ts";


/** One organization the caller belongs to (any super user may read any). Others get NOT_FOUND. */
export const get = organizationResourceProcedure("organization.read", byOrganizationId)
  .output(organizationSummary.extend({ isAdmin: z.boolean() }))
  .query(async ({ ctx }) => ({
    ...(await getOrganization(ctx.db, ctx.organization.organizationId)),
    isAdmin: can(ctx.organization, "organization.members.manage"),
  }));
