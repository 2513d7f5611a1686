import { router } from "../../trpc.ts";
import { create } from "./create.ts";
import { defaultConnection, setDefaultConnection } from "./default-connection.ts";
import { remove } from "./delete.ts";
import { get } from "./get.ts";
import { list } from "./list.ts";
import { rename } from "./rename.ts";
import { reviewers } from "./reviewers.ts";
import { setGenerationText } from "./set-generation-text.ts";
import { updateSettings } from "./update-settings.ts";

export const teamsRouter = router({ list, get, create, rename, updateSettings, reviewers, setGenerationText, defaultConnection, setDefaultConnection, delete: remove });
