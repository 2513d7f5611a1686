// Password strength: weights, bands, feedback texts and the settings meter's colours.

export type PasswordStrengthBand = "none" | "weak" | "moderate" | "strong" | "very-strong";
export type MeterColor = "red" | "yellow" | "blue" | "green";

export interface PasswordStrength {
  /** 0 to 100. */
  score: number;
  band: PasswordStrengthBand;
  feedback: string;
  color: MeterColor;
}

export const PASSWORD_FEEDBACK = {
  none: "No password provided.",
  weak: "Weak password. Consider using a longer password with letters, numbers, and special characters.",
  moderate: "Moderate password. Add more complexity for better security.",
  strong: "Strong password.",
  "very-strong": "Very strong password!",
} as const satisfies Record<PasswordStrengthBand, string>;

/** Password strength: 20 for length over 8, 10 more over 12, 15 each for upper, lower and digit, 25 for a special character. */
export function passwordScore(password: string): number {
  let score = 0;
  if (password.length > 8) score += 20;
  if (password.length > 12) score += 10;
  if (/[A-Z]/.test(password)) score += 15;
  if (/[a-z]/.test(password)) score += 15;
  if (/[0-9]/.test(password)) score += 15;
  if (/[^A-Za-z0-9]/.test(password)) score += 25;
  return score;
}

/** Bands: below 30 weak, below 60 moderate, below 80 strong, otherwise very strong. */
export function passwordBand(score: number): Exclude<PasswordStrengthBand, "none"> {
  if (score < 30) return "weak";
  if (score < 60) return "moderate";
  if (score < 80) return "strong";
  return "very-strong";
}

/** The settings meter: red below 30, yellow from 30, blue from 60, green from 80. */
export function passwordMeterColor(score: number): MeterColor {
  if (score >= 80) return "green";
  if (score >= 60) return "blue";
  if (score >= 30) return "yellow";
  return "red";
}

export function passwordStrength(password: string | null | undefined): PasswordStrength {
  if (!password) return { score: 0, band: "none", feedback: PASSWORD_FEEDBACK.none, color: "red" };
  const score = passwordScore(password);
  const band = passwordBand(score);
  return { score, band, feedback: PASSWORD_FEEDBACK[band], color: passwordMeterColor(score) };
}
