import { byChangeRequest, promptProcedure } from "../../procedures.ts";
import { getChangeRequestEvidence } from "../../services/reviews/change-requests.ts";
import { changeRequestEvidence } from "../../services/evaluations/evidence.ts";

/** The proposed version's latest evaluation beside production's (on the same cases where one evaluation ran both), and the team's required pass rate; readers of the prompt. */
export const evidence = promptProcedure("read", byChangeRequest)
  .output(changeRequestEvidence)
  .query(({ ctx, input }) => getChangeRequestEvidence(ctx.db, ctx.prompt, input.id));
