// An organization's own settings, changed by its admins: how many days production generations' own
// rows are kept (housekeeping deletes older ones; their hourly rollups stay, so figures do not change).
import type { Db, DbOrTx } from "@promptly/db";
import type { organizationSettings } from "@promptly/shared";
import type { z } from "zod";
import { fail } from "../../errors.ts";
import { auditAs, type AuditContext } from "../insight/audit.ts";

type OrganizationSettings = z.output<typeof organizationSettings>;

export async function getOrganizationSettings(db: DbOrTx, organizationId: string): Promise<OrganizationSettings> {
  const organization = await db.organization.findUnique({ where: { id: organizationId }, select: { generationRetentionDays: true } });
  if (!organization) return fail("NOT_FOUND", "Organization not found");
  return organization;
}

/** Changes what is given (the rest stays), audited with the values before and after. */
export function updateOrganizationSettings(db: Db, organizationId: string, input: Partial<OrganizationSettings>, context: AuditContext): Promise<OrganizationSettings> {
  return db.$transaction(async (tx) => {
    const before = await getOrganizationSettings(tx, organizationId);
    if (input.generationRetentionDays === undefined || input.generationRetentionDays === before.generationRetentionDays) return before;
    const after = await tx.organization.update({
      where: { id: organizationId }, data: { generationRetentionDays: input.generationRetentionDays }, select: { generationRetentionDays: true },
    });
    await auditAs(tx, context, {
      organizationId,
      action: "organization.settings",
      target: { type: "organization", id: organizationId },
      before,
      after,
    });
    return after;
  });
}
