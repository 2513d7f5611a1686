import { router } from "./trpc.ts";
import { authRouter } from "./routers/auth/router.ts";
import { healthRouter } from "./routers/health/router.ts";
import { invitesRouter } from "./routers/invites/router.ts";
import { organizationInvitesRouter } from "./routers/organization-invites/router.ts";
import { organizationMembersRouter } from "./routers/organization-members/router.ts";
import { organizationsRouter } from "./routers/organizations/router.ts";
import { profileRouter } from "./routers/profile/router.ts";
import { securityRouter } from "./routers/security/router.ts";
import { teamMembersRouter } from "./routers/team-members/router.ts";
import { teamsRouter } from "./routers/teams/router.ts";
import { promptsRouter } from "./routers/prompts/router.ts";
import { promptVersionsRouter } from "./routers/prompt-versions/router.ts";
import { promptLabelsRouter } from "./routers/prompt-labels/router.ts";
import { bookmarksRouter } from "./routers/bookmarks/router.ts";
import { ratingsRouter } from "./routers/ratings/router.ts";
import { dashboardRouter } from "./routers/dashboard/router.ts";
import { apiKeysRouter } from "./routers/api-keys/router.ts";
import { providersRouter } from "./routers/providers/router.ts";
import { playgroundRouter } from "./routers/playground/router.ts";
import { runsRouter } from "./routers/runs/router.ts";
import { evaluationsRouter } from "./routers/evaluations/router.ts";
import { commentsRouter } from "./routers/comments/router.ts";
import { changeRequestsRouter } from "./routers/change-requests/router.ts";
import { notificationsRouter } from "./routers/notifications/router.ts";
import { analyticsRouter } from "./routers/analytics/router.ts";
import { libraryRouter } from "./routers/library/router.ts";
import { auditLogRouter } from "./routers/audit-log/router.ts";
import { usersRouter } from "./routers/users/router.ts";
import { scoresRouter } from "./routers/scores/router.ts";
import { testCasesRouter } from "./routers/test-cases/router.ts";
import { webhooksRouter } from "./routers/webhooks/router.ts";
import { productionRouter } from "./routers/production/router.ts";

export const appRouter = router({
  health: healthRouter,
  auth: authRouter,
  organizations: organizationsRouter,
  organizationMembers: organizationMembersRouter,
  organizationInvites: organizationInvitesRouter,
  teams: teamsRouter,
  teamMembers: teamMembersRouter,
  invites: invitesRouter,
  profile: profileRouter,
  security: securityRouter,
  prompts: promptsRouter,
  promptVersions: promptVersionsRouter,
  promptLabels: promptLabelsRouter,
  bookmarks: bookmarksRouter,
  ratings: ratingsRouter,
  dashboard: dashboardRouter,
  apiKeys: apiKeysRouter,
  providers: providersRouter,
  playground: playgroundRouter,
  runs: runsRouter,
  evaluations: evaluationsRouter,
  comments: commentsRouter,
  changeRequests: changeRequestsRouter,
  notifications: notificationsRouter,
  analytics: analyticsRouter,
  library: libraryRouter,
  auditLog: auditLogRouter,
  users: usersRouter,
  scores: scoresRouter,
  webhooks: webhooksRouter,
  testCases: testCasesRouter,
  production: productionRouter,
});

export type AppRouter = typeof appRouter;
