import { byProviderConnection, changesRunConnections, organizationResourceProcedure } from "../../procedures.ts";
import { providerTestResult, testProviderConnection } from "../../services/models/connections.ts";

/** "Test connection": asks the provider for its models with the stored key; a failure is an answer, not an error. */
export const test = organizationResourceProcedure("organization.providers.manage", byProviderConnection)
  .use(changesRunConnections)
  .output(providerTestResult)
  .mutation(({ ctx, input }) => testProviderConnection(ctx, input.id));
