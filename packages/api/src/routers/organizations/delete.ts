import { z } from "zod";
import { idSchema } from "@promptly/shared";
import { appProcedure } from "../../procedures.ts";
import { deleteOrganization } from "../../services/organizations/organizations.ts";

/** Deletes an organization with its members and teams. Super users only. */
export const remove = appProcedure("organization.manage")
  .input(z.object({ id: idSchema }))
  .output(z.object({ id: z.string() }))
  .mutation(async ({ ctx, input }) => {
    await deleteOrganization(ctx.db, input.id, ctx.audit);
    return { id: input.id };
  });
