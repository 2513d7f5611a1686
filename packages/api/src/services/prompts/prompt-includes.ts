// Prompts that include prompts: `@@@langfusePrompt:name=NAME|label=LABEL@@@` (or `|version=N`)
// names a text prompt of the including prompt's team. At save the includes are followed with the
// saver's access (missing, archived or unreadable is "not found"; a cycle or a chain deeper than
// INCLUDE_MAX_DEPTH is refused naming the chain, and so is a resolution past the budget: tags,
// resolved length and different includes looked up) and stored in prompt_dependencies; a label move
// that would push an includer past the budget is refused naming the includer, and otherwise sent to
// the team's webhooks as `prompt.served.changed` for each includer whose served text it changes. At
// fetch they are followed again with the reader's access, through the one decision (authorize: a
// label-bound key fetches its labels only, also through an include), and each tag takes its prompt's
// resolved text.
// Includes stay in their team, so the runtime cache's `team:<id>` invalidation drops every includer of
// a prompt whose label moves (or that is archived) with it.
import type { z } from "zod";
import { Prisma, type DbOrTx, type DbTransaction } from "@promptly/db";
import {
  INCLUDE_MAX_DEPTH, INCLUDE_MAX_LOOKUPS, INCLUDE_MAX_RESOLVED_CHARS, INCLUDE_MAX_TAGS, INCLUDE_MSG, LATEST_LABEL, bodyIncludeTally, bodyIncludes, includeName, type resolutionGraph, isPlaceholder, type PromptMessage, type IncludeRef, type PromptAccess, type PromptFacts,
} from "@promptly/shared";
import { DomainError, fail } from "../../errors.ts";
import type { Actor } from "../access/actor.ts";
import { authorize } from "../access/authorize.ts";
import { promptVisibility, type Caller } from "../access/visibility.ts";
import { emitWebhookEvent } from "../webhooks/events.ts";

/** Who follows the includes: the caller, and their access in the including prompt's team (includes never leave it). */
export interface IncludeReader {
  caller: Caller;
  access: PromptAccess;
}

export type IncludeBody = { type: "text"; template: string } | { type: "chat"; messages: PromptMessage[] };

/** Langfuse's resolution graph: the root version, and each version's includes by the including version's id. */
type ResolutionGraph = z.infer<typeof resolutionGraph>;

export interface ResolvedBody {
  body: IncludeBody;
  /** Null when the version includes nothing (as Langfuse answers). */
  graph: ResolutionGraph | null;
  /** Every include followed, as written, for the per-request decision on a cached answer. */
  refs: IncludeRef[];
}

interface IncludedRow {
  promptId: string;
  name: string;
  visibility: PromptFacts["visibility"];
  authorId: string | null;
  versionId: string;
  version: number;
  type: "text" | "chat";
  template: string | null;
}

const selectorOf = (ref: IncludeRef) => (ref.version !== undefined ? { version: ref.version } : { label: ref.label });

/** The version an include names, of a live prompt of the team; null when there is none. */
async function findIncluded(db: DbOrTx, teamId: string, ref: IncludeRef): Promise<IncludedRow | null> {
  const chosen =
    ref.version !== undefined
      ? Prisma.sql`${ref.version}::int`
      : ref.label === LATEST_LABEL
        ? Prisma.sql`p.latest_version`
        : Prisma.sql`(SELECT l.version FROM prompt_labels l WHERE l.prompt_id = p.id AND l.name = ${ref.label})`;
  const [row] = await db.$queryRaw<IncludedRow[]>`
    SELECT p.id::text AS "promptId", p.name, p.visibility::text AS visibility, p.author_id::text AS "authorId",
           v.id::text AS "versionId", v.version, v.type::text AS type, v.template
    FROM prompts p JOIN prompt_versions v ON v.prompt_id = p.id AND v.version = ${chosen}
    WHERE p.team_id = ${teamId}::uuid AND p.name = ${ref.name} AND p.archived_at IS NULL`;
  return row ?? null;
}

/** Every text of a body with each tag replaced by its text (a function replacement: `$` in the text stays as it is). */
function replaceTags(body: IncludeBody, texts: Map<string, string>): IncludeBody {
  if (!texts.size) return body;
  const replace = (text: string) => {
    let out = text;
    for (const [tag, value] of texts) out = out.split(tag).join(value);
    return out;
  };
  return body.type === "text"
    ? { type: "text", template: replace(body.template) }
    : { type: "chat", messages: body.messages.map((message) => (isPlaceholder(message) ? message : { ...message, content: replace(message.content) })) };
}

