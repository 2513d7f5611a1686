import { router } from "../../trpc.ts";
import { create } from "./create.ts";
import { remove } from "./remove.ts";

/** Scores people give in the app: a thumbs up or down on a generation or a run, one per person, which they can change or remove. */
export const scoresRouter = router({ create, remove });
