import { z } from "zod";
import { APP_ROLES } from "@promptly/shared";
import { optionalViewerProcedure } from "../../procedures.ts";
import { loadMe } from "../../services/auth.ts";

export const meOutput = z
  .object({
    user: z.object({
      id: z.string(),
      email: z.string(),
      emailVerified: z.boolean(),
      lastSignInAt: z.date().nullable(),
      createdAt: z.date(),
    }),
    profile: z.object({ fullName: z.string().nullable(), username: z.string().nullable(), avatarUrl: z.string().nullable() }),
    role: z.enum(APP_ROLES),
    isSuperUser: z.boolean(),
    roleCreated: z.boolean(),
  })
  .nullable();

/** The signed-in user, or null when signed out (or still waiting for the second factor). */
export const me = optionalViewerProcedure.output(meOutput).query(({ ctx }) => (ctx.signedInUser ? loadMe(ctx.db, ctx.signedInUser) : null));
