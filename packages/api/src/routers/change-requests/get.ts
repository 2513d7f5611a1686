import { byChangeRequest, promptProcedure } from "../../procedures.ts";
import { changeRequestDetail, getChangeRequest } from "../../services/reviews/change-requests.ts";

/** The request with both versions for the diff, its reviews, and what the caller may do; readers of the prompt. */
export const get = promptProcedure("read", byChangeRequest)
  .output(changeRequestDetail)
  .query(({ ctx, input }) => getChangeRequest(ctx.db, ctx.prompt, input.id, ctx.now()));
