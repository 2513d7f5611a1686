import { router } from "../../trpc.ts";
import { compare } from "./compare.ts";
import { generation } from "./generation.ts";
import { generations } from "./generations.ts";
import { metrics } from "./metrics.ts";
import { onlineEvaluation } from "./online-evaluation.ts";

/** Production: a prompt's figures from its generations in the teams' own code, two versions compared, and the generations themselves. */
export const productionRouter = router({ metrics, compare, generations, generation, onlineEvaluation });
