import { router } from "../../trpc.ts";
import { list } from "./list.ts";
import { remove } from "./remove.ts";
import { updateRole } from "./update-role.ts";

export const teamMembersRouter = router({ list, updateRole, remove });
