import { router } from "../../trpc.ts";
import { cancel } from "./cancel.ts";
import { compare } from "./compare.ts";
import { get } from "./get.ts";
import { item } from "./item.ts";
import { latestFor } from "./latest-for.ts";
import { list } from "./list.ts";
import { results } from "./results.ts";
import { retryErrors } from "./retry-errors.ts";
import { start } from "./start.ts";

/** Evaluations: a prompt's test cases run in bulk against its versions, their progress, results and comparisons. */
export const evaluationsRouter = router({ start, cancel, retryErrors, get, list, results, item, compare, latestFor });
