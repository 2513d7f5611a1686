import { setAppRoleInput } from "@promptly/shared";
import { appProcedure } from "../../procedures.ts";
import { appRoleChange, setAppRole as setAppRoleOf } from "../../services/identity/app-roles.ts";

/** Super users only: a person's app role; the last super user cannot be demoted. */
export const setAppRole = appProcedure("user.appRole.manage")
  .input(setAppRoleInput)
  .output(appRoleChange)
  .mutation(({ ctx, input }) => setAppRoleOf(ctx.db, input, ctx.audit));
