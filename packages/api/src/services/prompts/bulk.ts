// Bulk work on the library: one action on many prompts, in ONE transaction, all or nothing.
// The prompts are locked, each is checked with canOnPrompt for the action's ability, and any refusal
// refuses the whole set, naming each refused prompt and why; nothing is changed then.
import { z } from "zod";
import { isUniqueViolation, type Db, type DbTransaction } from "@promptly/db";
import {
  LIBRARY_MSG, PROMPT_MSG, PROTECTED_LABEL, accessOf, canOnPrompt, nameInFolder,
  type BulkAction, type OrganizationRole, type PromptAbility, type PromptFacts, type TeamRole,
} from "@promptly/shared";
import { fail } from "../../errors.ts";
import type { Caller } from "../access/access.ts";
import { audit, type AuditAction, type AuditContext } from "../insight/audit.ts";
import { moveLabel } from "./prompt-labels.ts";
import { archivedRefusal, directLabelRefusal, promptLockSql, removalRefusal, requiredApprovalsHeld, tooManyTags, type PromptLock } from "./prompt-rules.ts";
import { promptVisibility } from "../access/visibility.ts";

export const bulkResult = z.object({
  /** True when every prompt was acted on; false when any was refused (then nothing changed). */
  applied: z.boolean(),
  /** Prompts changed (a prompt already in the state asked for is not counted). */
  changed: z.number(),
  unchanged: z.number(),
  refused: z.array(z.object({ id: z.string(), name: z.string().nullable(), reason: z.string() })),
});
type BulkResult = z.infer<typeof bulkResult>;

const ABILITY: Record<BulkAction["kind"], PromptAbility> = {
  addTags: "write",
  removeTags: "write",
  moveToFolder: "rename",
  setLabel: "write",
  removeLabel: "write",
  archive: "archive",
  restore: "archive",
};

interface Row {
  id: string;
  teamId: string;
  organizationId: string;
  name: string;
  tags: string[];
  visibility: PromptFacts["visibility"];
  authorId: string | null;
  archived: boolean;
  latestVersion: number;
  requiredApprovals: number;
  /** The version `production` points at; null: the prompt does not carry it. */
  productionVersion: number | null;
  teamRole: TeamRole | null;
  organizationRole: OrganizationRole | null;
  readable: boolean;
}

export async function bulkPrompts(db: Db, caller: Caller, promptIds: string[], action: BulkAction, now: Date, context: AuditContext): Promise<BulkResult> {
  const ids = [...new Set(promptIds)];
  try {
    return await db.$transaction(
      async (tx) => {
        const { joins, visible } = promptVisibility(caller);
        // Only a move to a folder renames the prompts (their key); the other actions leave merges writing their generations meanwhile.
        const lock: PromptLock = action.kind === "moveToFolder" ? "keys" : "edit";
        const rows = await tx.$queryRaw<Row[]>`
          SELECT p.id::text AS id, p.team_id::text AS "teamId", p.organization_id::text AS "organizationId", p.name, p.tags,
                 p.visibility::text AS visibility, p.author_id::text AS "authorId", p.archived_at IS NOT NULL AS archived,
                 p.latest_version AS "latestVersion", t.required_approvals AS "requiredApprovals",
                 (SELECT l.version FROM prompt_labels l WHERE l.prompt_id = p.id AND l.name = ${PROTECTED_LABEL}) AS "productionVersion",
                 my_tm.role::text AS "teamRole", my_om.role::text AS "organizationRole", ${visible} AS readable
          FROM prompts p JOIN teams t ON t.id = p.team_id ${joins}
          WHERE p.id = ANY(${ids}::uuid[])
          ORDER BY p.id
          ${promptLockSql(lock)} OF p`;
        // A change of production reads each team's review rule again once the prompts are locked, holding the
        // team's row (prompt, then team, as every direct move): reviews turned on meanwhile refuse it, not bypassed.
        if (changesProduction(action)) {
          const held = new Map<string, number>();
          // Only the teams of prompts the caller reads (the others are refused as not found below), and for an archive
          // only those of prompts carrying production (archiving another changes nothing production serves).
          const touches = (row: Row) => row.readable && (action.kind !== "archive" || row.productionVersion !== null);
          for (const teamId of [...new Set(rows.flatMap((row) => (touches(row) ? [row.teamId] : [])))].sort()) held.set(teamId, await requiredApprovalsHeld(tx, teamId));
          for (const row of rows) if (touches(row)) row.requiredApprovals = held.get(row.teamId)!;
        }
        const byId = new Map(rows.map((row) => [row.id, row]));
        const refused: BulkResult["refused"] = [];
        const refuse = (row: Row, reason: string) => refused.push({ id: row.id, name: row.name, reason });
        for (const id of ids) {
          const row = byId.get(id);
          if (!row || !row.readable) {
            refused.push({ id, name: null, reason: LIBRARY_MSG.bulkNotFound });
            continue;
          }
          const access = { ...accessOf(caller, { teamRole: row.teamRole, organizationRole: row.organizationRole }), userId: caller.userId };
          const facts: PromptFacts = { visibility: row.visibility, authorId: row.authorId };
          const ruled =
            archivedRefusal(row.archived && action.kind !== "archive" && action.kind !== "restore") ??
            // Bulk moves and removals of a label alike are refused as a move would be (the texts of the batch).
            (action.kind === "setLabel" || action.kind === "removeLabel" ? directLabelRefusal(action.label, { access, facts }, row.requiredApprovals) : null) ??
            // Archiving a prompt that carries production is a production change, as on the prompt's page.
            (action.kind === "archive" && !row.archived
              ? removalRefusal("archive", { access, facts }, { productionVersion: row.productionVersion, approvalsRequired: row.requiredApprovals, archiveApproved: false })
              : null);
          if (!canOnPrompt(access, facts, ABILITY[action.kind])) refuse(row, LIBRARY_MSG.bulkNotAllowed);
          else if (ruled) refuse(row, ruled.message);
          else if (action.kind === "addTags" && tooManyTags([...row.tags, ...action.tags])) refuse(row, LIBRARY_MSG.bulkTooManyTags);
        }
        const found = ids.map((id) => byId.get(id)).filter((row): row is Row => !!row && row.readable);
        if (action.kind === "moveToFolder" && refused.length === 0) await refuseNameConflicts(tx, found, action.folder, refuse);
        if (refused.length) return { applied: false, changed: 0, unchanged: 0, refused };
        let changed = 0;
        for (const row of found) if (await applyOne(tx, row, action, context, caller.userId, now)) changed += 1;
        return { applied: true, changed, unchanged: found.length - changed, refused: [] };
      },
      { timeout: 60_000 },
    );
  } catch (error) {
    // Two chosen prompts swapping names meet the unique index midway: refuse the move as a whole.
    if (isUniqueViolation(error)) return fail("ALREADY_EXISTS", PROMPT_MSG.nameTaken, "NAME_TAKEN");
    throw error;
  }
}

