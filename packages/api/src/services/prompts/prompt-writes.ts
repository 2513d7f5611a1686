// Creating, updating, renaming, archiving and deleting prompts, and whether a name is free in a team.
import { PRODUCTION_DATA_DELETE_TIMEOUT_MS, isUniqueViolation, retryOnDeadlock, type Db, type DbOrTx, type DbTransaction } from "@promptly/db";
import { LATEST_LABEL, MSG, PROMPT_MSG, PROTECTED_LABEL, RUNTIME_MSG, canOnPrompt, type CreatePromptInput, type PromptFacts } from "@promptly/shared";
import { fail } from "../../errors.ts";
import { authorOf } from "../access/actor.ts";
import { auditAs, type AuditContext } from "../insight/audit.ts";
import type { Caller } from "../access/visibility.ts";
import type { TeamAccessInfo } from "../access/access.ts";
import type { LoadedPrompt } from "./loaded-prompt.ts";
import { refuseBrokenIncludes, saveIncludes } from "./prompt-includes.ts";
import { allowOrFail, authorize } from "../access/authorize.ts";
import { moveLabel, moveLabels, refuseDirectLabelMoves, splitOf } from "./prompt-labels.ts";
import { auditPrompt, bodyOf, refuseArchived, touchLivePrompt, versionData } from "./prompt-changes.ts";
import { lockLivePrompt, productionRemoval, promptLockSql, refuse, removalRefusal, shareRefusal } from "./prompt-rules.ts";

/**
 * A prompt and its version 1, together, with `labels` on it as setLabel's prompt rules allow. A name taken in the team is ALREADY_EXISTS, also under concurrent creates.
 * The author is the signed-in person, or none when an API key creates it (a key is not a person).
 */
