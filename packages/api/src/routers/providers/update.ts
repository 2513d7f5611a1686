import { updateProviderInput } from "@promptly/shared";
import { byProviderConnection, organizationResourceProcedure } from "../../procedures.ts";
import { providerConnectionItem, updateProviderConnection } from "../../services/models/connections.ts";

/** Changes what the input names; a new key replaces the stored one, which is never read back. */
export const update = organizationResourceProcedure("organization.providers.manage", byProviderConnection)
  .input(updateProviderInput)
  .output(providerConnectionItem)
  .mutation(async ({ ctx, input }) => {
    const updated = await updateProviderConnection(ctx, input, ctx.audit);
    // Other processes hear of it from the database trigger (run-connections); this one at once, so a run
    // starting before its own notification comes back does not use the old connection.
    ctx.runtime.invalidate("run-connections");
    return updated;
  });
