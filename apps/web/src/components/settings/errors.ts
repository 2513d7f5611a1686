// What a failed settings call tells the person: the server's message, and whether it was about the avatar.
import { AVATAR_ERROR_REASON } from "@promptly/shared";

interface ClientErrorShape {
  message?: string;
  data?: { reason?: string | null; code?: string; httpStatus?: number } | null;
}

export function errorMessage(error: unknown, fallback: string): string {
  const shape = error as ClientErrorShape | null;
  // An HTTP 413 (request too large for the server's JSON limit) has no tRPC message.
  if (shape?.data?.httpStatus === 413) return "The file is too large.";
  return shape?.message?.trim() || fallback;
}

export const isAvatarError = (error: unknown) => (error as ClientErrorShape | null)?.data?.reason === AVATAR_ERROR_REASON;

export const errorCode = (error: unknown) => (error as ClientErrorShape | null)?.data?.code;
