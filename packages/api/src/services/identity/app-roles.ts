// A person's app role, changed by a super user (the organization members page) or the command line.
// 'super-user' is the super user flag; any other role is the stored role and ends super user status.
// At least one super user always remains, checked on the super users' rows locked for the transaction.
import { z } from "zod";
import type { Db, DbTransaction } from "@promptly/db";
import { APP_ROLES, MSG, resolveAppRole, type AppRole } from "@promptly/shared";
import { fail } from "../../errors.ts";
import { auditAs, type AuditContext } from "../insight/audit.ts";

export const appRoleChange = z.object({ userId: z.string(), role: z.enum(APP_ROLES) });
export type AppRoleChange = z.infer<typeof appRoleChange>;

/**
 * Sets `userId`'s app role as the context's actor: a person must be a super user (checked again under
 * the lock: a concurrent change may have just demoted them); the command line may. Refuses to demote
 * the last super user; no change, no event.
 */
export async function setAppRole(db: Db, input: { userId: string; role: AppRole }, context: AuditContext): Promise<AppRoleChange> {
  const { actor } = context;
  return db.$transaction(async (tx) => {
    const superUsers = await lockSuperUsers(tx);
    if (actor.kind !== "cli" && !(actor.kind === "user" && superUsers.some((row) => row.userId === actor.userId))) fail("FORBIDDEN", MSG.onlySuperUsersChangeAppRoles);
    const user = await tx.user.findUnique({
      where: { id: input.userId },
      select: { email: true, appRole: { select: { role: true } }, profile: { select: { superUser: true } } },
    });
    if (!user) return fail("NOT_FOUND", MSG.notFound);
    const isSuperUser = superUsers.some((row) => row.userId === input.userId);
    const before = resolveAppRole(isSuperUser, user.appRole?.role);
    if (before === input.role) return { userId: input.userId, role: before };
    if (isSuperUser && superUsers.length === 1) fail("STATE_CONFLICT", MSG.lastSuperUser, "LAST_SUPER_USER");
    const superUser = input.role === "super-user";
    await tx.profile.upsert({ where: { userId: input.userId }, create: { userId: input.userId, superUser }, update: { superUser } });
    if (input.role !== "super-user") {
      await tx.userRole.upsert({ where: { userId: input.userId }, create: { userId: input.userId, role: input.role }, update: { role: input.role } });
    }
    await auditAs(tx, context, {
      organizationId: null,
      action: "user.app_role",
      target: { type: "user", id: input.userId, name: user.email },
      before: { role: before },
      after: { role: input.role },
    });
    return { userId: input.userId, role: input.role };
  });
}

/** The super users, their rows locked for the transaction: who is the last one cannot change meanwhile. */
export const lockSuperUsers = (tx: DbTransaction) =>
  tx.$queryRaw<{ userId: string }[]>`SELECT user_id::text AS "userId" FROM profiles WHERE super_user ORDER BY user_id FOR UPDATE`;