export async function createPrompt(
  db: Db,
  caller: Caller,
  team: TeamAccessInfo,
  input: CreatePromptInput,
  now: Date,
  context: AuditContext,
  labels: readonly string[] = [],
) {
  if (input.visibility === "private" && authorOf(context.actor) === null) fail("INVALID", RUNTIME_MSG.privateByKey, "PRIVATE_BY_KEY");
  const facts = { visibility: input.visibility, authorId: authorOf(context.actor) };
  const rules = { teamId: team.teamId, facts, access: team };
  await refuseDirectLabelMoves(db, rules, labels);
  const body = bodyOf(input);
  try {
    return await db.$transaction(async (tx) => {
      const prompt = await tx.prompt.create({
        data: {
          organizationId: team.organizationId,
          teamId: team.teamId,
          name: input.name,
          title: input.title,
          description: input.description ?? "",
          tags: input.tags ?? [],
          visibility: input.visibility,
          authorId: authorOf(context.actor),
          latestVersion: 1,
          createdAt: now,
          updatedAt: now,
        },
        select: { id: true, name: true },
      });
      const { id: versionId } = await tx.promptVersion.create({
        data: { promptId: prompt.id, version: 1, createdAt: now, ...versionData(body, input, authorOf(context.actor)) },
        select: { id: true },
      });
      await saveIncludes(tx, { caller, access: team }, { teamId: team.teamId, name: prompt.name, versionId, version: 1, body });
      await auditAs(tx, context, {
        organizationId: team.organizationId,
        teamId: team.teamId,
        action: "prompt.create",
        target: { type: "prompt", id: prompt.id, name: prompt.name },
        after: { name: prompt.name, title: input.title, visibility: input.visibility, version: 1 },
      });
      const created = { id: prompt.id, teamId: team.teamId, organizationId: team.organizationId };
      await moveLabels(tx, created, labels, 1, now, context, rules);
      return { id: prompt.id, name: prompt.name, version: 1, versionId };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return fail("ALREADY_EXISTS", PROMPT_MSG.nameTaken, "NAME_TAKEN");
    throw error;
  }
}

/**
 * Title, description, tags, visibility. Only the author (or a super user) makes a prompt private: it
 * becomes theirs alone. Sharing it again carries its `production` only as the prompt rules allow.
 */
export async function updatePrompt(
  db: Db,
  prompt: LoadedPrompt,
  input: { title?: string; description?: string; tags?: string[]; visibility?: PromptFacts["visibility"] },
  now: Date,
  context: AuditContext,
) {
  refuseArchived(prompt);
  if (input.visibility === "private" && prompt.facts.visibility !== "private" && !canOnPrompt(prompt.access, { ...prompt.facts, visibility: "private" }, "read")) {
    fail("FORBIDDEN", PROMPT_MSG.privateAuthorOnly);
  }
  const fields = { title: true, description: true, tags: true, visibility: true } as const;
  await db.$transaction(async (tx) => {
    await lockLivePrompt(tx, prompt.id);
    refuse(await shareRefusal(tx, prompt, input.visibility));
    const before = await tx.prompt.findUniqueOrThrow({ where: { id: prompt.id }, select: fields });
    const after = await tx.prompt.update({
      where: { id: prompt.id },
      data: { title: input.title, description: input.description, tags: input.tags, visibility: input.visibility, updatedAt: now },
      select: fields,
    });
    await auditPrompt(tx, context, prompt, "prompt.update", { before, after });
  });
}

/**
 * Replaces the prompt's tags inside the caller's transaction, after its row is locked (a new version
 * of a key's save), audited as an update of the prompt; the same tags in any order change nothing.
 */
export async function retagPrompt(tx: DbTransaction, prompt: LoadedPrompt, tags: readonly string[], now: Date, context: AuditContext) {
  const { tags: before } = await tx.prompt.findUniqueOrThrow({ where: { id: prompt.id }, select: { tags: true } });
  if (new Set(before).size === new Set(tags).size && before.every((tag) => tags.includes(tag))) return;
  await tx.prompt.update({ where: { id: prompt.id }, data: { tags: [...tags], updatedAt: now } });
  await auditPrompt(tx, context, prompt, "prompt.update", { before: { tags: before }, after: { tags } });
}

/** A rename, like an update, reads the prompt live under its row's lock: an archive at the same moment comes first or waits. */
export async function renamePrompt(db: Db, prompt: LoadedPrompt, name: string, now: Date, context: AuditContext) {
  refuseArchived(prompt);
  try {
    await db.$transaction(async (tx) => {
      await lockLivePrompt(tx, prompt.id, PROMPT_MSG.archived, "keys");
      const before = await tx.prompt.findUniqueOrThrow({ where: { id: prompt.id }, select: { name: true } });
      await tx.prompt.update({ where: { id: prompt.id }, data: { name, updatedAt: now } });
      await auditPrompt(tx, context, prompt, "prompt.rename", { name, before, after: { name } });
    });
  } catch (error) {
    if (isUniqueViolation(error)) return fail("ALREADY_EXISTS", PROMPT_MSG.nameTaken, "NAME_TAKEN");
    throw error;
  }
}

/** Archive and restore are idempotent: the answer is the state asked for, and a prompt already in it is left as it is. */
export async function setArchived(db: Db, prompt: LoadedPrompt, archived: boolean, now: Date, context: AuditContext) {
  return db.$transaction(async (tx) => {
    // Under the row's lock, a `production` moved onto the prompt at the same moment is seen here.
    const [locked] = await tx.$queryRaw<{ archived: boolean }[]>`SELECT archived_at IS NOT NULL AS archived FROM prompts WHERE id = ${prompt.id}::uuid ${promptLockSql("edit")}`;
    if (archived && locked && !locked.archived) refuse(removalRefusal("archive", prompt, await productionRemoval(tx, prompt.id)));
    const row = await tx.prompt.update({
      where: { id: prompt.id },
      data: archived === prompt.archived ? {} : { archivedAt: archived ? now : null, updatedAt: now },
      select: { archivedAt: true },
    });
    // Asking for the state it is already in changes nothing: nothing to record.
    if (archived !== prompt.archived) await auditPrompt(tx, context, prompt, archived ? "prompt.archive" : "prompt.restore", {});
    return { archivedAt: row.archivedAt };
  });
}

/** For good, with its versions, labels, bookmarks and ratings, and its production data; archived prompts only. */
export async function deletePrompt(db: Db, prompt: LoadedPrompt, context: AuditContext) {
  // It takes the prompt's row, then deletes its generations; a merge of production data deletes a stored
  // generation and writes it back, whose foreign key takes the prompt's row: PostgreSQL ends one, most often this.
  await retryOnDeadlock(() => db.$transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<{ archived: boolean }[]>`SELECT archived_at IS NOT NULL AS archived FROM prompts WHERE id = ${prompt.id}::uuid ${promptLockSql("keys")}`;
    refuse(removalRefusal("delete", prompt, await productionRemoval(tx, prompt.id)));
    // Deleted meanwhile (another tab, another admin): gone, not "not archived".
    if (!locked) return fail("NOT_FOUND", MSG.notFound);
    if (!locked.archived) fail("STATE_CONFLICT", PROMPT_MSG.notArchived, "NOT_ARCHIVED");
    await deleteWholePrompt(tx, prompt, context, {});
  }, { timeout: PRODUCTION_DATA_DELETE_TIMEOUT_MS }));
}

