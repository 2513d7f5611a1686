import { z } from "zod";
import { byOrganizationInvite, organizationResourceProcedure } from "../../procedures.ts";
import { cancelOrganizationInvite } from "../../services/organizations/organization-invites.ts";

/** Cancelling deletes a pending organization invitation. */
export const cancel = organizationResourceProcedure("organization.members.manage", byOrganizationInvite)
  .output(z.object({ id: z.string() }))
  .mutation(async ({ ctx, input }) => {
    await cancelOrganizationInvite(ctx.db, { organizationId: ctx.organization.organizationId, inviteId: input.id }, ctx.audit);
    return { id: input.id };
  });
