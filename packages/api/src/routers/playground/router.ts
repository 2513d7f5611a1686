import { router } from "../../trpc.ts";
import { connections } from "./connections.ts";
import { defaultConnection } from "./default-connection.ts";
import { run } from "./run.ts";
import { stage } from "./stage.ts";

/** Running prompt versions on real models. */
export const playgroundRouter = router({ connections, defaultConnection, run, stage });
