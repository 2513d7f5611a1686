import { byChangeRequest, promptProcedure } from "../../procedures.ts";
import { refreshChangeRequest } from "../../services/reviews/change-requests.ts";

/** The author re-bases a stale request on what `production` points at now (its approvals are cleared). */
export const refresh = promptProcedure("write", byChangeRequest).mutation(({ ctx, input }) =>
  refreshChangeRequest(ctx.db, ctx.caller, ctx.prompt, input.id, ctx.now()),
);
