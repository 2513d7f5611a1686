import { protectedProcedure } from "../../procedures.ts";
import { getSecurityOverview, securityOverview } from "../../services/identity/security.ts";

/** What the Security page shows: two-factor, session timeout, last 5 sign-ins, password age. */
export const overview = protectedProcedure
  .output(securityOverview)
  .query(({ ctx }) => getSecurityOverview(ctx.db, ctx.caller.userId));
