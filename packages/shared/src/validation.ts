// Input schemas shared by forms (web) and procedures (server): one schema, one message.
import { z } from "zod";
import {
  EMAIL_MAX, NAME_MAX, ORGANIZATION_NAME_MAX, ORGANIZATION_NAME_MIN, ORGANIZATION_SLUG_MAX,
  ORGANIZATION_SLUG_MIN, PASSWORD_MAX, PASSWORD_MIN_CHANGE, PASSWORD_MIN_SIGN_UP, SESSION_TIMEOUT_MAX,
  SESSION_TIMEOUT_MIN, TEAM_NAME_MAX, TEAM_ROLES, ORGANIZATION_ROLES, TWO_FACTOR_CODE_LENGTH, APP_ROLES,
} from "./constants.ts";
import { MSG } from "./messages.ts";

/** Emails are compared and stored trimmed and lower-cased. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export const emailSchema = z
  .string({ error: MSG.required })
  .trim()
  .min(1, MSG.required)
  .max(EMAIL_MAX, MSG.invalidEmail)
  .pipe(z.email({ error: MSG.invalidEmail }))
  .transform(normalizeEmail);

/** C0 and C1 control characters and DEL: NUL breaks PostgreSQL text, the others hide or reshape text. */
const CONTROL_CHARACTERS = /[\u0000-\u001F\u007F-\u009F]/;
const hasNoControlCharacters = (value: string) => !CONTROL_CHARACTERS.test(value);

/** Any text field: free of control characters. */
export const plainText = () => z.string().refine(hasNoControlCharacters, MSG.controlCharacters);

/** Text that may span lines (templates, descriptions, commit messages): tabs and line breaks allowed, other control characters not. */
const MULTILINE_CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
export const multilineText = () =>
  z.string().refine((value) => !MULTILINE_CONTROL_CHARACTERS.test(value), MSG.multilineControlCharacters);

const requiredString = (max: number, tooLong: string) => z.string({ error: MSG.required }).min(1, MSG.required).max(max, tooLong);
/** A new password: no control characters (an existing one is checked as it was set, whatever it holds). */
const newPassword = (max: number, tooLong: string) => requiredString(max, tooLong).refine(hasNoControlCharacters, MSG.controlCharacters);

/** Where a person returns after an emailed link: same-origin paths only (checked by safeRedirectPath). */
const redirectToSchema = plainText().max(2000).optional();

const signUpPasswordSchema = newPassword(PASSWORD_MAX, MSG.passwordTooLong).min(
  PASSWORD_MIN_SIGN_UP,
  MSG.passwordMinSignUp,
);

/** The field an issue is about, as the request spelled it ("id", "messages.0.id"). */
const fieldOf = (path: readonly PropertyKey[] | undefined) => (path?.length ? path.map(String).join(".") : "id");

/**
 * An id. A malformed one is answered like an unknown one ("Not found": nothing tells whether it exists);
 * a missing one, or one that is no string, is a mistake in the request, answered naming its field.
 */
export const idSchema = z.uuid({
  error: (issue) =>
    issue.code !== "invalid_type" ? MSG.notFound : issue.input === undefined ? `Field "${fieldOf(issue.path)}" is required` : `Field "${fieldOf(issue.path)}" must be an id (a string)`,
});

/** A person's full name (profile, sign-up): plain text, at most NAME_MAX characters; empty means none. */
const fullNameSchema = plainText().trim().max(NAME_MAX, `Full name cannot exceed ${NAME_MAX} characters`);

// ---- auth ----
// A missing or non-object input is answered like a missing field.
const requiredObject = { error: MSG.required };
export const signInInput = z.object(
  {
    email: emailSchema,
    password: requiredString(PASSWORD_MAX, MSG.passwordTooLong),
    redirectTo: redirectToSchema,
  },
  requiredObject,
);
export const signUpInput = z.object(
  // redirectTo: where the confirmed person returns after signing in (e.g. an invitation); same-origin paths only.
  // fullName: optional; the same rule as the profile's Full Name.
  { email: emailSchema, password: signUpPasswordSchema, fullName: fullNameSchema.optional(), redirectTo: redirectToSchema },
  requiredObject,
);
/**
 * Signing up from an invitation: the invitation's link (its id and the token only the server can make,
 * which the email carried; admins see the id, never the token) proves the address, so the account is
 * confirmed and the invitation accepted at once (auth.signUpWithInvite).
 */
export const signUpWithInviteInput = z.object(
  {
    inviteId: idSchema,
    token: z.string({ error: MSG.inviteNotFound }).min(16, MSG.inviteNotFound).max(200, MSG.inviteNotFound),
    email: emailSchema,
    password: signUpPasswordSchema,
    fullName: fullNameSchema.optional(),
  },
  requiredObject,
);
export const signUpForm = signUpInput
  .extend({ confirmPassword: z.string({ error: MSG.required }).min(1, MSG.required) })
  .refine((v) => v.password === v.confirmPassword, { message: MSG.passwordsDoNotMatch, path: ["confirmPassword"] });
export const emailOnlyInput = z.object({ email: emailSchema, redirectTo: redirectToSchema }, requiredObject);
const tokenSchema = z
  .string({ error: MSG.invalidOrExpiredLink })
  .min(16, MSG.invalidOrExpiredLink)
  .max(200, MSG.invalidOrExpiredLink);
