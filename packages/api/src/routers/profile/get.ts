import { z } from "zod";
import { protectedProcedure } from "../../procedures.ts";
import { getOwnProfile } from "../../services/profile.ts";

export const ownProfileOutput = z.object({
  email: z.string(),
  fullName: z.string().nullable(),
  username: z.string().nullable(),
  avatarUrl: z.string().nullable(),
});

/** The caller's own profile (spec 2 Profile). */
export const get = protectedProcedure.output(ownProfileOutput).query(({ ctx }) => getOwnProfile(ctx.db, ctx.viewer.userId));
