import { router } from "../../trpc.ts";
import { run } from "./run.ts";

/** Running prompt versions on real models. */
export const playgroundRouter = router({ run });
