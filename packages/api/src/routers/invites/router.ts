import { router } from "../../trpc.ts";
import { accept } from "./accept.ts";
import { cancel } from "./cancel.ts";
import { create } from "./create.ts";
import { get } from "./get.ts";
import { listPending } from "./list-pending.ts";
import { mine } from "./mine.ts";

export const invitesRouter = router({ create, listPending, cancel, get, accept, mine });
