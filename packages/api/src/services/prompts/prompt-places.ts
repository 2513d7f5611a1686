// A team filter of the library's lists must name a team the caller may see, in that organization.
import type { DbOrTx } from "@promptly/db";
import { MSG } from "@promptly/shared";
import { fail } from "../../errors.ts";
import { loadTeamAccess, type Caller } from "../access/access.ts";

/** NOT_FOUND unless the caller may see `teamId` and it belongs to `organizationId`. */
export async function readableTeamIn(db: DbOrTx, caller: Caller, organizationId: string, teamId: string): Promise<void> {
  const team = await loadTeamAccess(db, caller, teamId);
  if (!team || team.organizationId !== organizationId) fail("NOT_FOUND", MSG.notFound);
}
