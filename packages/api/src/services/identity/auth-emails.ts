// The emails of the sign-up, sign-in and password-reset flows. Links point at pages that only show a
// button: opening a link (as mail scanners do) consumes nothing.
import { EMAIL_VERIFICATION_TTL_HOURS, MAGIC_LINK_TTL_MINUTES, PASSWORD_RESET_TTL_MINUTES } from "@promptly/shared";
import { renderEmail } from "../platform/emails.ts";

type LinkPage = "confirm-email" | "magic-link" | "reset-password";

const authLink = (appUrl: string, page: LinkPage, token: string) =>
  `${appUrl.replace(/\/+$/, "")}/auth/${page}?token=${encodeURIComponent(token)}`;

export function verificationEmail(appUrl: string, token: string) {
  return renderEmail({
    subject: "Confirm your email address",
    paragraphs: ["Welcome to Promptly! Please confirm your email address to finish creating your account."],
    action: { label: "Confirm email", url: authLink(appUrl, "confirm-email", token) },
    footnote: `This link expires in ${EMAIL_VERIFICATION_TTL_HOURS} hours. If you did not sign up, you can ignore this email.`,
  });
}

/** Sent instead of a verification email when someone signs up with an address that has an account. */
export function alreadyRegisteredEmail(appUrl: string) {
  const base = appUrl.replace(/\/+$/, "");
  return renderEmail({
    subject: "You already have a Promptly account",
    paragraphs: [
      "Someone (hopefully you) tried to create a Promptly account with this email address, but an account already exists.",
      "Sign in with your password or a magic link. If you forgot your password, you can reset it here: " +
        `${base}/auth/forgot-password`,
    ],
    action: { label: "Sign in", url: `${base}/auth/signin` },
    footnote: "If this was not you, you can ignore this email: nothing has changed.",
  });
}

export function magicLinkEmail(appUrl: string, token: string) {
  return renderEmail({
    subject: "Your Promptly sign-in link",
    paragraphs: ["Use the button below to sign in to Promptly. The link works once."],
    action: { label: "Sign in", url: authLink(appUrl, "magic-link", token) },
    footnote: `This link expires in ${MAGIC_LINK_TTL_MINUTES} minutes. If you did not ask for it, you can ignore this email.`,
  });
}

export function passwordResetEmail(appUrl: string, token: string) {
  return renderEmail({
    subject: "Reset your Promptly password",
    paragraphs: ["We received a request to reset the password of your Promptly account."],
    action: { label: "Reset password", url: authLink(appUrl, "reset-password", token) },
    footnote: `This link expires in ${PASSWORD_RESET_TTL_MINUTES} minutes. If you did not ask for it, you can ignore this email.`,
  });
}

