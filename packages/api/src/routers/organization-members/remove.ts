import { z } from "zod";
import { organizationMemberProcedure } from "../../procedures.ts";
import { removeOrganizationMember } from "../../services/organizations.ts";

/** Removes a member; the last admin cannot be removed. */
export const remove = organizationMemberProcedure("admin")
  .output(z.object({ id: z.string() }))
  .mutation(async ({ ctx, input }) => {
    await removeOrganizationMember(ctx.db, ctx.viewer, { organizationId: ctx.organization.organizationId, memberId: input.id });
    return { id: input.id };
  });
