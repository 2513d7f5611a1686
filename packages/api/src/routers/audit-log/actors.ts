import { z } from "zod";
import { byOrganizationId, organizationResourceProcedure } from "../../procedures.ts";
import { auditActor, listAuditActors } from "../../services/insight/audit-log.ts";

/** Everyone (people, API keys, the command line) with an event in the organization's log: the actor filter. */
export const actors = organizationResourceProcedure("audit.read", byOrganizationId)
  .output(z.array(auditActor))
  .query(({ ctx }) => listAuditActors(ctx.db, ctx.organization.organizationId));
