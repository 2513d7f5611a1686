// The signed-in person as the app shows them (auth.me).
import type { DbOrTx } from "@promptly/db";
import type { AppRole } from "@promptly/shared";
import { loadViewer } from "./access.ts";

/** Public URL of a stored avatar; avatars are served by the app under /avatars/. */
export const avatarUrl = (avatarKey: string | null | undefined) => (avatarKey ? `/${avatarKey}` : null);

export interface Me {
  user: { id: string; email: string; emailVerified: boolean; lastSignInAt: Date | null; createdAt: Date };
  profile: { fullName: string | null; username: string | null; avatarUrl: string | null };
  role: AppRole;
  isSuperUser: boolean;
  /** True on the call that created the missing `user` role row (the web shows 'Access level set'). */
  roleCreated: boolean;
}

export async function getMe(db: DbOrTx, userId: string): Promise<Me | null> {
  const [user, viewer] = await Promise.all([
    db.user.findUnique({
      where: { id: userId },
      select: {
        id: true,
        email: true,
        emailVerifiedAt: true,
        lastSignInAt: true,
        createdAt: true,
        profile: { select: { fullName: true, username: true, avatarKey: true } },
      },
    }),
    loadViewer(db, userId),
  ]);
  if (!user) return null;
  return {
    user: {
      id: user.id,
      email: user.email,
      emailVerified: user.emailVerifiedAt !== null,
      lastSignInAt: user.lastSignInAt,
      createdAt: user.createdAt,
    },
    profile: {
      fullName: user.profile?.fullName ?? null,
      username: user.profile?.username ?? null,
      avatarUrl: avatarUrl(user.profile?.avatarKey),
    },
    role: viewer.role,
    isSuperUser: viewer.isSuperUser,
    roleCreated: viewer.roleCreated,
  };
}
