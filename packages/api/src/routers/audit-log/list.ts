import { auditLogListInput } from "@promptly/shared";
import { byOrganizationId, organizationResourceProcedure } from "../../procedures.ts";
import { auditLogPage, listAuditEvents } from "../../services/insight/audit-log.ts";

/** The organization's audit log, newest first, for its admins and super users. */
export const list = organizationResourceProcedure("audit.read", byOrganizationId)
  .input(auditLogListInput)
  .output(auditLogPage)
  .query(({ ctx, input }) => listAuditEvents(ctx.db, input));
