// Import into a team's library: reads the versioned format of packages/shared or Langfuse prompt JSON,
// plans what it would do (the preview), and applies the plan in one transaction, all or nothing.
import { createHash } from "node:crypto";
import { z } from "zod";
import { Prisma, isUniqueViolation, type Db, type DbOrTx, type DbTransaction } from "@promptly/db";
import {
  type PromptMessage, LIBRARY_MSG, LATEST_LABEL, PROTECTED_LABEL, canOnPrompt, importDocumentSchema, isPromptName, nearestPromptName, renameIncludes,
  librarySplitSchema, promptDescriptionSchema, promptLabelSchema, promptTagsSchema, promptTitleSchema, runtimeCreateVersionInput, splitLangfuseConfig, versionSchemas,
  type LangfusePrompt, type LibraryPrompt, type LibraryVersion, type PromptAccess, type PromptFacts,
} from "@promptly/shared";
import { fail } from "../../errors.ts";
import type { Caller } from "../access/access.ts";
import { audit, type AuditContext } from "../insight/audit.ts";
import { authorOf } from "../access/actor.ts";
import { moveLabel } from "./prompt-labels.ts";
import { followMoveToIncluders, saveIncludes } from "./prompt-includes.ts";
import { archivedRefusal, directLabelRefusal, promptLockSql, requiredApprovals, requiredApprovalsHeld, tooManyLabels } from "./prompt-rules.ts";
import { numberedUpToSql } from "./prompt-changes.ts";
import { jsonSchemaProblem } from "./json-schemas.ts";
import { contractOf, type VersionRow } from "./library-export.ts";

/** An import in the team concerned: who asks and their access there, and who the change is recorded as. */
export interface LibraryRequest {
  caller: Caller;
  access: PromptAccess;
  team: { teamId: string; organizationId: string };
  /** The actor (the author of what is written when a person) and the request's address. */
  audit: AuditContext;
}

// ---- import: reading ----

/** One prompt to import, whatever the source: versions in order, labels by source version number. */
interface IncomingPrompt {
  name: string;
  /** The name in the file, when the import renames it to the nearest name Promptly accepts (Langfuse names). */
  renamedFrom: string | null;
  title: string;
  description: string;
  tags: string[];
  visibility: LibraryPrompt["visibility"];
  versions: (LibraryVersion & { sourceVersion: number })[];
  labels: Record<string, number>;
  /**
   * Split releases of the labels (our format only), each entry as the file has it (checked by the plan): not applied. A label the
   * import moves points at its own version alone; one already at its version is left as it is, split included.
   */
  splits?: LibraryPrompt["splits"];
}

const titleFromName = (name: string) => {
  const base = name.slice(name.lastIndexOf("/") + 1).replace(/[-_.]+/g, " ").trim() || name;
  return (base.charAt(0).toUpperCase() + base.slice(1)).slice(0, 120);
};

/**
 * Langfuse versions, grouped by prompt name, ordered by version; `{{variable}}` is our syntax too. A
 * Langfuse name Promptly refuses (capitals, spaces) takes the nearest name it accepts, and the include
 * tags of the file that name it follow; its title keeps the name as it was.
 */
