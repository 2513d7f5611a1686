import { byProviderConnection, organizationResourceProcedure } from "../../procedures.ts";
import { providerTestResult, testProviderConnection } from "../../services/models/connections.ts";

/** "Test connection": asks the provider for its models with the stored key; a failure is an answer, not an error. */
export const test = organizationResourceProcedure("organization.providers.manage", byProviderConnection)
  .output(providerTestResult)
  .mutation(async ({ ctx, input }) => {
    const result = await testProviderConnection(ctx, input.id);
    // Its outcome is stored on the connection (a run naming none may choose the only one that passed its test).
    // Other processes hear of it from the database trigger (run-connections); this one at once, so a run
    // starting before its own notification comes back does not use the old connection.
    ctx.runtime.invalidate("run-connections");
    return result;
  });
