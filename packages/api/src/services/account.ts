// The signed-in person as the app shows them (auth.me).
import type { AppRole } from "@promptly/shared";

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