function fromLangfuse(items: LangfusePrompt[]): IncomingPrompt[] {
  const byName = new Map<string, LangfusePrompt[]>();
  for (const item of items) byName.set(item.name, [...(byName.get(item.name) ?? []), item]);
  const renames = new Map<string, string>();
  for (const name of byName.keys()) {
    const nearest = isPromptName(name) ? null : nearestPromptName(name);
    if (nearest) renames.set(name, nearest);
  }
  const renamed = (text: string) => (renames.size ? renameIncludes(text, renames) : text);
  return [...byName.entries()].map(([original, versions]) => {
    const name = renames.get(original) ?? original;
    const sorted = versions.sort((a, b) => a.version - b.version);
    const labels: Record<string, number> = {};
    const tags = new Set<string>();
    for (const item of sorted) {
      for (const label of item.labels) if (label !== LATEST_LABEL) labels[label] = item.version;
      for (const tag of item.tags) tags.add(tag.toLowerCase());
    }
    return {
      name,
      renamedFrom: name === original ? null : original,
      title: titleFromName(original),
      description: "",
      tags: [...tags],
      visibility: "team",
      labels,
      versions: sorted.map((item) => {
        const given = item.config && typeof item.config === "object" && !Array.isArray(item.config) ? (item.config as Record<string, unknown>) : {};
        // OpenAI's `tools` and `response_format` in the config become the version's own, as the Langfuse API takes them;
        // in a shape neither OpenAI nor Anthropic writes, they stay in the config as they are.
        const split = splitLangfuseConfig(given);
        const { config, tools = [], responseFormat = null } = "problem" in split ? { config: given } : split;
        const body =
          typeof item.prompt === "string"
            ? { type: "text" as const, template: renamed(item.prompt) }
            : {
                type: "chat" as const,
                messages: item.prompt.map((message): PromptMessage =>
                  message.type === "placeholder" ? { type: "placeholder", name: message.name } : { role: message.role as "user", content: renamed(message.content) },
                ),
              };
        return {
          version: item.version,
          sourceVersion: item.version,
          ...body,
          variables: [],
          model: typeof config.model === "string" ? config.model : "",
          config,
          tools,
          responseFormat,
          commitMessage: item.commitMessage ?? "",
        };
      }),
    };
  });
}

/** The prompts of a document, or INVALID naming what it should be. */
function readDocument(document: unknown): IncomingPrompt[] {
  const parsed = importDocumentSchema.safeParse(document);
  if (!parsed.success) return fail("INVALID", LIBRARY_MSG.notADocument, "NOT_A_LIBRARY");
  const value = parsed.data;
  if (Array.isArray(value)) return fromLangfuse(value);
  if ("format" in value) {
    return value.prompts.map((prompt) => ({
      ...prompt,
      renamedFrom: null,
      versions: [...prompt.versions].sort((a, b) => a.version - b.version).map((version) => ({ ...version, sourceVersion: version.version })),
    }));
  }
  return fromLangfuse([value]);
}

// ---- import: planning ----

/** A version's body as one comparable string: type, text, contract in force, model and config (keys sorted). */
function bodyKey(version: Pick<LibraryVersion, "type" | "template" | "messages" | "variables" | "model" | "config" | "tools" | "responseFormat">): string {
  const sorted = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(sorted)
      : value && typeof value === "object"
        ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, inner]) => [key, sorted(inner)]))
        : value;
  return JSON.stringify(sorted({
    type: version.type,
    template: version.type === "text" ? (version.template ?? "") : null,
    messages: version.type === "chat" ? (version.messages ?? []) : null,
    variables: contractOf(version),
    model: version.model ?? "",
    config: version.config ?? {},
    tools: version.tools ?? [],
    responseFormat: version.responseFormat ?? null,
  }));
}

const importPlanItem = z.object({
  name: z.string(),
  /** The name in the file, when the import renames it to `name`, the nearest name Promptly accepts (a Langfuse name). */
  renamedFrom: z.string().nullable(),
  /** create: a new prompt; update: new versions or labels of one here; unchanged: all here already; conflict: cannot import. */
  outcome: z.enum(["create", "update", "unchanged", "conflict"]),
  type: z.enum(["text", "chat"]).nullable(),
  /** Versions that will be saved (new numbers for an existing prompt). */
  newVersions: z.number(),
  /** Versions skipped: the same body is stored already. */
  skippedVersions: z.number(),
  /** Labels that will be set, with the version each will point at. */
  labels: z.array(z.object({ name: z.string(), version: z.number() })),
  /** Why it cannot be imported (conflict), or notes (a label not applied). */
  problems: z.array(z.string()),
  notes: z.array(z.string()),
});
export const importPlan = z.object({
  items: z.array(importPlanItem),
  summary: z.object({ create: z.number(), update: z.number(), unchanged: z.number(), conflict: z.number(), versions: z.number(), renamed: z.number() }),
});
export type ImportPlan = z.infer<typeof importPlan>;

