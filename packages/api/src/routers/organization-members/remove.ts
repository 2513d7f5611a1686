import { z } from "zod";
import { byOrganizationMember, organizationResourceProcedure } from "../../procedures.ts";
import { removeOrganizationMember } from "../../services/organizations/organizations.ts";

/** Removes a member; the last admin cannot be removed. */
export const remove = organizationResourceProcedure("organization.members.manage", byOrganizationMember)
  .output(z.object({ id: z.string() }))
  .mutation(async ({ ctx, input }) => {
    await removeOrganizationMember(ctx.db, ctx.organization, { organizationId: ctx.organization.organizationId, memberId: input.id }, ctx.audit);
    return { id: input.id };
  });
