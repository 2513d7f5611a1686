import { z } from "zod";
import { idSchema } from "@promptly/shared";
import { byOrganizationId, organizationResourceProcedure } from "../../procedures.ts";
import { setOrganizationDefaultConnection } from "../../services/models/connections.ts";

/** The organization's default connection (null: none), used by its teams' runs that name none and whose team has none. */
export const setDefault = organizationResourceProcedure("organization.providers.manage", byOrganizationId)
  .input(z.object({ organizationId: idSchema, connectionId: idSchema.nullable() }))
  .output(z.object({ connectionId: z.string().nullable() }))
  .mutation(async ({ ctx, input }) => {
    const set = await setOrganizationDefaultConnection(ctx.db, ctx.organization.organizationId, input.connectionId, ctx.audit);
    // Other processes hear of it from the database trigger (run-connections); this one at once, so a run
    // starting before its own notification comes back does not use the old connection.
    ctx.runtime.invalidate("run-connections");
    return set;
  });
