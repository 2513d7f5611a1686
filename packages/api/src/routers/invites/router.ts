import { router } from "../../trpc.ts";

export const invitesRouter = router({});
