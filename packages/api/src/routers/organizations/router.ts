import { router } from "../../trpc.ts";

export const organizationsRouter = router({});
