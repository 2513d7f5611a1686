import { z } from "zod";
import { organizationRoleSchema } from "@promptly/shared";
import { byOrganizationMember, organizationResourceProcedure } from "../../procedures.ts";
import { updateOrganizationMemberRole } from "../../services/organizations/organizations.ts";
import { organizationMemberItem } from "../../services/organizations/members.ts";

/** Changes a member's role; the last admin cannot be demoted. */
export const updateRole = organizationResourceProcedure("organization.members.manage", byOrganizationMember)
  .input(z.object({ role: organizationRoleSchema }))
  .output(organizationMemberItem)
  .mutation(({ ctx, input }) =>
    updateOrganizationMemberRole(ctx.db, ctx.organization, { organizationId: ctx.organization.organizationId, memberId: input.id, role: input.role }, ctx.audit),
  );
