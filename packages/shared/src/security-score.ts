// Security score (maximum 100), its bar colours and the password health advice.
import type { MeterColor } from "./password-strength.ts";

export interface SecurityScoreInput {
  twoFactorEnabled: boolean;
  /** When the password was last set; null when the account has none (magic link only). */
  passwordChangedAt: Date | null;
  sessionTimeoutMinutes: number;
}

/** The score below which the Security page shows its hint. */
export const SECURITY_SCORE_HINT_BELOW = 60;

/** True when `date` lies within the three calendar months before `now`. */
export function isWithinThreeMonths(date: Date, now: Date): boolean {
  const limit = new Date(now);
  limit.setUTCMonth(limit.getUTCMonth() - 3);
  return date.getTime() >= limit.getTime();
}

/**
 * Two-factor +40; password changed within 3 months +30, older +15 (none set: 0);
 * session timeout of 15 minutes or less +30, up to 30 +20, up to 60 +10.
 */
export function securityScore(input: SecurityScoreInput, now: Date): number {
  let score = 0;
  if (input.twoFactorEnabled) score += 40;
  if (input.passwordChangedAt) score += isWithinThreeMonths(input.passwordChangedAt, now) ? 30 : 15;
  if (input.sessionTimeoutMinutes <= 15) score += 30;
  else if (input.sessionTimeoutMinutes <= 30) score += 20;
  else if (input.sessionTimeoutMinutes <= 60) score += 10;
  return score;
}

/** Bar colours: red below 40, yellow from 40, blue from 60, green from 80. */
export function securityScoreColor(score: number): MeterColor {
  if (score >= 80) return "green";
  if (score >= 60) return "blue";
  if (score >= 40) return "yellow";
  return "red";
}

export const SECURITY_SCORE_HINT =
  "Improve your score by enabling two-factor authentication, changing your password regularly and using a shorter session timeout.";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Advice of the 'Password Health Check' toast, from the age of the password. */
export function passwordHealthAdvice(passwordChangedAt: Date | null, now: Date): string {
  if (!passwordChangedAt) {
    return "Your account has no password yet. Set a strong, unique password of at least 12 characters with upper and lower case letters, numbers and symbols.";
  }
  const days = Math.max(0, Math.floor((now.getTime() - passwordChangedAt.getTime()) / DAY_MS));
  const age = days === 0 ? "today" : days === 1 ? "1 day ago" : `${days} days ago`;
  if (!isWithinThreeMonths(passwordChangedAt, now)) {
    return `Your password was last changed ${age}. Consider updating it: use at least 12 characters with upper and lower case letters, numbers and symbols.`;
  }
  return `Your password was last changed ${age}. Keep it unique to this account and change it every few months.`;
}
