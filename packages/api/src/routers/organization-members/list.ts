import { z } from "zod";
import { byOrganizationId, organizationResourceProcedure } from "../../procedures.ts";
import { listOrganizationMembers, organizationMemberItem } from "../../services/organizations/members.ts";

/** The members of one organization, admins first, for its admins and super users. */
export const list = organizationResourceProcedure("organization.members.manage", byOrganizationId)
  .output(z.array(organizationMemberItem))
  .query(({ ctx }) => listOrganizationMembers(ctx.db, ctx.organization.organizationId));
