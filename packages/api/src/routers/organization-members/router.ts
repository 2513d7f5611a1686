import { router } from "../../trpc.ts";

export const organizationMembersRouter = router({});
