// Account settings: input schemas, defaults and texts shared by the settings pages
// and the profile / security procedures.
import { z } from "zod";
import { AVATAR_MAX_BYTES, AVATAR_MAX_DIMENSION } from "./constants.ts";
import { MSG } from "./messages.ts";
import { plainText, twoFactorCodeSchema, updateProfileInput } from "./validation.ts";

/** Toast titles and descriptions, plus the few texts the spec leaves to us. */
export const SETTINGS_MSG = {
  profileUpdated: "Profile updated",
  profileUpdatedDescription: "Your profile has been successfully updated.",
  profileUpdateError: "Error updating profile",
  avatarUploadError: "Error uploading avatar",
  passwordUpdated: "Password updated",
  passwordUpdatedDescription: "Your password has been updated successfully.",
  passwordUpdateError: "Error updating password",
  passwordUpdateErrorFallback: "An error occurred while updating your password.",
  currentPasswordIncorrect: "Current password is incorrect",
  noPasswordSet: "Your account has no password yet. Use 'Forgot password?' on the sign-in page to set one.",
  notificationsSaved: "Notification settings saved",
  notificationsSavedDescription: "Your notification preferences have been updated.",
  notificationsSaveError: "Error saving notification settings",
  twoFactorEnabled: "Two-factor authentication enabled",
  twoFactorEnabledDescription: "Your account is now more secure.",
  twoFactorDisabled: "Two-factor authentication disabled",
  twoFactorDisabledDescription: "Your account is now less secure.",
  twoFactorEnableError: "Error enabling two-factor authentication",
  twoFactorDisableError: "Error disabling two-factor authentication",
  twoFactorAlreadyEnabled: "Two-factor authentication is already enabled.",
  twoFactorNotEnabled: "Two-factor authentication is not enabled.",
  twoFactorSetupMissing: "Start the two-factor setup again: no pending setup was found.",
  twoFactorLocked: "Too many failed attempts. Code entry is blocked for 30 minutes.",
  invalidRecoveryCode: "Invalid recovery code",
  sessionSaved: "Session settings saved",
  sessionSavedDescription: (minutes: number) => `Your session timeout has been set to ${minutes} minutes.`,
  sessionSaveError: "Error saving session settings",
  passwordHealthCheck: "Password Health Check",
  usernameTaken: "This username is already taken",
  avatarType: "The avatar must be a PNG, JPEG, GIF or WebP image.",
  avatarTooLarge: "The avatar must be 2 MB or smaller.",
  avatarTooManyPixels: `The avatar must be at most ${AVATAR_MAX_DIMENSION}×${AVATAR_MAX_DIMENSION} pixels.`,
  avatarUnreadable: "The avatar file could not be read as an image.",
  avatarStorageFailed: "The avatar could not be stored. Please try again.",
  noLoginActivity: "No recent login activity recorded.",
  noActiveUserSession: "No active user session. Please sign in.",
} as const;

/** Machine-readable reasons on avatar errors, so the page can choose 'Error uploading avatar'. */
export const AVATAR_ERROR_REASON = "AVATAR";

export const AVATAR_CONTENT_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;

export type AvatarFormat = "png" | "jpeg" | "gif" | "webp";
/** How many leading bytes detectImageFormat needs. */
export const IMAGE_SIGNATURE_BYTES = 12;

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((byte, i) => bytes[offset + i] === byte);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/**
 * The image format from a file's leading (magic) bytes, never from its name or declared type;
 * null for anything else, SVG and text included. The server decides; the page mirrors it.
 */
export function detectImageFormat(bytes: Uint8Array): AvatarFormat | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "jpeg";
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return "gif";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "webp";
  return null;
}
/** Base64 of AVATAR_MAX_BYTES, rounded up to whole quads. */
const AVATAR_MAX_BASE64 = Math.ceil(AVATAR_MAX_BYTES / 3) * 4;

const avatarUploadSchema = z.object({
  fileName: plainText().trim().min(1, MSG.required).max(255),
  contentType: plainText().max(100),
  /** The file's bytes, base64 (no data: prefix). */
  dataBase64: z.string().min(1, SETTINGS_MSG.avatarUnreadable).max(AVATAR_MAX_BASE64, SETTINGS_MSG.avatarTooLarge),
});
export type AvatarUpload = z.infer<typeof avatarUploadSchema>;

/** profile.update: the profile fields and, optionally, a new avatar uploaded in the same save. */
export const updateProfileWithAvatarInput = updateProfileInput.extend({ avatar: avatarUploadSchema.optional() });

export const twoFactorCodeInput = z.object({ code: twoFactorCodeSchema });

/** Recovery codes look like "abcde-fghij"; case, spaces and dashes do not matter. */
export const recoveryCodeInput = z.object({
  code: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(64, SETTINGS_MSG.invalidRecoveryCode),
});
export const normalizeRecoveryCode = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, "");

export const NOTIFICATION_DEFAULTS = {
  emailNotifications: true,
  pushNotifications: false,
  inAppNotifications: true,
  marketingEmails: false,
} as const;
