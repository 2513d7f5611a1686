// The signed-in user's own profile: full name, username, avatar; the email is read-only.
import { z } from "zod";
import { isUniqueViolation } from "@promptly/db";
import { AVATAR_ERROR_REASON, SETTINGS_MSG, type AvatarUpload } from "@promptly/shared";
import type { ApiServices } from "../types.ts";
import { fail } from "../../errors.ts";
import { avatarUrl } from "./account.ts";
import { avatarKey, processAvatar } from "./avatars.ts";

export const ownProfile = z.object({
  email: z.string(),
  fullName: z.string().nullable(),
  username: z.string().nullable(),
  avatarUrl: z.string().nullable(),
});
export type OwnProfile = z.infer<typeof ownProfile>;

export async function getOwnProfile(db: ApiServices["db"], userId: string): Promise<OwnProfile> {
  const user = await db.user.findUniqueOrThrow({
    where: { id: userId },
    select: { email: true, profile: { select: { fullName: true, username: true, avatarKey: true } } },
  });
  return {
    email: user.email,
    fullName: user.profile?.fullName ?? null,
    username: user.profile?.username ?? null,
    avatarUrl: avatarUrl(user.profile?.avatarKey),
  };
}

export interface ProfileUpdate {
  fullName: string;
  username: string;
  avatar?: AvatarUpload;
}

/**
 * Saves name, username and (optionally) a new avatar. The avatar is checked and stored before the
 * profile row changes, so any failure leaves the old avatar in place.
 */
export async function updateOwnProfile(
  services: Pick<ApiServices, "db" | "storage" | "now">,
  userId: string,
  update: ProfileUpdate,
): Promise<OwnProfile> {
  const { db, storage } = services;
  const fullName = update.fullName.trim() || null;
  const username = update.username.trim() || null;

  if (username) {
    const holder = await db.profile.findUnique({ where: { username }, select: { userId: true } });
    if (holder && holder.userId !== userId) fail("ALREADY_EXISTS", SETTINGS_MSG.usernameTaken);
  }

  let newKey: string | undefined;
  if (update.avatar) {
    const avatar = await processAvatar(Buffer.from(update.avatar.dataBase64, "base64"));
    newKey = avatarKey(userId, services.now(), avatar.extension);
    try {
      await storage.put(newKey, avatar.body, avatar.contentType);
    } catch {
      fail("UNAVAILABLE", SETTINGS_MSG.avatarStorageFailed, AVATAR_ERROR_REASON);
    }
  }

  let oldKey: string | null = null;
  try {
    await db.$transaction(async (tx) => {
      const current = await tx.profile.findUnique({ where: { userId }, select: { avatarKey: true } });
      oldKey = current?.avatarKey ?? null;
      const data = { fullName, username, ...(newKey ? { avatarKey: newKey } : {}) };
      await tx.profile.upsert({ where: { userId }, create: { userId, ...data }, update: data });
    });
  } catch (error) {
    if (newKey) await storage.remove(newKey).catch(() => undefined);
    if (isUniqueViolation(error)) fail("ALREADY_EXISTS", SETTINGS_MSG.usernameTaken);
    throw error;
  }
  // The replaced file is no longer referenced; losing this cleanup only leaves an orphan object.
  if (newKey && oldKey && oldKey !== newKey) await storage.remove(oldKey).catch(() => undefined);
  return getOwnProfile(db, userId);
}
