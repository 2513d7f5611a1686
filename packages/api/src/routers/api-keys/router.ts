import { router } from "../../trpc.ts";
import { create } from "./create.ts";
import { list } from "./list.ts";
import { revoke } from "./revoke.ts";

export const apiKeysRouter = router({ create, list, revoke });
