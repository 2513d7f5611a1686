import { z } from "zod";
import { addOrganizationMemberForm, ORGANIZATION_ROLES } from "@promptly/shared";
import { byOrganizationId, organizationResourceProcedure } from "../../procedures.ts";
import { addOrganizationMember } from "../../services/organizations.ts";
import { organizationMemberItem } from "./list.ts";

const organizationInviteItem = z.object({
  id: z.string(),
  organizationId: z.string(),
  email: z.string(),
  role: z.enum(ORGANIZATION_ROLES),
  createdAt: z.date(),
  expiresAt: z.date(),
});

/**
 * Someone already in the organization stays as they are; anyone else gets an invitation to accept
 * (with or without an account: the answer does not tell which).
 */
export const add = organizationResourceProcedure("organization.members.manage", byOrganizationId)
  .input(addOrganizationMemberForm)
  .output(
    z.discriminatedUnion("status", [
      z.object({ status: z.literal("member"), member: organizationMemberItem }),
      z.object({ status: z.literal("invited"), invite: organizationInviteItem, resent: z.boolean() }),
    ]),
  )
  .mutation(({ ctx, input }) =>
    addOrganizationMember(
      { db: ctx.db, now: ctx.now, rateLimiter: ctx.rateLimiter, rateLimits: ctx.config.rateLimits },
      { organizationId: ctx.organization.organizationId, email: input.email, role: input.role, inviterId: ctx.viewer.userId },
    ),
  );
