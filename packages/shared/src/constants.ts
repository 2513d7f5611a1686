// Business constants of spec section 9, shared by the server and the web app.

export const APP_ROLES = ["administrator", "team_lead", "user", "super-user"] as const;
export type AppRole = (typeof APP_ROLES)[number];

export const TEAM_ROLES = ["admin", "editor", "viewer"] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

export const ORGANIZATION_ROLES = ["admin", "member"] as const;
export type OrganizationRole = (typeof ORGANIZATION_ROLES)[number];

export const ORGANIZATION_NAME_MIN = 3;
export const ORGANIZATION_NAME_MAX = 50;
export const ORGANIZATION_SLUG_MIN = 3;
export const ORGANIZATION_SLUG_MAX = 50;

export const CREATOR_ROLE_ORGANIZATION: OrganizationRole = "admin";
export const CREATOR_ROLE_TEAM: TeamRole = "admin";
export const DEFAULT_ORGANIZATION_MEMBER_ROLE: OrganizationRole = "member";

export const PASSWORD_MIN_SIGN_UP = 6;
export const PASSWORD_MIN_CHANGE = 8;
/** Upper bound so a hash request cannot be used to burn CPU. */
export const PASSWORD_MAX = 256;
export const EMAIL_MAX = 254;
export const NAME_MAX = 100;
export const TEAM_NAME_MAX = 100;

export const TWO_FACTOR_CODE_LENGTH = 6;
export const SESSION_TIMEOUT_MIN = 5;
export const SESSION_TIMEOUT_MAX = 120;
/** Absolute lifetime of a session, whatever its activity. */
export const SESSION_MAX_AGE_DAYS = 30;

export const SIGN_UP_REDIRECT_DELAY_MS = 3000;
export const LOGIN_HISTORY_SIZE = 5;
export const MOBILE_BREAKPOINT_PX = 768;

export const SIDEBAR_COOKIE_NAME = "sidebar_state";
export const SIDEBAR_COOKIE_MAX_AGE_SECONDS = 60 * 60 * 24 * 7;
export const SIDEBAR_WIDTH = "16rem";
export const SIDEBAR_WIDTH_MOBILE = "18rem";
export const SIDEBAR_WIDTH_COLLAPSED = "3rem";

export const TOAST_LIMIT = 3;
export const TOAST_DURATION_MS = 4500;
export const TOOLTIP_DELAY_MS = 700;
export const QUERY_GC_TIME_MS = 5 * 60 * 1000;
export const QUERY_RETRIES = 3;
export const QUERY_RETRY_DELAY_MAX_MS = 30_000;

export const MAGIC_LINK_TTL_MINUTES = 15;
export const PASSWORD_RESET_TTL_MINUTES = 60;
export const EMAIL_VERIFICATION_TTL_HOURS = 24;
export const INVITE_TTL_DAYS = 7;

export const AVATAR_BUCKET = "user-avatars";
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
export const AVATAR_MAX_DIMENSION = 4096;

export const UNKNOWN_LOCATION = "Unknown Location";
