import { updateOrganizationInput } from "@promptly/shared";
import { appProcedure } from "../../procedures.ts";
import { updateOrganization, organizationSummary } from "../../services/organizations/organizations.ts";

/** Rename or change the slug (an empty slug clears it). Super users only. */
export const update = appProcedure("organization.manage")
  .input(updateOrganizationInput)
  .output(organizationSummary)
  .mutation(({ ctx, input }) => updateOrganization(ctx.db, input, ctx.audit));
