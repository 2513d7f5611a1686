import { z } from "zod";
import { inviteInput, TEAM_ROLES } from "@promptly/shared";
import { teamProcedure } from "../../procedures.ts";
import { createInvite } from "../../services/invites.ts";
import { pendingInviteItem } from "./list-pending.ts";

const createInviteOutput = z.discriminatedUnion("status", [
  z.object({
    status: z.literal("added"),
    userId: z.string(),
    email: z.string(),
    role: z.enum(TEAM_ROLES),
    addedToOrganization: z.boolean(),
  }),
  z.object({ status: z.literal("invited"), invite: pendingInviteItem, emailSent: z.boolean(), resent: z.boolean() }),
]);

/** Adds an existing account at once, else stores a pending invite and emails its link (spec 4). */
export const create = teamProcedure("admin")
  .input(inviteInput)
  .output(createInviteOutput)
  .mutation(({ ctx, input }) =>
    createInvite(
      { db: ctx.db, mailer: ctx.mailer, appUrl: ctx.config.appUrl, now: ctx.now },
      { teamId: ctx.team.teamId, email: input.email, role: input.role, inviterId: ctx.viewer.userId },
    ),
  );