interface Step {
  item: ImportPlan["items"][number];
  incoming: IncomingPrompt;
  existing: { id: string; facts: PromptFacts; latestVersion: number } | null;
  /** The versions to save, in order, each with the number it will get. */
  save: { version: LibraryVersion; number: number }[];
  labels: { name: string; version: number }[];
}

/** A body's key as a short digest: the plan keeps one per stored body it may match, not the body's text. */
const bodyHash = (version: Parameters<typeof bodyKey>[0]) => createHash("sha256").update(bodyKey(version)).digest("base64");

/** Stored versions read per statement: a version holds up to 100,000 characters of text, and a prompt any number of versions. */
const STORED_VERSIONS_PAGE = 25;

/**
 * Per existing prompt, the stored versions whose body an incoming version of it has: digest to the highest
 * such version number. The stored versions are read a page at a time and only matches are kept, so what
 * the plan holds grows with the document (bounded by the body limit), not with the prompts' history here.
 */
async function storedBodies(db: DbOrTx, existing: readonly { id: string; name: string }[], incoming: readonly IncomingPrompt[]): Promise<Map<string, Map<string, number>>> {
  // Every incoming prompt of the name counts (one the document holds twice is planned twice).
  const hashesByName = new Map<string, Set<string>>();
  for (const prompt of incoming) {
    const hashes = hashesByName.get(prompt.name) ?? new Set<string>();
    for (const version of prompt.versions) hashes.add(bodyHash(version));
    hashesByName.set(prompt.name, hashes);
  }
  const wanted = new Map<string, Set<string>>();
  for (const row of existing) {
    const hashes = hashesByName.get(row.name);
    if (hashes?.size) wanted.set(row.id, hashes);
  }
  const found = new Map<string, Map<string, number>>();
  const ids = [...wanted.keys()];
  if (!ids.length) return found;
  // Keyset over (prompt, version), which the unique index orders; versions start at 1, so (nil, 0) comes first.
  let after = { promptId: "00000000-0000-0000-0000-000000000000", version: 0 };
  for (;;) {
    const page = await db.$queryRaw<(VersionRow & { promptId: string })[]>`
      SELECT v.prompt_id::text AS "promptId", v.version, v.type::text AS type, v.template, v.messages, v.variables, v.model, v.config, v.tools, v.response_format AS "responseFormat"
      FROM prompt_versions v
      WHERE v.prompt_id = ANY(${ids}::uuid[]) AND (v.prompt_id, v.version) > (${after.promptId}::uuid, ${after.version})
      ORDER BY v.prompt_id, v.version LIMIT ${STORED_VERSIONS_PAGE}`;
    for (const version of page) {
      const hash = bodyHash(version as unknown as LibraryVersion);
      if (!wanted.get(version.promptId)!.has(hash)) continue;
      const ofPrompt = found.get(version.promptId) ?? new Map<string, number>();
      ofPrompt.set(hash, Math.max(version.version, ofPrompt.get(hash) ?? 0));
      found.set(version.promptId, ofPrompt);
    }
    if (page.length < STORED_VERSIONS_PAGE) return found;
    const last = page.at(-1)!;
    after = { promptId: last.promptId, version: last.version };
  }
}

/**
 * What an import would do, prompt by prompt. Reads with `db` (inside apply: the transaction, rows locked as
 * an edit: an import adds versions and labels, never renames nor deletes a prompt here).
 */
