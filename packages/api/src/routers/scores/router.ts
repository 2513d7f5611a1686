import { router } from "../../trpc.ts";
import { create } from "./create.ts";

/** Scores people give in the app: a thumbs up or down on a generation or a run. */
export const scoresRouter = router({ create });
