import { updateProviderInput } from "@promptly/shared";
import { byProviderConnection, changesRunConnections, organizationResourceProcedure } from "../../procedures.ts";
import { providerConnectionItem, updateProviderConnection } from "../../services/models/connections.ts";

/** Changes what the input names; a new key replaces the stored one, which is never read back. */
export const update = organizationResourceProcedure("organization.providers.manage", byProviderConnection)
  .use(changesRunConnections)
  .input(updateProviderInput)
  .output(providerConnectionItem)
  .mutation(({ ctx, input }) => updateProviderConnection(ctx, input, ctx.audit));
