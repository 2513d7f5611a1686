import { z } from "zod";
import { addOrganizationMemberForm } from "@promptly/shared";
import { organizationProcedure } from "../../procedures.ts";
import { addOrganizationMember } from "../../services/organizations.ts";
import { organizationMemberItem } from "./list.ts";

/** Adds an existing account by email; someone already in the organization stays as they are. */
export const add = organizationProcedure("admin")
  .input(addOrganizationMemberForm)
  .output(z.object({ member: organizationMemberItem, added: z.boolean() }))
  .mutation(({ ctx, input }) =>
    addOrganizationMember(ctx.db, { organizationId: ctx.organization.organizationId, email: input.email, role: input.role }),
  );
