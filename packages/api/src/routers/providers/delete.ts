import { z } from "zod";
import { byProviderConnection, changesRunConnections, organizationResourceProcedure } from "../../procedures.ts";
import { deleteProviderConnection } from "../../services/models/connections.ts";

export const remove = organizationResourceProcedure("organization.providers.manage", byProviderConnection)
  .use(changesRunConnections)
  .output(z.object({ ok: z.literal(true) }))
  .mutation(async ({ ctx, input }) => {
    await deleteProviderConnection(ctx.db, input.id, ctx.audit);
    return { ok: true as const };
  });
