import { protectedProcedure } from "../../procedures.ts";
import { getOwnProfile, ownProfile } from "../../services/identity/profile.ts";

/** The caller's own profile. */
export const get = protectedProcedure.output(ownProfile).query(({ ctx }) => getOwnProfile(ctx.db, ctx.caller.userId));
