import { updateProfileWithAvatarInput } from "@promptly/shared";
import { protectedProcedure } from "../../procedures.ts";
import { ownProfile, updateOwnProfile } from "../../services/identity/profile.ts";

/** Full name, username and optionally a new avatar (base64, checked and re-encoded on the server). */
export const update = protectedProcedure
  .input(updateProfileWithAvatarInput)
  .output(ownProfile)
  .mutation(({ ctx, input }) => updateOwnProfile(ctx, ctx.caller.userId, input));
