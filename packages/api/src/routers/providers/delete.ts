import { z } from "zod";
import { byProviderConnection, organizationResourceProcedure } from "../../procedures.ts";
import { deleteProviderConnection } from "../../services/models/connections.ts";

export const remove = organizationResourceProcedure("organization.providers.manage", byProviderConnection)
  .output(z.object({ ok: z.literal(true) }))
  .mutation(async ({ ctx, input }) => {
    await deleteProviderConnection(ctx.db, input.id, ctx.audit);
    // Other processes hear of it from the database trigger (run-connections); this one at once, so a run
    // starting before its own notification comes back does not use the old connection.
    ctx.runtime.invalidate("run-connections");
    return { ok: true as const };
  });
