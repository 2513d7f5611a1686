import { createProviderInput } from "@promptly/shared";
import { byOrganizationId, organizationResourceProcedure } from "../../procedures.ts";
import { createProviderConnection, providerConnectionItem } from "../../services/models/connections.ts";

/** A new connection; its key is sealed at once and never shown again (the list shows its last four characters). */
export const create = organizationResourceProcedure("organization.providers.manage", byOrganizationId)
  .input(createProviderInput)
  .output(providerConnectionItem)
  .mutation(async ({ ctx, input }) => {
    const created = await createProviderConnection(ctx, { ...input, organizationId: ctx.organization.organizationId, createdById: ctx.caller.userId }, ctx.audit);
    // Other processes hear of it from the database trigger (run-connections); this one at once, so a run
    // starting before its own notification comes back does not use the old connection.
    ctx.runtime.invalidate("run-connections");
    return created;
  });
