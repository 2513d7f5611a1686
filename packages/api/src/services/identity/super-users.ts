// Super user status is granted and revoked only from the command line; each change is on the audit
// trail, and the last super user is never revoked (as an app role change never demotes them).
import type { Db } from "@promptly/db";
import { MSG } from "@promptly/shared";
import { fail } from "../../errors.ts";
import { audit } from "../insight/audit.ts";
import { lockSuperUsers } from "./app-roles.ts";

/** Grants or revokes super user status, with its audit event in the same transaction; no change, no event. */
export async function setSuperUser(db: Db, userId: string, superUser: boolean, now: Date): Promise<void> {
  await db.$transaction(async (tx) => {
    const superUsers = await lockSuperUsers(tx);
    const before = superUsers.some((row) => row.userId === userId);
    if (before === superUser) return;
    if (before && superUsers.length === 1) fail("STATE_CONFLICT", MSG.lastSuperUser, "LAST_SUPER_USER");
    await tx.profile.upsert({ where: { userId }, create: { userId, superUser }, update: { superUser } });
    await audit(
      tx,
      { organizationId: null, actor: { kind: "cli" }, action: superUser ? "super_user.grant" : "super_user.revoke", target: { type: "user", id: userId }, before: { superUser: !superUser }, after: { superUser } },
      now,
    );
  });
}
