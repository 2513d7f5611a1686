import { router } from "../../trpc.ts";
import { me } from "./me.ts";

export const authRouter = router({ me });
