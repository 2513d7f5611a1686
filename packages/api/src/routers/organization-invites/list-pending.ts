import { z } from "zod";
import { byOrganizationId, organizationResourceProcedure } from "../../procedures.ts";
import { listOrganizationInvites, organizationInviteItem } from "../../services/organizations/organization-invites.ts";

/** The organization's pending invitations, newest first, for those who manage its members. */
export const listPending = organizationResourceProcedure("organization.members.manage", byOrganizationId)
  .output(z.array(organizationInviteItem))
  .query(({ ctx }) => listOrganizationInvites(ctx.db, ctx.organization.organizationId));
