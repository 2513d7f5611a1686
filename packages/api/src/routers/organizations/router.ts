import { router } from "../../trpc.ts";
import { isAdmin } from "./is-admin.ts";
import { list } from "./list.ts";

export const organizationsRouter = router({ list, isAdmin });
