// Avatar files: recognised by their leading bytes (never by name or declared type),
// bounded in bytes and pixels, and re-encoded so nothing but pixels survives (no EXIF, no GPS).
import type { Metadata } from "sharp";
import {
  AVATAR_ERROR_REASON, AVATAR_MAX_BYTES, AVATAR_MAX_DIMENSION, SETTINGS_MSG, detectImageFormat, type AvatarFormat,
} from "@promptly/shared";
import { fail } from "../../errors.ts";

const CONTENT_TYPES: Record<AvatarFormat, string> = {
  png: "image/png",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
};
const EXTENSIONS: Record<AvatarFormat, string> = { png: "png", jpeg: "jpg", gif: "gif", webp: "webp" };

export interface ProcessedAvatar {
  body: Buffer;
  contentType: string;
  extension: string;
}

const avatarError = (message: string): never => fail("INVALID", message, AVATAR_ERROR_REASON);

/** Checks an uploaded avatar and re-encodes it; throws BAD_REQUEST with a clear message otherwise. */
export async function processAvatar(bytes: Buffer): Promise<ProcessedAvatar> {
  if (bytes.length === 0) avatarError(SETTINGS_MSG.avatarUnreadable);
  if (bytes.length > AVATAR_MAX_BYTES) avatarError(SETTINGS_MSG.avatarTooLarge);
  const format = detectImageFormat(bytes);
  if (!format) return avatarError(SETTINGS_MSG.avatarType);

  // limitInputPixels stops a decompression bomb before it is decoded; the header is read first.
  const maxPixels = AVATAR_MAX_DIMENSION * AVATAR_MAX_DIMENSION;
  // libvips costs the process about 28 MB of memory: loaded by the first upload, not at start-up.
  const { default: sharp } = await import("sharp");
  let metadata: Metadata;
  try {
    metadata = await sharp(bytes, { limitInputPixels: maxPixels }).metadata();
  } catch {
    return avatarError(SETTINGS_MSG.avatarUnreadable);
  }
  if (metadata.format !== format) avatarError(SETTINGS_MSG.avatarUnreadable);
  const width = metadata.width ?? 0;
  const height = metadata.pageHeight ?? metadata.height ?? 0;
  if (!width || !height) avatarError(SETTINGS_MSG.avatarUnreadable);
  if (width > AVATAR_MAX_DIMENSION || height > AVATAR_MAX_DIMENSION) avatarError(SETTINGS_MSG.avatarTooManyPixels);

  let body: Buffer;
  try {
    // First frame only; rotate() applies the EXIF orientation before the metadata is dropped
    // (sharp writes no metadata unless asked to).
    const image = sharp(bytes, { limitInputPixels: maxPixels }).rotate();
    body = await (format === "png"
      ? image.png()
      : format === "jpeg"
        ? image.jpeg({ quality: 90, mozjpeg: true })
        : format === "gif"
          ? image.gif()
          : image.webp({ quality: 90 })
    ).toBuffer();
  } catch {
    return avatarError(SETTINGS_MSG.avatarUnreadable);
  }
  return { body, contentType: CONTENT_TYPES[format], extension: EXTENSIONS[format] };
}

/** avatars/{userId}-{timestamp}.{ext}: a new key per upload, so caches never go stale. */
export const avatarKey = (userId: string, now: Date, extension: string) => `avatars/${userId}-${now.getTime()}.${extension}`;

/**
 * The content type of an avatar file name as avatarKey writes it ({userId}-{timestamp}.{ext}), or null
 * for anything else. The type follows the extension: both were written after re-encoding the image.
 */
export function avatarFileContentType(file: string): string | null {
  const match = /^[0-9a-f-]{36}-\d{10,16}\.([a-z]+)$/.exec(file);
  const format = (Object.keys(EXTENSIONS) as AvatarFormat[]).find((f) => EXTENSIONS[f] === match?.[1]);
  return format ? CONTENT_TYPES[format] : null;
}