/** The prompt deleted for good, audited (prompt.delete with `detail`), its production data with it; the caller holds its row lock. */
async function deleteWholePrompt(tx: DbTransaction, prompt: LoadedPrompt, context: AuditContext, detail: Parameters<typeof auditPrompt>[4]) {
  await auditPrompt(tx, context, prompt, "prompt.delete", detail);
  await deleteProductionOf(tx, prompt.id);
  await tx.prompt.delete({ where: { id: prompt.id } });
}

/**
 * A deleted prompt's production data goes with it: its generations (their text too) and the scores of them
 * or of it (its rollups and runs go by their foreign keys). Left unlinked (the foreign keys' SET NULL), a
 * generation was linked by its name again at its next update, to whichever prompt took the name, read by
 * people who never read the old one. The same rows the SET NULL rewrote, in the delete's transaction; the
 * caller holds the prompt's row lock, so no generation or score links to it meanwhile.
 */
async function deleteProductionOf(tx: DbTransaction, promptId: string) {
  await tx.$executeRaw`
    WITH gone AS (DELETE FROM generations WHERE prompt_id = ${promptId}::uuid RETURNING id, team_id, observation_id),
         judged AS (DELETE FROM scores s USING gone g WHERE s.generation_id = g.id),
         -- One of them a score's writer could not see: its score waits for it by its observation id.
         waiting AS (DELETE FROM scores s USING gone g
                      WHERE s.team_id = g.team_id AND s.observation_id = g.observation_id AND s.generation_id IS NULL AND s.run_id IS NULL)
    -- The prompt's other scores (of its runs, of generations past their retention); each score is deleted by one part alone.
    DELETE FROM scores s WHERE s.prompt_id = ${promptId}::uuid AND (s.generation_id IS NULL OR NOT EXISTS (SELECT 1 FROM gone g WHERE g.id = s.generation_id))`;
}

/** What a delete of a live prompt takes: the whole prompt, one version, or the version a label points to (`latest`: the newest). */
export type DeletedVersions = { version: number; label?: undefined } | { label: string; version?: undefined } | { version?: undefined; label?: undefined };

/**
 * Deletes a live prompt for good, or only the version `which` names (Langfuse's DELETE), all or nothing
 * under the prompt's lock; deleting its every version deletes the prompt. Refused while another prompt
 * includes what goes (refuseBrokenIncludes), and, where the version `production` points to goes, unless
 * the one decision lets the caller take `production` (never a key) and the removal rule allows it (with
 * reviews required, nobody). A version goes by being recorded in deleted_prompt_versions, whose trigger
 * deletes it past the immutability trigger; its number is never given again. A split label one of whose
 * versions goes stays, on the other version alone. Audited (prompt.delete, or prompt.version.delete, each
 * label that went with it and each split so ended, as a move of its label), which sends the webhook event.
 */