async function plan(db: DbOrTx, who: LibraryRequest, incoming: IncomingPrompt[], lock: boolean): Promise<Step[]> {
  const names = incoming.map((prompt) => prompt.name);
  const existingRows = await db.$queryRaw<{ id: string; name: string; visibility: PromptFacts["visibility"]; authorId: string | null; archived: boolean; latestVersion: number; numberedUpTo: number; type: string }[]>`
    SELECT p.id::text AS id, p.name, p.visibility::text AS visibility, p.author_id::text AS "authorId", p.archived_at IS NOT NULL AS archived,
           p.latest_version AS "latestVersion", ${numberedUpToSql} AS "numberedUpTo", lv.type::text AS type
    FROM prompts p JOIN prompt_versions lv ON lv.prompt_id = p.id AND lv.version = p.latest_version
    WHERE p.team_id = ${who.team.teamId}::uuid AND p.name = ANY(${names}::text[])
    -- Locked in id order, as bulk actions and a team's delete lock prompts (two lockers of the same prompts never wait on each other in a cycle).
    ORDER BY p.id
    ${lock ? Prisma.sql`${promptLockSql("edit")} OF p` : Prisma.empty}`;
  const existingByName = new Map(existingRows.map((row) => [row.name, row]));
  const existingIds = existingRows.map((row) => row.id);
  const storedByKey = await storedBodies(db, existingRows, incoming);
  const storedLabels = existingIds.length
    ? await db.promptLabel.findMany({
      where: { promptId: { in: existingIds } }, select: { promptId: true, name: true, version: true, candidateVersion: true, candidateWeight: true },
    })
    : [];
  // Each stored prompt's labels, name to version (grouped once, not searched per incoming label), and its split labels' splits.
  const labelsOf = new Map<string, Map<string, number>>();
  const splitsOf = new Map<string, Map<string, { version: number; weight: number }>>();
  for (const label of storedLabels) {
    const names = labelsOf.get(label.promptId) ?? new Map<string, number>();
    names.set(label.name, label.version);
    labelsOf.set(label.promptId, names);
    if (label.candidateVersion === null || label.candidateWeight === null) continue;
    const splits = splitsOf.get(label.promptId) ?? new Map<string, { version: number; weight: number }>();
    splits.set(label.name, { version: label.candidateVersion, weight: label.candidateWeight });
    splitsOf.set(label.promptId, splits);
  }
  // Whether the document sets or moves `production` on some prompt: its version is new here, or not the one production
  // holds (a version whose body is stored keeps that number, as below). Errs toward true: a prompt in conflict counts.
  const movesProduction = incoming.some((prompt) => {
    const source = prompt.labels[PROTECTED_LABEL];
    const version = source === undefined ? undefined : prompt.versions.findLast((candidate) => candidate.sourceVersion === source);
    if (!version) return false;
    const row = existingByName.get(prompt.name);
    const held = row && labelsOf.get(row.id)?.get(PROTECTED_LABEL);
    return held === undefined || storedByKey.get(row!.id)?.get(bodyHash(version)) !== held;
  });
  // Applying (locked: `db` is the import's transaction) an import that sets or moves production, read after the prompts'
  // locks holding the team's row, as a direct move of production reads it: required approvals turned on meanwhile leave
  // production as it is (needs review). Otherwise the plain value: an import that leaves production be does not hold the
  // team's settings for its whole transaction.
  const approvalsRequired = lock && movesProduction ? await requiredApprovalsHeld(db as DbTransaction, who.team.teamId) : await requiredApprovals(db, who.team.teamId);
  const seen = new Set<string>();

  return incoming.map((prompt): Step => {
    const problems: string[] = [];
    const notes: string[] = [];
    const types = new Set(prompt.versions.map((version) => version.type));
    const type = types.size === 1 ? [...types][0]! : null;
    if (!isPromptName(prompt.name)) problems.push(LIBRARY_MSG.invalidName);
    if (prompt.renamedFrom !== null) notes.push(LIBRARY_MSG.renamed(prompt.renamedFrom));
    if (seen.has(prompt.name)) problems.push(LIBRARY_MSG.duplicateName);
    seen.add(prompt.name);
    if (types.size > 1) problems.push(LIBRARY_MSG.mixedTypes);
    for (const [field, schema, value] of [
      ["title", promptTitleSchema, prompt.title], ["description", promptDescriptionSchema, prompt.description], ["tags", promptTagsSchema, prompt.tags],
    ] as const) {
      const checked = (schema as z.ZodType).safeParse(value);
      if (!checked.success) problems.push(`${field}: ${checked.error.issues.map((issue) => issue.message).join("; ")}`);
    }
    for (const version of prompt.versions) {
      const checked = runtimeCreateVersionInput.safeParse(versionFields(version));
      if (!checked.success) problems.push(`v${version.sourceVersion}: ${checked.error.issues.map((issue) => issue.message).join("; ")}`);
      else {
        const schemaProblems = versionSchemas(checked.data.tools, checked.data.responseFormat).map(({ path, schema }) => jsonSchemaProblem(path, schema));
        for (const problem of schemaProblems) if (problem) problems.push(`v${version.sourceVersion}: ${problem}`);
      }
    }
    for (const label of Object.keys(prompt.labels)) {
      if (!promptLabelSchema.safeParse(label).success) problems.push(`label '${label}': not a valid label`);
    }
    const row = existingByName.get(prompt.name) ?? null;
    const facts: PromptFacts = row ? { visibility: row.visibility, authorId: row.authorId } : { visibility: prompt.visibility, authorId: authorOf(who.audit.actor) };
    if (row) {
      if (!canOnPrompt(who.access, facts, "write")) problems.push(LIBRARY_MSG.nameTaken);
      else if (archivedRefusal(row.archived)) problems.push(LIBRARY_MSG.archived);
      else if (type && row.type !== type) problems.push(LIBRARY_MSG.typeDiffers(row.type, type));
    } else if (prompt.visibility === "private" && authorOf(who.audit.actor) === null) problems.push(LIBRARY_MSG.privateNeedsPerson);

    // Versions: all of them for a new prompt (same numbers); for one here, those whose body is not stored yet.
    const storedOfPrompt = (row && storedByKey.get(row.id)) || new Map<string, number>();
    const numberOf = new Map<number, number>();
    const save: Step["save"] = [];
    let next = row ? row.numberedUpTo : 0;
    let skipped = 0;
    for (const version of prompt.versions) {
      const same = row ? storedOfPrompt.get(bodyHash(version)) : undefined;
      if (same !== undefined) {
        numberOf.set(version.sourceVersion, same);
        skipped += 1;
      } else {
        next += 1;
        numberOf.set(version.sourceVersion, next);
        save.push({ version, number: next });
      }
    }

    const storedNames = (row && labelsOf.get(row.id)) || new Map<string, number>();
    const labels: Step["labels"] = [];
    for (const [name, sourceVersion] of Object.entries(prompt.labels)) {
      const version = numberOf.get(sourceVersion);
      if (version === undefined) {
        notes.push(LIBRARY_MSG.labelUnknownVersion(name, sourceVersion));
        continue;
      }
      if (storedNames.get(name) === version) continue;
      const refused = directLabelRefusal(name, { access: who.access, facts }, approvalsRequired);
      if (refused) notes.push(refused.reason === "REVIEW_REQUIRED" ? LIBRARY_MSG.productionNeedsReview : LIBRARY_MSG.productionNotAllowed);
      else labels.push({ name, version });
    }
    // Splitting a label has its own rules (its candidate, its weight, who may split production), which an import does not
    // apply: the note says so rather than leaving a 90/10 release quietly at 100% on the label's own version. A label the
    // import leaves where it is keeps its split here, so the same split there (a team's own export coming back) is no news.
    // Only the file's labels count; a bad entry is noted, not a reason to refuse the file, and `splits` that is no
    // object (null, an array) holds no split to note.
    const storedSplits = (row && splitsOf.get(row.id)) || new Map<string, { version: number; weight: number }>();
    const splits = prompt.splits !== null && typeof prompt.splits === "object" && !Array.isArray(prompt.splits) ? prompt.splits : {};
    for (const [name, entry] of Object.entries(splits)) {
      if (!Object.hasOwn(prompt.labels, name)) continue;
      const sourceVersion = prompt.labels[name]!;
      const split = librarySplitSchema.safeParse(entry);
      if (!split.success) {
        notes.push(LIBRARY_MSG.splitInvalid(name));
        continue;
      }
      const candidate = numberOf.get(split.data.version);
      if (candidate === undefined) {
        notes.push(LIBRARY_MSG.splitUnknownVersion(name, split.data.version));
        continue;
      }
      const stored = storedSplits.get(name);
      const kept = storedNames.get(name) === numberOf.get(sourceVersion) && stored?.version === candidate && stored.weight === split.data.weight;
      if (!kept) notes.push(LIBRARY_MSG.splitNotApplied(name, candidate, split.data.weight));
    }
    // A prompt's distinct labels stay within PROMPT_LABELS_MAX (as moveLabel refuses past it): those here and the new names the import adds.
    // (labels' names are unique: they are the keys of prompt.labels.)
    const adding = labels.filter((label) => !storedNames.has(label.name)).length;
    if (tooManyLabels(storedNames.size, adding)) problems.push(LIBRARY_MSG.tooManyLabels(storedNames.size + adding));

    const outcome = problems.length ? "conflict" : !row ? "create" : save.length || labels.length ? "update" : "unchanged";
    return {
      item: { name: prompt.name, renamedFrom: prompt.renamedFrom, outcome, type, newVersions: problems.length ? 0 : save.length, skippedVersions: skipped, labels: problems.length ? [] : labels, problems, notes },
      incoming: prompt,
      existing: row && { id: row.id, facts, latestVersion: row.latestVersion },
      save,
      labels,
    };
  });
}

