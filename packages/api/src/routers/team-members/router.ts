import { router } from "../../trpc.ts";

export const teamMembersRouter = router({});
