import { teamNameForm } from "@promptly/shared";
import { byOrganizationId, organizationResourceProcedure } from "../../procedures.ts";
import { createTeam, teamListItem } from "../../services/organizations/teams.ts";

/** The creator becomes the team's admin. */
export const create = organizationResourceProcedure("team.create", byOrganizationId)
  .input(teamNameForm)
  .output(teamListItem)
  .mutation(({ ctx, input }) =>
    createTeam(ctx.db, { organizationId: ctx.organization.organizationId, name: input.name, creatorId: ctx.caller.userId }, ctx.audit),
  );
