import { z } from "zod";
import { can } from "@promptly/shared";
import { byOrganizationId, organizationResourceProcedure } from "../../procedures.ts";

/** Organization admin status of the caller (a super user always is). Non-members get NOT_FOUND. */
export const isAdmin = organizationResourceProcedure("organization.read", byOrganizationId)
  .output(z.boolean())
  .query(({ ctx }) => can(ctx.organization, "organization.members.manage"));