/**
 * A body with its includes resolved, recursively, with `reader`'s access in `teamId`. `root.id` is
 * the version's id (null for a version being saved). Refuses, naming the include and the chain: an
 * include not found (missing, archived, not readable), one the reader may not fetch, a chat prompt, a
 * cycle (a prompt reached again, at any version), a chain of more than INCLUDE_MAX_DEPTH prompts, a
 * body of more than INCLUDE_MAX_TAGS tags, a resolved text over INCLUDE_MAX_RESOLVED_CHARS, and more
 * than INCLUDE_MAX_LOOKUPS different includes in the whole resolution. The budget is counted before
 * each text is built, so a resolution holds at most the budget plus one included text at each level,
 * however the stored tree is made (each version's text, kept for its other places, is within the
 * text of the version that includes it).
 */
export async function resolveIncludes(
  db: DbOrTx,
  reader: IncludeReader,
  teamId: string,
  root: { name: string; version: number; id: string | null; body: IncludeBody },
  /** The code of a refusal that only a change since the save explains (a label moved): INVALID at save, STATE_CONFLICT at fetch. */
  conflictCode: "INVALID" | "STATE_CONFLICT",
): Promise<ResolvedBody> {
  return followIncludes(db, teamId, root, conflictCode, (ref, row, chain) => {
    const decision = authorize(reader.caller, "prompt.read", {
      fetch: selectorOf(ref),
      prompt: row && { facts: { visibility: row.visibility, authorId: row.authorId }, access: reader.access },
    });
    if (decision.ok) return;
    // Saving, the body names what is not there (400, as Langfuse answers it); fetching, what was asked for is not found.
    if (decision.code === "NOT_FOUND") fail(conflictCode === "INVALID" ? "INVALID" : "NOT_FOUND", INCLUDE_MSG.notFound(ref, chain), "INCLUDE_NOT_FOUND");
    fail(decision.code, `${decision.message} (include ${includeName(ref)})`, "INCLUDE_FORBIDDEN");
  });
}

/** The reasons of the budget's refusals. */
const BUDGET_REASONS = new Set(["INCLUDE_TOO_MANY", "INCLUDE_TOO_LONG"]);

/** What following one version's includes made: its text, the names of every prompt it reaches, and its longest chain (itself alone: 1). */
interface Followed {
  body: IncludeBody;
  reached: ReadonlySet<string>;
  height: number;
}

/** One lookup per include however it is written: `version=01` and `version=1` name the same version. */
const lookupKey = (ref: IncludeRef) => JSON.stringify(ref.version !== undefined ? [ref.name, ref.version] : [ref.name, null, ref.label]);

/**
 * The walk of resolveIncludes; `admit` refuses an include the reader may not follow (row null: none
 * found). Within one walk each include is looked up once (at most INCLUDE_MAX_LOOKUPS of them) and
 * each version followed once: a version met again takes the text it made, unless the chain it is met
 * in would meet a cycle or pass the depth below it, where it is followed again to be refused exactly
 * as the first walk would refuse it. So a tree of 20 tags at each of five levels costs a query per
 * different include, not one per place, and answers and refuses as following every place would.
 */
