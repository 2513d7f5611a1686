import { z } from "zod";
import { listChangeRequestsInput } from "@promptly/shared";
import { protectedProcedure } from "../../procedures.ts";
import { changeRequestItem, listChangeRequests } from "../../services/reviews/change-requests.ts";

/** Requests on the prompts the caller may read (of a team, of a prompt), newest first. */
export const list = protectedProcedure
  .input(listChangeRequestsInput)
  .output(z.array(changeRequestItem))
  .query(({ ctx, input }) => listChangeRequests(ctx.db, ctx.caller, input));
