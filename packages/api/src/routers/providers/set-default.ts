import { z } from "zod";
import { idSchema } from "@promptly/shared";
import { byOrganizationId, changesRunConnections, organizationResourceProcedure } from "../../procedures.ts";
import { setOrganizationDefaultConnection } from "../../services/models/connections.ts";

/** The organization's default connection (null: none), used by its teams' runs that name none and whose team has none. */
export const setDefault = organizationResourceProcedure("organization.providers.manage", byOrganizationId)
  .use(changesRunConnections)
  .input(z.object({ organizationId: idSchema, connectionId: idSchema.nullable() }))
  .output(z.object({ connectionId: z.string().nullable() }))
  .mutation(({ ctx, input }) => setOrganizationDefaultConnection(ctx.db, ctx.organization.organizationId, input.connectionId, ctx.audit));
