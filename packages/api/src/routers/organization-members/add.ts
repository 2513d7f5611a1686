import { addOrganizationMemberForm } from "@promptly/shared";
import { byOrganizationId, organizationResourceProcedure } from "../../procedures.ts";
import { addOrganizationMember, addOrganizationMemberResult } from "../../services/organizations/organizations.ts";

/**
 * Someone already in the organization stays as they are; anyone else gets an invitation to accept
 * (with or without an account: the answer does not tell which).
 */
export const add = organizationResourceProcedure("organization.members.manage", byOrganizationId)
  .input(addOrganizationMemberForm)
  .output(addOrganizationMemberResult)
  .mutation(({ ctx, input }) =>
    addOrganizationMember(
      { db: ctx.db, now: ctx.now, rateLimiter: ctx.rateLimits, rateLimits: ctx.config.rateLimits },
      { organizationId: ctx.organization.organizationId, email: input.email, role: input.role, inviterId: ctx.caller.userId },
      ctx.audit,
    ),
  );
