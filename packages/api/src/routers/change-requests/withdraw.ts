import { byChangeRequest, promptProcedure } from "../../procedures.ts";
import { withdrawChangeRequest } from "../../services/reviews/change-requests.ts";

/** The author takes their request back (a row rule: the service checks that the caller wrote it). */
export const withdraw = promptProcedure("read", byChangeRequest).mutation(({ ctx, input }) =>
  withdrawChangeRequest(ctx.db, ctx.caller, ctx.prompt, input.id, ctx.now()),
);
