import { router } from "../../trpc.ts";
import { cancel } from "./cancel.ts";
import { listPending } from "./list-pending.ts";

export const organizationInvitesRouter = router({ listPending, cancel });