async function followIncludes(
  db: DbOrTx,
  teamId: string,
  root: { name: string; version: number; id: string | null; body: IncludeBody },
  conflictCode: "INVALID" | "STATE_CONFLICT",
  admit: (ref: IncludeRef, row: IncludedRow | null, chain: readonly string[]) => void,
): Promise<ResolvedBody> {
  const graph: ResolutionGraph = { root: { name: root.name, version: root.version, id: root.id ?? "" }, dependencies: {} };
  const refs = new Map<string, IncludeRef>();
  const rows = new Map<string, IncludedRow | null>();
  const followed = new Map<string, Followed>();
  const lookUp = async (ref: IncludeRef, key: string, chain: readonly string[]) => {
    if (rows.has(key)) return rows.get(key)!;
    if (rows.size >= INCLUDE_MAX_LOOKUPS) fail(conflictCode, INCLUDE_MSG.tooManyLookups(ref, chain), "INCLUDE_TOO_MANY");
    const row = await findIncluded(db, teamId, ref);
    rows.set(key, row);
    return row;
  };
  const followVersion = async (row: IncludedRow, path: string[]) => {
    const child = await follow({ type: "text", template: row.template ?? "" }, path, row.versionId);
    followed.set(row.versionId, child);
    return child;
  };
  const follow = async (body: IncludeBody, chain: string[], parentId: string): Promise<Followed> => {
    const { includes, times, tags, length: written } = bodyIncludeTally(body);
    if (tags > INCLUDE_MAX_TAGS) fail(conflictCode, INCLUDE_MSG.tooManyTags(chain, tags), "INCLUDE_TOO_MANY");
    let length = written;
    const texts = new Map<string, string>();
    const reached = new Set<string>();
    let height = 1;
    for (const include of includes) {
      const ref: IncludeRef = include.version !== undefined ? { name: include.name, version: include.version } : { name: include.name, label: include.label };
      const path = [...chain, ref.name];
      if (chain.includes(ref.name)) fail(conflictCode, INCLUDE_MSG.cycle(path), "INCLUDE_CYCLE");
      if (path.length > INCLUDE_MAX_DEPTH) fail(conflictCode, INCLUDE_MSG.tooDeep(path), "INCLUDE_TOO_DEEP");
      const key = lookupKey(ref);
      const row = await lookUp(ref, key, chain);
      admit(ref, row, chain);
      if (!row) return fail(conflictCode === "INVALID" ? "INVALID" : "NOT_FOUND", INCLUDE_MSG.notFound(ref, chain), "INCLUDE_NOT_FOUND");
      if (row.type !== "text") fail(conflictCode, INCLUDE_MSG.notText(ref), "INCLUDE_NOT_TEXT");
      if (!refs.has(key)) refs.set(key, ref);
      (graph.dependencies[parentId] ??= []).push({ name: row.name, version: row.version, id: row.versionId });
      const before = followed.get(row.versionId);
      const reusable = before && path.length + before.height - 1 <= INCLUDE_MAX_DEPTH && !path.some((name) => before.reached.has(name));
      const child = reusable ? before : await followVersion(row, path);
      reached.add(ref.name);
      for (const name of child.reached) reached.add(name);
      height = Math.max(height, child.height + 1);
      const text = child.body.type === "text" ? child.body.template : "";
      // Counted before the text is built: each place the tag is written takes the included text's length instead.
      length += times.get(include.tag)! * (text.length - include.tag.length);
      if (length > INCLUDE_MAX_RESOLVED_CHARS) fail(conflictCode, INCLUDE_MSG.tooLong(ref, chain, length), "INCLUDE_TOO_LONG");
      texts.set(include.tag, text);
    }
    return { body: replaceTags(body, texts), reached, height };
  };
  const { body } = await follow(root.body, [root.name], root.id ?? "");
  return { body, graph: refs.size ? graph : null, refs: [...refs.values()] };
}

/** A version of the team served by a label or as the latest, with those labels (`latest` last). */
interface ServedIncluder {
  promptId: string;
  name: string;
  version: number;
  id: string;
  type: "text" | "chat";
  template: string | null;
  messages: unknown;
  labels: string[];
}

/**
 * The versions whose served text a move of `label` of prompt `name` changes: each live version of the
 * team served by a label or as the latest that includes it by that label, then, through includers of
 * includers, those that include one of them by a label it is served under; each once.
 */
async function servedIncluders(tx: DbTransaction, teamId: string, name: string, label: string): Promise<ServedIncluder[]> {
  const reached = new Map<string, ServedIncluder>();
  let moved = [{ name, label }];
  for (let depth = 1; depth < INCLUDE_MAX_DEPTH && moved.length; depth++) {
    const includers = await tx.$queryRaw<ServedIncluder[]>`
      SELECT DISTINCT ON (v.id) p.id::text AS "promptId", p.name, v.version, v.id::text AS id, v.type::text AS type, v.template, v.messages,
             ARRAY(SELECT l.name FROM prompt_labels l WHERE l.prompt_id = p.id AND l.version = v.version ORDER BY l.name COLLATE "C")
               || CASE WHEN v.version = p.latest_version THEN ARRAY[${LATEST_LABEL}] ELSE '{}'::text[] END AS labels
      FROM prompt_dependencies d
      JOIN prompt_versions v ON v.id = d.parent_version_id
      JOIN prompts p ON p.id = v.prompt_id
      WHERE d.team_id = ${teamId}::uuid AND p.archived_at IS NULL
        AND (d.child_name, d.child_label) IN (SELECT * FROM unnest(${moved.map((one) => one.name)}::text[], ${moved.map((one) => one.label)}::text[]))
        AND (v.version = p.latest_version OR EXISTS (SELECT 1 FROM prompt_labels l WHERE l.prompt_id = p.id AND l.version = v.version))`;
    moved = [];
    for (const includer of includers) {
      if (reached.has(includer.id)) continue;
      reached.set(includer.id, includer);
      for (const served of includer.labels) moved.push({ name: includer.name, label: served });
    }
  }
  return [...reached.values()];
}

