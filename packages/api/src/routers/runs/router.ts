import { router } from "../../trpc.ts";
import { get } from "./get.ts";
import { list } from "./list.ts";
import { models } from "./models.ts";
import { stats } from "./stats.ts";

/** The recorded runs of a prompt and their figures per version. */
export const runsRouter = router({ list, get, stats, models });
