// The emails of the sign-up, sign-in and password-reset flows, and their kinds in the outbox. Links
// point at pages that only show a button: opening a link (as mail scanners do) consumes nothing.
import { EMAIL_VERIFICATION_TTL_HOURS, MAGIC_LINK_TTL_MINUTES, PASSWORD_RESET_TTL_MINUTES } from "@promptly/shared";
import type { DbOrTx } from "@promptly/db";
import { renderEmail } from "../platform/emails.ts";
import { registerMailRenderer } from "../platform/outbox-mail.ts";
import { issueToken } from "./tokens.ts";

type LinkPage = "confirm-email" | "magic-link" | "reset-password";

const authLink = (appUrl: string, page: LinkPage, token: string) =>
  `${appUrl.replace(/\/+$/, "")}/auth/${page}?token=${encodeURIComponent(token)}`;

function verificationEmail(appUrl: string, token: string) {
  return renderEmail({
    subject: "Confirm your email address",
    paragraphs: ["Welcome to Promptly! Please confirm your email address to finish creating your account."],
    action: { label: "Confirm email", url: authLink(appUrl, "confirm-email", token) },
    footnote: `This link expires in ${EMAIL_VERIFICATION_TTL_HOURS} hours. If you did not sign up, you can ignore this email.`,
  });
}

/** Sent instead of a verification email when someone signs up with an address that has an account. */
function alreadyRegisteredEmail(appUrl: string) {
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

function magicLinkEmail(appUrl: string, token: string) {
  return renderEmail({
    subject: "Your Promptly sign-in link",
    paragraphs: ["Use the button below to sign in to Promptly. The link works once."],
    action: { label: "Sign in", url: authLink(appUrl, "magic-link", token) },
    footnote: `This link expires in ${MAGIC_LINK_TTL_MINUTES} minutes. If you did not ask for it, you can ignore this email.`,
  });
}

function passwordResetEmail(appUrl: string, token: string) {
  return renderEmail({
    subject: "Reset your Promptly password",
    paragraphs: ["We received a request to reset the password of your Promptly account."],
    action: { label: "Reset password", url: authLink(appUrl, "reset-password", token) },
    footnote: `This link expires in ${PASSWORD_RESET_TTL_MINUTES} minutes. If you did not ask for it, you can ignore this email.`,
  });
}


// ---- the outbox's kinds of this domain: the link is issued when the mail leaves ----

declare module "../platform/outbox-mail.ts" {
  interface MailPayloads {
    email_verification: { browserHash: string | null; redirectTo: string | null };
    already_registered: Record<string, never>;
    magic_link: { redirectTo: string | null };
    password_reset: Record<string, never>;
  }
}

const MINUTE = 60_000;

const accountOf = (db: DbOrTx, email: string) => db.user.findUnique({ where: { email }, select: { id: true, emailVerifiedAt: true } });

registerMailRenderer("already_registered", (_mail, { config }) => alreadyRegisteredEmail(config.appUrl));

registerMailRenderer("email_verification", async (mail, { db, config, at }) => {
  const user = await accountOf(db, mail.to);
  if (!user || user.emailVerifiedAt) return { skip: "No unconfirmed account has this address" };
  const token = await issueToken(db, {
    userId: user.id,
    purpose: "email_verification",
    ttlMs: EMAIL_VERIFICATION_TTL_HOURS * 60 * MINUTE,
    now: at.now,
    redirectTo: mail.payload.redirectTo,
    browserHash: mail.payload.browserHash,
  });
  return verificationEmail(config.appUrl, token);
});

// Sign-in and reset links are asked for by someone waiting for them: past maxWaitMs, a new one must be asked for.
registerMailRenderer("magic_link", async (mail, { db, config, at }) => {
  const user = await accountOf(db, mail.to);
  if (!user) return { skip: "No account has this address" };
  const token = await issueToken(db, {
    userId: user.id,
    purpose: "magic_link",
    ttlMs: MAGIC_LINK_TTL_MINUTES * MINUTE,
    now: at.now,
    redirectTo: mail.payload.redirectTo,
  });
  return magicLinkEmail(config.appUrl, token);
}, { maxWaitMs: 60 * MINUTE });

registerMailRenderer("password_reset", async (mail, { db, config, at }) => {
  const user = await accountOf(db, mail.to);
  if (!user) return { skip: "No account has this address" };
  const token = await issueToken(db, { userId: user.id, purpose: "password_reset", ttlMs: PASSWORD_RESET_TTL_MINUTES * MINUTE, now: at.now });
  return passwordResetEmail(config.appUrl, token);
}, { maxWaitMs: 2 * 60 * MINUTE });
