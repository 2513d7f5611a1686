import { createOrganizationInput } from "@promptly/shared";
import { appProcedure } from "../../procedures.ts";
import { createOrganization, organizationSummary } from "../../services/organizations/organizations.ts";

/** Super users only; the creator becomes the organization's admin in the same transaction. */
export const create = appProcedure("organization.create")
  .input(createOrganizationInput)
  .output(organizationSummary)
  .mutation(({ ctx, input }) => createOrganization(ctx.db, ctx.caller.userId, input, ctx.audit));
