import { byTeam, teamResourceProcedure } from "../../procedures.ts";
import { teamReviewers, teamReviewersAnswer } from "../../services/reviews/change-requests.ts";

/** Who may approve the team's change requests (its admins, its organization's admins), for anyone who may read the team. */
export const reviewers = teamResourceProcedure("team.read", byTeam)
  .output(teamReviewersAnswer)
  .query(({ ctx }) => teamReviewers(ctx.db, ctx.team.teamId));
