// Super user status is granted and revoked only from the command line; each change is on the audit trail.
import type { Db } from "@promptly/db";
import { audit } from "../insight/audit.ts";

/** Grants or revokes super user status, with its audit event in the same transaction; no change, no event. */
export async function setSuperUser(db: Db, userId: string, superUser: boolean, now: Date): Promise<void> {
  await db.$transaction(async (tx) => {
    const before = await tx.profile.findUnique({ where: { userId }, select: { superUser: true } });
    if ((before?.superUser ?? false) === superUser) return;
    await tx.profile.upsert({ where: { userId }, create: { userId, superUser }, update: { superUser } });
    await audit(
      tx,
      { organizationId: null, actor: { kind: "cli" }, action: superUser ? "super_user.grant" : "super_user.revoke", target: { type: "user", id: userId }, before: { superUser: !superUser }, after: { superUser } },
      now,
    );
  });
}
