// Procedure builders: the permission a procedure needs is visible where the router wires it.
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { MSG, canCreateTeams, hasAppRole, hasTeamLevel, idSchema, type AppRole, type TeamLevel } from "@promptly/shared";
import { baseProcedure } from "./trpc.ts";
import { loadOrganizationAccess, loadTeamAccess, loadViewer, viewerFromSessionUser } from "./services/access.ts";
import { findMemberOrganizationId } from "./services/organizations.ts";
import { findTeamMemberTeamId } from "./services/teams.ts";
import { findInviteTeamId } from "./services/invites.ts";
import type { Db } from "@promptly/db";

export const publicProcedure = baseProcedure;

/** A signed-in session, even one that still waits for its second factor. */
export const sessionProcedure = baseProcedure.use(({ ctx, next }) => {
  if (!ctx.session || !ctx.user) throw new TRPCError({ code: "UNAUTHORIZED", message: MSG.userNotAuthenticated });
  return next({ ctx: { session: ctx.session, user: ctx.user } });
});

/** A fully signed-in user, with the app role resolved once (spec 4) and put on ctx.viewer. */
export const protectedProcedure = sessionProcedure.use(async ({ ctx, next }) => {
  if (!ctx.session.twoFactorVerified) {
    throw new TRPCError({ code: "UNAUTHORIZED", message: MSG.twoFactorRequired, cause: undefined });
  }
  // The session lookup loaded the profile and role; only a missing role row needs a query (spec 4).
  const viewer = viewerFromSessionUser(ctx.user) ?? (await loadViewer(ctx.db, ctx.user.id));
  return next({ ctx: { viewer: { userId: viewer.userId, role: viewer.role, isSuperUser: viewer.isSuperUser } } });
});

export const superUserProcedure = protectedProcedure.use(({ ctx, next }) => {
  if (!ctx.viewer.isSuperUser) throw new TRPCError({ code: "FORBIDDEN", message: MSG.permissionDenied });
  return next();
});

/** Allowed app roles (a super user always passes). */
export const appRoleProcedure = (allowed: readonly AppRole[], message: string = MSG.permissionDenied) =>
  protectedProcedure.use(({ ctx, next }) => {
    if (!hasAppRole(ctx.viewer, allowed)) throw new TRPCError({ code: "FORBIDDEN", message });
    return next();
  });

const notFound = () => new TRPCError({ code: "NOT_FOUND", message: MSG.notFound });

/**
 * Input carries `organizationId`. Members pass at "member" level, organization admins (and super
 * users) at "admin" level. Outsiders get NOT_FOUND: they must not learn that the organization exists.
 */
export const organizationProcedure = (level: "member" | "admin") =>
  protectedProcedure.input(z.object({ organizationId: idSchema })).use(async ({ ctx, input, next }) => {
    const access = await loadOrganizationAccess(ctx.db, ctx.viewer, input.organizationId);
    if (!access) throw notFound();
    if (level === "admin" && !access.isOrgAdmin) throw new TRPCError({ code: "FORBIDDEN", message: MSG.permissionDenied });
    return next({ ctx: { organization: access } });
  });

/**
 * Input carries the `id` of an organization member row: access is checked on that row's organization
 * exactly as organizationProcedure does. Unknown rows and outsiders get NOT_FOUND; ctx.organization.
 */
export const organizationMemberProcedure = (level: "member" | "admin") =>
  protectedProcedure.input(z.object({ id: idSchema })).use(async ({ ctx, input, next }) => {
    const organizationId = await findMemberOrganizationId(ctx.db, input.id);
    const access = organizationId ? await loadOrganizationAccess(ctx.db, ctx.viewer, organizationId) : null;
    if (!access) throw notFound();
    if (level === "admin" && !access.isOrgAdmin) throw new TRPCError({ code: "FORBIDDEN", message: MSG.permissionDenied });
    return next({ ctx: { organization: access } });
  });

/** Input carries `teamId`; the caller needs the given team level (spec 6). */
export const teamProcedure = (level: TeamLevel) =>
  protectedProcedure.input(z.object({ teamId: idSchema })).use(async ({ ctx, input, next }) => {
    const access = await loadTeamAccess(ctx.db, ctx.viewer, input.teamId);
    if (!access) throw notFound();
    if (!hasTeamLevel(access, level)) throw new TRPCError({ code: "FORBIDDEN", message: MSG.permissionDenied });
    return next({ ctx: { team: access } });
  });

/** protectedProcedure, answering an anonymous caller with the spec's own words for the action. */
export const signedInProcedure = (message: string) =>
  baseProcedure
    .use(({ ctx, next }) => {
      if (!ctx.session || !ctx.user) throw new TRPCError({ code: "UNAUTHORIZED", message });
      return next();
    })
    .concat(protectedProcedure);

/**
 * Create teams (spec 5, 6): input carries `organizationId`, which the caller must see (else
 * NOT_FOUND); administrators, that organization's admins and super users pass. ctx.organization.
 */
export const teamCreatorProcedure = signedInProcedure(MSG.mustBeLoggedInToCreateTeam)
  .input(z.object({ organizationId: idSchema }))
  .use(async ({ ctx, input, next }) => {
    const access = await loadOrganizationAccess(ctx.db, ctx.viewer, input.organizationId);
    if (!access) throw notFound();
    if (!canCreateTeams(ctx.viewer, access.isOrgAdmin)) {
      throw new TRPCError({ code: "FORBIDDEN", message: MSG.mustBeAdminToCreateTeams });
    }
    return next({ ctx: { organization: access } });
  });

/**
 * Input carries the `id` of a team, or of a row that belongs to one (a team member, an invite):
 * `findTeamId` resolves the team, then access is checked exactly as teamProcedure does. ctx.team.
 */
const teamRowProcedure = (level: TeamLevel, findTeamId: (db: Db, id: string) => Promise<string | null>) =>
  protectedProcedure.input(z.object({ id: idSchema })).use(async ({ ctx, input, next }) => {
    const teamId = await findTeamId(ctx.db, input.id);
    const access = teamId ? await loadTeamAccess(ctx.db, ctx.viewer, teamId) : null;
    if (!access) throw notFound();
    if (!hasTeamLevel(access, level)) throw new TRPCError({ code: "FORBIDDEN", message: MSG.permissionDenied });
    return next({ ctx: { team: access } });
  });

/** Input `{ id }` is the team's id. */
export const teamByIdProcedure = (level: TeamLevel) => teamRowProcedure(level, async (_db, id) => id);
/** Input `{ id }` is a team member row's id; the level applies to that member's team. */
export const teamMemberProcedure = (level: TeamLevel) => teamRowProcedure(level, findTeamMemberTeamId);
/** Input `{ id }` is an invite's id; the level applies to the invite's team. */
export const teamInviteProcedure = (level: TeamLevel) => teamRowProcedure(level, findInviteTeamId);

