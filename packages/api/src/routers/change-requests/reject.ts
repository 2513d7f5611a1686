import { rejectChangeRequestInput } from "@promptly/shared";
import { byChangeRequest, promptProcedure } from "../../procedures.ts";
import { changeRequestDecision, rejectChangeRequest } from "../../services/reviews/change-requests.ts";

/** Team admin level, with a comment saying why; never the request's author (they withdraw it). */
export const reject = promptProcedure("label.protected", byChangeRequest)
  .input(rejectChangeRequestInput)
  .output(changeRequestDecision)
  .mutation(({ ctx, input }) => rejectChangeRequest(ctx.db, ctx.caller, ctx.prompt, input.id, input.comment, ctx.now(), ctx.audit));
