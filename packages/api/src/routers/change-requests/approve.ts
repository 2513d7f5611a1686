import { approveChangeRequestInput } from "@promptly/shared";
import { byChangeRequest, promptProcedure } from "../../procedures.ts";
import { approveChangeRequest, changeRequestDecision } from "../../services/reviews/change-requests.ts";

/** Team admin level (the level that moves `production`), never the request's author. */
export const approve = promptProcedure("label.protected", byChangeRequest)
  .input(approveChangeRequestInput)
  .output(changeRequestDecision)
  .mutation(({ ctx, input }) => approveChangeRequest(ctx.db, ctx.caller, ctx.prompt, input.id, input.comment, ctx.now(), ctx.audit));
