import { router } from "../../trpc.ts";

export const profileRouter = router({});