/** An emailed link's token: verifyEmail, signInWithMagicLink. */
export const tokenInput = z.object({ token: tokenSchema }, { error: MSG.invalidOrExpiredLink });
/** Confirming an address; the password only when asked for it (another browser than the sign-up's). */
export const verifyEmailInput = z.object(
  { token: tokenSchema, password: requiredString(PASSWORD_MAX, MSG.passwordTooLong).optional() },
  { error: MSG.invalidOrExpiredLink },
);
export const resetPasswordInput = z.object({ token: tokenSchema, password: signUpPasswordSchema }, { error: MSG.invalidOrExpiredLink });
export const resetPasswordForm = z
  .object({ password: signUpPasswordSchema, confirmPassword: z.string({ error: MSG.required }).min(1, MSG.required) })
  .refine((v) => v.password === v.confirmPassword, { message: MSG.passwordsDoNotMatch, path: ["confirmPassword"] });

export const twoFactorCodeSchema = z
  .string({ error: MSG.enterSixDigitCode })
  .trim()
  .regex(new RegExp(`^\\d{${TWO_FACTOR_CODE_LENGTH}}$`), MSG.enterSixDigitCode);

// ---- account settings ----
export const changePasswordInput = z
  .object({
    currentPassword: z.string({ error: MSG.currentPasswordRequired }).min(1, MSG.currentPasswordRequired).max(PASSWORD_MAX),
    newPassword: z
      .string({ error: MSG.required })
      .min(PASSWORD_MIN_CHANGE, MSG.passwordMinChange)
      .max(PASSWORD_MAX, MSG.passwordTooLong)
      .refine(hasNoControlCharacters, MSG.controlCharacters),
    confirmPassword: z.string({ error: MSG.confirmPasswordRequired }).min(PASSWORD_MIN_CHANGE, MSG.confirmPasswordRequired).max(PASSWORD_MAX, MSG.passwordTooLong),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { message: MSG.passwordsDontMatch, path: ["confirmPassword"] });

export const updateProfileInput = z.object({
  fullName: fullNameSchema,
  username: z
    .string()
    .trim()
    .max(50, "Username cannot exceed 50 characters")
    .regex(/^[a-zA-Z0-9_.-]*$/, "Username can only contain letters, numbers, dots, hyphens and underscores"),
});

export const notificationPreferencesInput = z.object({
  emailNotifications: z.boolean(),
  pushNotifications: z.boolean(),
  inAppNotifications: z.boolean(),
  marketingEmails: z.boolean(),
});

export const sessionTimeoutInput = z.object({
  minutes: z
    .number({ error: MSG.sessionTimeoutRange })
    .int(MSG.sessionTimeoutRange)
    .min(SESSION_TIMEOUT_MIN, MSG.sessionTimeoutRange)
    .max(SESSION_TIMEOUT_MAX, MSG.sessionTimeoutRange),
});

// ---- organizations ----
export const organizationNameSchema = z
  .string({ error: MSG.required })
  .trim()
  .min(ORGANIZATION_NAME_MIN, MSG.organizationNameMin)
  .max(ORGANIZATION_NAME_MAX, MSG.organizationNameMax)
  .refine(hasNoControlCharacters, MSG.controlCharacters);

const organizationSlugSchema = z
  .string()
  .trim()
  .min(ORGANIZATION_SLUG_MIN, MSG.organizationSlugMin)
  .max(ORGANIZATION_SLUG_MAX, MSG.organizationSlugMax)
  .regex(/^[a-z0-9-]+$/, MSG.organizationSlugPattern);

/** An empty slug field means "no slug". */
const optionalSlug = z.preprocess(
  (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
  organizationSlugSchema.optional(),
);

export const createOrganizationInput = z.object({ name: organizationNameSchema, slug: optionalSlug });
export const updateOrganizationInput = z.object({
  id: idSchema,
  name: organizationNameSchema.optional(),
  slug: z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? null : v), organizationSlugSchema.nullable().optional()),
});
/** How long production generations' own rows are kept, in days (their rollups are kept for good). */
const GENERATION_RETENTION = { defaultDays: 90, minDays: 1, maxDays: 3650 } as const;
export const organizationSettings = z.object({
  generationRetentionDays: z.number().int()
    .min(GENERATION_RETENTION.minDays, `Keep generations at least ${GENERATION_RETENTION.minDays} day`)
    .max(GENERATION_RETENTION.maxDays, `Keep generations at most ${GENERATION_RETENTION.maxDays.toLocaleString("en")} days`),
});
export const organizationSettingsInput = organizationSettings.partial().extend({ organizationId: idSchema });
export const organizationRoleSchema = z.enum(ORGANIZATION_ROLES);

// ---- app roles ----
const appRoleSchema = z.enum(APP_ROLES);
/** users.setAppRole: a person's app role ('super-user' grants super user status, any other role revokes it). */
export const setAppRoleInput = z.object({ userId: idSchema, role: appRoleSchema });

// ---- teams ----
export const teamNameSchema = z
  .string({ error: MSG.teamNameRequired })
  .trim()
  .min(1, MSG.teamNameRequired)
  .max(TEAM_NAME_MAX, MSG.teamNameMax)
  .refine(hasNoControlCharacters, MSG.controlCharacters);
export const teamRoleSchema = z.enum(TEAM_ROLES);
