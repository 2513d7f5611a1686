// Procedure builders: the permission a procedure needs is visible where the router wires it.
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { MSG, hasAppRole, hasTeamLevel, idSchema, type AppRole, type TeamLevel } from "@promptly/shared";
import { baseProcedure, middleware } from "./trpc.ts";
import { loadOrganizationAccess, loadTeamAccess, loadViewer } from "./services/access.ts";

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
  const { roleCreated: _, ...viewer } = await loadViewer(ctx.db, ctx.user.id);
  return next({ ctx: { viewer } });
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

/** Input carries `teamId`; the caller needs the given team level (spec 6). */
export const teamProcedure = (level: TeamLevel) =>
  protectedProcedure.input(z.object({ teamId: idSchema })).use(async ({ ctx, input, next }) => {
    const access = await loadTeamAccess(ctx.db, ctx.viewer, input.teamId);
    if (!access) throw notFound();
    if (!hasTeamLevel(access, level)) throw new TRPCError({ code: "FORBIDDEN", message: MSG.permissionDenied });
    return next({ ctx: { team: access } });
  });

export { middleware };
