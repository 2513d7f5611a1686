import { router } from "../../trpc.ts";
import { add } from "./add.ts";
import { list } from "./list.ts";
import { remove } from "./remove.ts";
import { updateRole } from "./update-role.ts";

export const organizationMembersRouter = router({ list, add, updateRole, remove });
