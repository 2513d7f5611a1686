import { z } from "zod";
import { inviteIdInput, ORGANIZATION_ROLES, TEAM_ROLES } from "@promptly/shared";
import { optionalViewerProcedure } from "../../procedures.ts";
import { getInviteSummary } from "../../services/invites.ts";

const inviteSummary = z.object({
  id: z.string(),
  kind: z.enum(["team", "organization"]),
  teamName: z.string().nullable(),
  organizationName: z.string(),
  role: z.enum([...TEAM_ROLES, ...ORGANIZATION_ROLES]),
  email: z.string(),
  emailMatches: z.boolean().nullable(),
  expiresAt: z.date(),
});

/**
 * The accept page: open to whoever holds the link (the id is an unguessable UUID). It shows the team,
 * organization and role; the address in full only to the signed-in person it was sent to.
 */
export const get = optionalViewerProcedure
  .input(inviteIdInput)
  .output(inviteSummary)
  .query(({ ctx, input }) => getInviteSummary(ctx.db, { inviteId: input.id, viewerEmail: ctx.signedInUser?.email ?? null, now: ctx.now() }));
