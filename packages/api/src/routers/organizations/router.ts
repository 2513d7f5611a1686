import { router } from "../../trpc.ts";
import { create } from "./create.ts";
import { remove } from "./delete.ts";
import { get } from "./get.ts";
import { isAdmin } from "./is-admin.ts";
import { list } from "./list.ts";
import { settings, updateSettings } from "./settings.ts";
import { update } from "./update.ts";

export const organizationsRouter = router({ list, get, isAdmin, create, update, settings, updateSettings, delete: remove });