/** Refuses a move that would push one of these includers past the budget, naming it; only the budget refuses here (whoever reads the includer meets any other problem). */
async function refuseOverBudget(tx: DbTransaction, teamId: string, includers: readonly ServedIncluder[]) {
  for (const includer of includers) {
    const body: IncludeBody = includer.type === "text" ? { type: "text", template: includer.template ?? "" } : { type: "chat", messages: includer.messages as PromptMessage[] };
    try {
      await followIncludes(tx, teamId, { name: includer.name, version: includer.version, id: includer.id, body }, "INVALID", () => undefined);
    } catch (error) {
      if (error instanceof DomainError && error.reason && BUDGET_REASONS.has(error.reason)) {
        fail("INVALID", INCLUDE_MSG.includerTooLong(includer.name, includer.version, error.message), error.reason);
      }
    }
  }
}

/** A label of a prompt pointed at another version: a label move, or `latest` by a new version (previousVersion null: a new label). */
interface IncludedMove {
  prompt: { id: string; teamId: string; organizationId: string };
  name: string;
  label: string;
  previousVersion: number | null;
  version: number;
}

/**
 * In the move's transaction, once it is made: refuses it when an includer whose served text it changes
 * would resolve past the budget, naming that includer; otherwise, when the label points elsewhere than
 * before, sends each of those includers' versions once as `prompt.served.changed` to the team's webhooks.
 */
export async function followMoveToIncluders(tx: DbTransaction, move: IncludedMove, actor: Actor, now: Date) {
  const { prompt } = move;
  const includers = await servedIncluders(tx, prompt.teamId, move.name, move.label);
  await refuseOverBudget(tx, prompt.teamId, includers);
  if (move.previousVersion === move.version) return;
  const include = { prompt: { id: prompt.id, name: move.name }, label: move.label, version: move.version, previousVersion: move.previousVersion };
  for (const includer of includers) {
    await emitWebhookEvent(tx, {
      type: "prompt.served.changed",
      organizationId: prompt.organizationId,
      teamId: prompt.teamId,
      actor,
      promptId: includer.promptId,
      promptName: includer.name,
      data: { version: includer.version, labels: includer.labels, include },
    }, now);
  }
}

/** What a delete takes from a prompt, as its includers name it: versions, the labels on them, and `latest` when the newest goes. */
export interface DeletedParts {
  /** The whole prompt: every include of it breaks. */
  whole: boolean;
  versions: readonly number[];
  labels: readonly string[];
  latest: boolean;
}

/** Lines of a delete's refusal at most; more includes are counted in the last. */
const INCLUDERS_LISTED = 20;

/**
 * In a delete's transaction: refuses it (INVALID, Langfuse's message) when another prompt of the team
 * includes what goes: a version of it, a label on one, `latest` when the newest goes, or anything of it
 * when it all goes. Every version of an includer counts (each stays fetchable by its number); an
 * includer the caller may not see (private, archived, or outside a key's view) is listed without its name.
 */
export async function refuseBrokenIncludes(tx: DbTransaction, caller: Caller, prompt: { id: string; teamId: string; name: string }, gone: DeletedParts) {
  const { joins, visible } = promptVisibility(caller);
  const broken = gone.whole
    ? Prisma.sql`TRUE`
    : Prisma.sql`(d.child_version = ANY(${[...gone.versions]}::int[]) OR d.child_label = ANY(${[...gone.labels, ...(gone.latest ? [LATEST_LABEL] : [])]}::text[]))`;
  const includers = await tx.$queryRaw<{ name: string; version: number; label: string | null; childVersion: number | null; visible: boolean }[]>`
    SELECT p.name, v.version, d.child_label AS label, d.child_version AS "childVersion", COALESCE(${visible}, FALSE) AS visible
    FROM prompt_dependencies d
    JOIN prompt_versions v ON v.id = d.parent_version_id
    JOIN prompts p ON p.id = v.prompt_id ${joins}
    WHERE d.team_id = ${prompt.teamId}::uuid AND d.child_name = ${prompt.name} AND p.id <> ${prompt.id}::uuid AND ${broken}
    ORDER BY p.name COLLATE "C", v.version, d.child_version, d.child_label`;
  if (!includers.length) return;
  const lines = [
    ...new Set(
      includers.map(
        (one) => `${one.visible ? `${one.name} v${one.version}` : INCLUDE_MSG.hiddenIncluder} depends on ${prompt.name} ${one.childVersion !== null ? `v${one.childVersion}` : one.label}`,
      ),
    ),
  ];
  const listed = lines.length > INCLUDERS_LISTED ? [...lines.slice(0, INCLUDERS_LISTED - 1), `and ${lines.length - INCLUDERS_LISTED + 1} more`] : lines;
  fail("INVALID", INCLUDE_MSG.deleteIncluded(listed), "INCLUDED");
}

