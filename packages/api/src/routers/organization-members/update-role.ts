import { z } from "zod";
import { organizationRoleSchema } from "@promptly/shared";
import { organizationMemberProcedure } from "../../procedures.ts";
import { updateOrganizationMemberRole } from "../../services/organizations.ts";
import { organizationMemberItem } from "./list.ts";

/** Changes a member's role; the last admin cannot be demoted. */
export const updateRole = organizationMemberProcedure("admin")
  .input(z.object({ role: organizationRoleSchema }))
  .output(organizationMemberItem)
  .mutation(({ ctx, input }) =>
    updateOrganizationMemberRole(ctx.db, ctx.viewer, { organizationId: ctx.organization.organizationId, memberId: input.id, role: input.role }),
  );