export async function deleteLivePrompt(db: Db, caller: Caller, prompt: LoadedPrompt, name: string, which: DeletedVersions, context: AuditContext) {
  // Deadlocked by a merge as deletePrompt can be.
  await retryOnDeadlock(() => db.$transaction(async (tx) => {
    // Deleting its every version deletes the prompt.
    await lockLivePrompt(tx, prompt.id, PROMPT_MSG.archived, "keys");
    const stored = (await tx.promptVersion.findMany({ where: { promptId: prompt.id }, select: { version: true }, orderBy: { version: "asc" } })).map((row) => row.version);
    const labels = await tx.promptLabel.findMany({ where: { promptId: prompt.id }, select: { name: true, version: true, candidateVersion: true, candidateWeight: true }, orderBy: { name: "asc" } });
    const latest = stored.at(-1)!;
    const named =
      which.version !== undefined ? [which.version]
      : which.label === LATEST_LABEL ? [latest]
      : which.label !== undefined ? labels.filter((label) => label.name === which.label).map((label) => label.version)
      : stored;
    const versions = named.filter((version) => stored.includes(version));
    if (!versions.length) fail("NOT_FOUND", RUNTIME_MSG.promptNotFound(name, which.version !== undefined ? { version: which.version } : { label: which.label! }));
    const whole = versions.length === stored.length;
    // A split one of whose versions goes ends in favour of the other: its label stays, on the version left
    // alone (a move of the label, of `production` too). A label whose every version goes goes with them.
    const splitsEnded = labels
      .filter((label) => label.candidateVersion !== null && versions.includes(label.version) !== versions.includes(label.candidateVersion))
      .map((label) => ({ name: label.name, left: versions.includes(label.version) ? label.candidateVersion! : label.version }));
    const moved = new Set(splitsEnded.map((label) => label.name));
    // A split label goes with its split (both its versions go): the audit trail keeps what it served.
    const gone = labels.filter((label) => versions.includes(label.version) && !moved.has(label.name)).map((label) => ({ name: label.name, version: label.version, ...splitOf(label) }));
    const production = await productionRemoval(tx, prompt.id);
    const endsProductionSplit = splitsEnded.some((label) => label.name === PROTECTED_LABEL);
    if (production.productionVersion !== null && (versions.includes(production.productionVersion) || endsProductionSplit)) {
      allowOrFail(authorize(caller, "prompt.delete", { label: PROTECTED_LABEL, prompt }));
      refuse(removalRefusal("delete", prompt, production));
    }
    await refuseBrokenIncludes(tx, caller, { id: prompt.id, teamId: prompt.teamId, name }, { whole, versions, labels: gone.map((label) => label.name), latest: versions.includes(latest) });
    if (whole) return deleteWholePrompt(tx, prompt, context, { name, before: { versions, labels: gone } });
    await auditPrompt(tx, context, prompt, "prompt.version.delete", { name, before: { versions, labels: gone } });
    // Each label that goes is a move to nowhere in the label history, as a removal is.
    for (const { name: label, ...was } of gone) await auditPrompt(tx, context, prompt, "prompt.label.remove", { name, before: { label, ...was }, after: { label, version: null } });
    for (const label of splitsEnded) await moveLabel(tx, prompt, label.name, label.left, authorOf(context.actor), context.now, context);
    await tx.deletedPromptVersion.createMany({ data: versions.map((version) => ({ promptId: prompt.id, version, deletedAt: context.now })) });
    await touchLivePrompt(tx, prompt.id, context.now);
  }, { timeout: PRODUCTION_DATA_DELETE_TIMEOUT_MS }));
}

/** Whether `name` is free in the team (the editor checks as the author types). */
export async function isNameAvailable(db: DbOrTx, teamId: string, name: string) {
  const row = await db.prompt.findUnique({ where: { teamId_name: { teamId, name } }, select: { id: true } });
  return { available: !row };
}
