import { router } from "../../trpc.ts";
import { create } from "./create.ts";
import { remove } from "./delete.ts";
import { setDefault } from "./set-default.ts";
import { list } from "./list.ts";
import { prices, setPrice } from "./prices.ts";
import { test } from "./test.ts";
import { update } from "./update.ts";

/** Model provider connections of an organization (organization admins). */
export const providersRouter = router({ create, list, update, delete: remove, test, prices, setPrice, setDefault });
