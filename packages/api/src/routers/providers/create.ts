import { createProviderInput } from "@promptly/shared";
import { byOrganizationId, changesRunConnections, organizationResourceProcedure } from "../../procedures.ts";
import { createProviderConnection, providerConnectionItem } from "../../services/models/connections.ts";

/** A new connection; its key is sealed at once and never shown again (the list shows its last four characters). */
export const create = organizationResourceProcedure("organization.providers.manage", byOrganizationId)
  .use(changesRunConnections)
  .input(createProviderInput)
  .output(providerConnectionItem)
  .mutation(({ ctx, input }) => createProviderConnection(ctx, { ...input, organizationId: ctx.organization.organizationId, createdById: ctx.caller.userId }, ctx.audit));