const versionFields = (version: LibraryVersion) => ({
  type: version.type,
  ...(version.type === "text" ? { template: version.template ?? "" } : { messages: version.messages ?? [] }),
  variables: version.variables,
  model: version.model,
  config: version.config,
  tools: version.tools,
  responseFormat: version.responseFormat,
  commitMessage: version.commitMessage,
});

function summarize(steps: Step[]): ImportPlan {
  const items = steps.map((step) => step.item);
  const count = (outcome: ImportPlan["items"][number]["outcome"]) => items.filter((item) => item.outcome === outcome).length;
  return {
    items,
    summary: {
      create: count("create"), update: count("update"), unchanged: count("unchanged"), conflict: count("conflict"),
      versions: items.reduce((sum, item) => sum + item.newVersions, 0),
      renamed: items.filter((item) => item.renamedFrom !== null).length,
    },
  };
}

/** The preview: what applying the document would do now. Advisory: apply plans again under lock. */
export async function previewImport(db: DbOrTx, who: LibraryRequest, document: unknown): Promise<ImportPlan> {
  return summarize(await plan(db, who, readDocument(document), false));
}

// ---- import: applying ----

/** Plans again inside one transaction (the prompts here locked) and applies it all, or nothing when any prompt conflicts. */
export async function applyImport(db: Db, who: LibraryRequest, document: unknown, now: Date): Promise<ImportPlan> {
  const incoming = readDocument(document);
  try {
    return await db.$transaction(
      async (tx) => {
        const steps = await plan(tx, who, incoming, true);
        if (steps.some((step) => step.item.outcome === "conflict")) fail("STATE_CONFLICT", LIBRARY_MSG.hasConflicts, "IMPORT_CONFLICTS");
        const saved: Parameters<typeof saveIncludes>[2][] = [];
        for (const step of steps) saved.push(...(await applyStep(tx, who, step, now)));
        // Once every prompt and label of the document is in place: an include may name one imported after its includer.
        for (const version of saved) await saveIncludes(tx, { caller: who.caller, access: who.access }, version);
        return summarize(steps);
      },
      { timeout: 60_000 },
    );
  } catch (error) {
    // A prompt of the same name created meanwhile (a concurrent import): nothing was applied.
    if (isUniqueViolation(error)) return fail("ALREADY_EXISTS", LIBRARY_MSG.hasConflicts, "NAME_TAKEN");
    throw error;
  }
}

