// changeRequests.*: reviewed promotion to production, and reviewed archiving of a prompt that carries it.
import { router } from "../../trpc.ts";
import { approve } from "./approve.ts";
import { create } from "./create.ts";
import { createArchive } from "./create-archive.ts";
import { evidence } from "./evidence.ts";
import { get } from "./get.ts";
import { list } from "./list.ts";
import { refresh } from "./refresh.ts";
import { reject } from "./reject.ts";
import { withdraw } from "./withdraw.ts";

export const changeRequestsRouter = router({ list, get, evidence, create, createArchive, approve, reject, withdraw, refresh });
