// The route table, assembled. Each route lives in its own file; add new ones here.
import { rootRoute } from "./root.tsx";
import { appLayoutRoute, authLayoutRoute, settingsLayoutRoute } from "./layouts.tsx";
import { authIndexRoute } from "./auth/index.tsx";
import { signInRoute } from "./auth/signin.tsx";
import { signUpRoute } from "./auth/signup.tsx";
import { forgotPasswordRoute } from "./auth/forgot-password.tsx";
import { resetPasswordRoute } from "./auth/reset-password.tsx";
import { confirmEmailRoute } from "./auth/confirm-email.tsx";
import { magicLinkRoute } from "./auth/magic-link.tsx";
import { twoFactorRoute } from "./auth/two-factor.tsx";
import { acceptInviteRoute } from "./auth/accept-invite.tsx";
import { signInShortRoute, signUpShortRoute } from "./auth/short-paths.tsx";
import { dashboardRoute } from "./app/dashboard.tsx";
import { analyticsRoute } from "./app/analytics.tsx";
import { bookmarksRoute, newPromptRoute, newVersionRoute, promptRoute, promptsRoute } from "./app/prompts.tsx";
import { teamsRoute } from "./app/teams.tsx";
import { changeRequestRoute } from "./app/reviews.tsx";
import { organizationsRoute } from "./app/organizations.tsx";
import { organizationMembersRoute } from "./app/organization-members.tsx";
import { auditRoute } from "./app/audit.tsx";
import { providersRoute } from "./app/providers.tsx";
import { settingsIndexRoute } from "./settings/index.tsx";
import { settingsProfileRoute } from "./settings/profile.tsx";
import { settingsPasswordRoute } from "./settings/password.tsx";
import { settingsNotificationsRoute } from "./settings/notifications.tsx";
import { settingsSecurityRoute } from "./settings/security.tsx";
import { settingsDebugRoute } from "./settings/debug.tsx";

export const routeTree = rootRoute.addChildren([
  authLayoutRoute.addChildren([
    authIndexRoute,
    signInRoute,
    signUpRoute,
    forgotPasswordRoute,
    resetPasswordRoute,
    confirmEmailRoute,
    magicLinkRoute,
    twoFactorRoute,
    acceptInviteRoute,
  ]),
  signInShortRoute,
  signUpShortRoute,
  appLayoutRoute.addChildren([
    dashboardRoute,
    promptsRoute,
    newPromptRoute,
    promptRoute,
    newVersionRoute,
    bookmarksRoute,
    analyticsRoute,
    teamsRoute,
    organizationsRoute,
    organizationMembersRoute,
    auditRoute,
    providersRoute,
    changeRequestRoute,
  ]),
  settingsLayoutRoute.addChildren([
    settingsIndexRoute,
    settingsProfileRoute,
    settingsPasswordRoute,
    settingsNotificationsRoute,
    settingsSecurityRoute,
    settingsDebugRoute,
  ]),
]);