/** Whether the action may change what `production` serves: a move or removal of it, or archiving (a prompt carrying it). */
const changesProduction = (action: BulkAction) =>
  action.kind === "archive" || ((action.kind === "setLabel" || action.kind === "removeLabel") && action.label === PROTECTED_LABEL);

/** A move refuses when a new name is taken by a prompt outside the set, or two of the set would share one. */
async function refuseNameConflicts(tx: DbTransaction, rows: Row[], folder: string, refuse: (row: Row, reason: string) => void) {
  const targets = new Map<string, Row>();
  for (const row of rows) {
    const target = `${row.teamId}:${nameInFolder(row.name, folder)}`;
    if (targets.has(target)) refuse(row, LIBRARY_MSG.bulkNameTwice(nameInFolder(row.name, folder)));
    targets.set(target, row);
  }
  const moving = rows.map((row) => row.id);
  const taken = await tx.$queryRaw<{ teamId: string; name: string }[]>`
    SELECT team_id::text AS "teamId", name FROM prompts
    WHERE NOT (id = ANY(${moving}::uuid[]))
      AND (team_id::text || ':' || name) = ANY(${[...targets.keys()]}::text[])`;
  for (const { teamId, name } of taken) refuse(targets.get(`${teamId}:${name}`)!, LIBRARY_MSG.bulkNameTaken(name));
}

/** The action on one prompt (already checked); whether it changed anything. */
async function applyOne(tx: DbTransaction, row: Row, action: BulkAction, context: AuditContext, userId: string, now: Date): Promise<boolean> {
  const target = { type: "prompt", id: row.id, name: row.name };
  const record = (auditAction: AuditAction, before: unknown, after: unknown) =>
    audit(tx, { organizationId: row.organizationId, teamId: row.teamId, actor: context.actor, ip: context.ip, action: auditAction, target, before, after }, now);
  switch (action.kind) {
    case "addTags":
    case "removeTags": {
      const tags = action.kind === "addTags" ? [...new Set([...row.tags, ...action.tags])] : row.tags.filter((tag) => !action.tags.includes(tag));
      if (tags.length === row.tags.length && tags.every((tag, index) => tag === row.tags[index])) return false;
      await tx.prompt.update({ where: { id: row.id }, data: { tags, updatedAt: now } });
      await record("prompt.update", { tags: row.tags }, { tags });
      return true;
    }
    case "moveToFolder": {
      const name = nameInFolder(row.name, action.folder);
      if (name === row.name) return false;
      await tx.prompt.update({ where: { id: row.id }, data: { name, updatedAt: now } });
      await record("prompt.rename", { name: row.name }, { name });
      return true;
    }
    case "setLabel": {
      const [current] = await tx.$queryRaw<{ version: number; split: boolean }[]>`
        SELECT version, candidate_version IS NOT NULL AS split FROM prompt_labels WHERE prompt_id = ${row.id}::uuid AND name = ${action.label}`;
      // Already on the newest version alone: nothing to do (a split there still ends, as any move of the label).
      if (current?.version === row.latestVersion && !current.split) return false;
      // moveLabel writes the label's audit event (its history) itself.
      await moveLabel(tx, row, action.label, row.latestVersion, userId, now, context);
      return true;
    }
    case "removeLabel": {
      const removed = await tx.$queryRaw<{ version: number }[]>`
        DELETE FROM prompt_labels WHERE prompt_id = ${row.id}::uuid AND name = ${action.label} RETURNING version`;
      if (!removed.length) return false;
      await tx.prompt.update({ where: { id: row.id }, data: { updatedAt: now } });
      await record("prompt.label.remove", { label: action.label, version: removed[0]!.version }, null);
      return true;
    }
    case "archive":
    case "restore": {
      const archive = action.kind === "archive";
      if (row.archived === archive) return false;
      await tx.prompt.update({ where: { id: row.id }, data: { archivedAt: archive ? now : null, updatedAt: now } });
      await record(archive ? "prompt.archive" : "prompt.restore", null, null);
      return true;
    }
  }
}
