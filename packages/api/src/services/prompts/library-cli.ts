// The library from the command line (npm run cli -- prompts export|import): the same export and
// import, asked for by the command line as any door asks, audited as `cli`.
import { z } from "zod";
import type { Db, DbOrTx } from "@promptly/db";
import { fail } from "../../errors.ts";
import { loadTeamAccess } from "../access/access.ts";
import { authorize } from "../access/authorize.ts";
import { commandLineCaller } from "../access/visibility.ts";
import { writeLibraryJson } from "./library-export.ts";
import { applyImport, previewImport, type LibraryRequest } from "./library-import.ts";

/** The command line asks the one decision like any door: it may do anything to a team that exists, authors nothing, and is audited as `cli`. */
async function commandLineRequest(db: DbOrTx, teamId: string, action: "prompt.read" | "prompt.write", now: Date): Promise<LibraryRequest> {
  const caller = commandLineCaller();
  const team = z.uuid().safeParse(teamId).success ? await loadTeamAccess(db, caller, teamId) : null;
  const decision = authorize(caller, action, { place: team });
  // The decision refuses the command line nothing but a team that does not exist.
  if (!decision.ok || !team) return fail("NOT_FOUND", `No team with the id ${teamId}`, "TEAM_NOT_FOUND");
  return { caller, access: team, team: { teamId, organizationId: team.organizationId }, audit: { actor: { kind: "cli" }, ip: null, now } };
}

/** `prompts export --team <id>`: the team's whole live library as the JSON document's text to `write`, a part at a time, in one snapshot (the team checked first). */
export async function exportLibraryForCli(db: Db, teamId: string, now: Date, write: (text: string) => Promise<void>): Promise<void> {
  const { caller } = await commandLineRequest(db, teamId, "prompt.read", now);
  await writeLibraryJson(db, caller, teamId, now, write);
}

/** `prompts import --team <id> [--dry-run]`: the preview, or the applied plan. */
export async function importLibraryForCli(db: Db, teamId: string, document: unknown, dryRun: boolean, now: Date) {
  const who = await commandLineRequest(db, teamId, "prompt.write", now);
  return dryRun ? previewImport(db, who, document) : applyImport(db, who, document, now);
}
