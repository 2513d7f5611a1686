import { z } from "zod";
import { organizationProcedure } from "../../procedures.ts";

/** Organization admin status of the caller (a super user always is). Non-members get NOT_FOUND. */
export const isAdmin = organizationProcedure("member")
  .output(z.boolean())
  .query(({ ctx }) => ctx.organization.isOrgAdmin);
