import { z } from "zod";
import { ORGANIZATION_ROLES } from "@promptly/shared";
import { byOrganizationId, organizationResourceProcedure } from "../../procedures.ts";
import { listOrganizationMembers } from "../../services/organizations.ts";

export const organizationMemberItem = z.object({
  id: z.string(),
  organizationId: z.string(),
  userId: z.string(),
  role: z.enum(ORGANIZATION_ROLES),
  joinedAt: z.date(),
  fullName: z.string().nullable(),
  email: z.string(),
  avatarUrl: z.string().nullable(),
  isSuperUser: z.boolean(),
});

/** The members of one organization: super users and that organization's admins. */
export const list = organizationResourceProcedure("organization.members.manage", byOrganizationId)
  .output(z.array(organizationMemberItem))
  .query(({ ctx }) => listOrganizationMembers(ctx.db, ctx.organization.organizationId));
