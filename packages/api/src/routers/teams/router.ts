import { router } from "../../trpc.ts";

export const teamsRouter = router({});
