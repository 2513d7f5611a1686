import { router } from "../../trpc.ts";
import { actors } from "./actors.ts";
import { forPrompt } from "./for-prompt.ts";
import { list } from "./list.ts";

export const auditLogRouter = router({ list, actors, forPrompt });