/**
 * The per-request decision on the includes of an answer kept in the runtime cache (resolved by another
 * key of the team): a label-bound key fetches its labels only, through an include too.
 */
export function refuseUnfetchableIncludes(caller: Caller, refs: readonly IncludeRef[]) {
  const refused = unfetchableInclude(caller, refs);
  if (refused) fail(refused.decision.code, `${refused.decision.message} (include ${includeName(refused.ref)})`, "INCLUDE_FORBIDDEN");
}

/** Whether refuseUnfetchableIncludes lets these includes through. */
export const mayFetchIncludes = (caller: Caller, refs: readonly IncludeRef[]) => unfetchableInclude(caller, refs) === null;

/** The first include the caller may not fetch, with the decision that says so; null when there is none. */
function unfetchableInclude(caller: Caller, refs: readonly IncludeRef[]) {
  for (const ref of refs) {
    const decision = authorize(caller, "prompt.read", { fetch: selectorOf(ref) });
    if (!decision.ok) return { ref, decision };
  }
  return null;
}

/**
 * At save, in the version's transaction: its includes followed with the saver's access (refused as
 * resolveIncludes refuses), then stored as the version's edges.
 */
export async function saveIncludes(
  tx: DbTransaction,
  saver: IncludeReader,
  saved: { teamId: string; name: string; versionId: string; version: number; body: IncludeBody },
) {
  const includes = bodyIncludes(saved.body);
  if (!includes.length) return;
  await resolveIncludes(tx, saver, saved.teamId, { name: saved.name, version: saved.version, id: saved.versionId, body: saved.body }, "INVALID");
  await tx.promptDependency.createMany({
    data: includes.map((include) => ({
      parentVersionId: saved.versionId,
      teamId: saved.teamId,
      childName: include.name,
      childLabel: include.label ?? null,
      childVersion: include.version ?? null,
    })),
  });
}

/**
 * The prompt page's "Includes" (what this version includes, as written, with the prompt's id when the
 * reader may read it) and "Used by" (the latest version of each other prompt that includes this one, by
 * any label or version, among the prompts the reader may read).
 */
export async function includesAndUsedBy(
  db: DbOrTx,
  visibility: { joins: Prisma.Sql; visible: Prisma.Sql },
  prompt: { id: string; teamId: string; versionId: string },
) {
  const [includes, usedBy] = await Promise.all([
    db.$queryRaw<{ name: string; label: string | null; version: number | null; promptId: string | null }[]>`
      SELECT d.child_name AS name, d.child_label AS label, d.child_version AS version,
             (SELECT p.id::text FROM prompts p ${visibility.joins} WHERE p.team_id = d.team_id AND p.name = d.child_name AND ${visibility.visible}) AS "promptId"
      FROM prompt_dependencies d
      WHERE d.parent_version_id = ${prompt.versionId}::uuid
      ORDER BY d.child_name COLLATE "C", d.child_label, d.child_version`,
    db.$queryRaw<{ promptId: string; name: string; title: string; version: number; label: string | null; includedVersion: number | null }[]>`
      SELECT DISTINCT ON (p.id) p.id::text AS "promptId", p.name, p.title, v.version,
             d.child_label AS label, d.child_version AS "includedVersion"
      FROM prompt_dependencies d
      JOIN prompt_versions v ON v.id = d.parent_version_id
      JOIN prompts p ON p.id = v.prompt_id ${visibility.joins}
      WHERE d.team_id = ${prompt.teamId}::uuid AND d.child_name = (SELECT name FROM prompts WHERE id = ${prompt.id}::uuid)
        AND p.id <> ${prompt.id}::uuid AND p.archived_at IS NULL AND ${visibility.visible}
      ORDER BY p.id, v.version DESC
      LIMIT 100`,
  ]);
  return {
    includes,
    usedBy: usedBy.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
  };
}
