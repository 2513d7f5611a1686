import { z } from "zod";
import { byOrganizationId, organizationResourceProcedure } from "../../procedures.ts";
import { listProviderConnections, providerConnectionItem } from "../../services/models/connections.ts";

/** The organization's connections, by name, without their keys. */
export const list = organizationResourceProcedure("organization.providers.manage", byOrganizationId)
  .output(z.array(providerConnectionItem))
  .query(({ ctx }) => listProviderConnections(ctx.db, ctx.organization.organizationId));