/** Applies one prompt's step; answers the versions it saved, whose includes are checked once the whole document is in. */
async function applyStep(tx: DbTransaction, who: LibraryRequest, step: Step, now: Date): Promise<Parameters<typeof saveIncludes>[2][]> {
  const saved: Parameters<typeof saveIncludes>[2][] = [];
  const { incoming } = step;
  const where = { organizationId: who.team.organizationId, teamId: who.team.teamId, actor: who.audit.actor, ip: who.audit.ip };
  let promptId = step.existing?.id;
  if (!promptId) {
    const created = await tx.prompt.create({
      data: {
        organizationId: who.team.organizationId,
        teamId: who.team.teamId,
        name: incoming.name,
        title: promptTitleSchema.parse(incoming.title),
        description: promptDescriptionSchema.parse(incoming.description),
        tags: promptTagsSchema.parse(incoming.tags),
        visibility: incoming.visibility,
        authorId: authorOf(who.audit.actor),
        latestVersion: 0,
        createdAt: now,
        updatedAt: now,
      },
      select: { id: true },
    });
    promptId = created.id;
    await audit(tx, { ...where, action: "prompt.create", target: { type: "prompt", id: promptId, name: incoming.name }, after: { source: "import" } }, now);
  }
  if (step.save.length) {
    const last = step.save.at(-1)!.number;
    await tx.prompt.update({ where: { id: promptId }, data: { latestVersion: last, updatedAt: now } });
    for (const { version, number } of step.save) {
      const fields = runtimeCreateVersionInput.parse(versionFields(version));
      const { id: versionId } = await tx.promptVersion.create({
        select: { id: true },
        data: {
          promptId,
          version: number,
          type: version.type,
          template: version.type === "text" ? (fields.template ?? "") : null,
          messages: version.type === "chat" ? (fields.messages as unknown as Prisma.InputJsonValue) : Prisma.DbNull,
          variables: (fields.variables ?? []) as unknown as Prisma.InputJsonValue,
          model: fields.model ?? "",
          config: (fields.config ?? {}) as Prisma.InputJsonValue,
          tools: (fields.tools ?? []) as Prisma.InputJsonValue,
          responseFormat: fields.responseFormat ? (fields.responseFormat as Prisma.InputJsonValue) : Prisma.DbNull,
          commitMessage: fields.commitMessage ?? "",
          authorId: authorOf(who.audit.actor),
          createdAt: now,
        },
      });
      await audit(tx, { ...where, action: "prompt.version", target: { type: "prompt", id: promptId, name: incoming.name }, after: { version: number } }, now);
      const body = version.type === "text" ? { type: "text" as const, template: fields.template ?? "" } : { type: "chat" as const, messages: (fields.messages ?? []) as PromptMessage[] };
      saved.push({ teamId: who.team.teamId, name: incoming.name, versionId, version: number, body });
    }
    if (step.existing) {
      const move = { prompt: { id: promptId, ...who.team }, name: incoming.name, label: LATEST_LABEL, previousVersion: step.existing.latestVersion, version: last };
      await followMoveToIncluders(tx, move, who.audit.actor, now);
    }
  }
  for (const label of step.labels) {
    // moveLabel writes the label's audit event (its history) itself. Its label limit cannot refuse here: the plan counted
    // the labels under the prompt's lock, and every label writer goes through moveLabel under that lock.
    await moveLabel(tx, { id: promptId, ...who.team }, label.name, label.version, authorOf(who.audit.actor), now, { ...who.audit, now });
  }
  return saved;
}
