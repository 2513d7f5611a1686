import { router } from "../../trpc.ts";
import { setAppRole } from "./set-app-role.ts";

export const usersRouter = router({ setAppRole });
