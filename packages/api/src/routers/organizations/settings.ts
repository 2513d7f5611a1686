import { organizationSettings, organizationSettingsInput } from "@promptly/shared";
import { byOrganizationId, organizationResourceProcedure } from "../../procedures.ts";
import { getOrganizationSettings, updateOrganizationSettings } from "../../services/organizations/organization-settings.ts";

/** The organization's settings (its admins and super users). */
export const settings = organizationResourceProcedure("organization.settings.manage", byOrganizationId)
  .output(organizationSettings)
  .query(({ ctx }) => getOrganizationSettings(ctx.db, ctx.organization.organizationId));

/** Changes the organization's settings: the days production generations are kept (1 to 3,650). */
export const updateSettings = organizationResourceProcedure("organization.settings.manage", byOrganizationId)
  .input(organizationSettingsInput)
  .output(organizationSettings)
  .mutation(({ ctx, input }) => updateOrganizationSettings(ctx.db, ctx.organization.organizationId, input, ctx.audit));
