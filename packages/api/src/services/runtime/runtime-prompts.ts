// The prompt library as an API key sees it (REST /api/v1). A key acts only within its team
// and is not a person: it sees the team's prompts that are not private (a private prompt is its
// author's alone) and not archived, fetches only the labels it is bound to, never moves `production`,
// and its writes have no author. Who may do what is the one decision's (access/authorize.ts), asked
// here too, so a service refuses alike whichever adapter calls it; the rules of versions and labels
// are prompts.ts's, reused here.
import { createHash } from "node:crypto";
import type { z } from "zod";
import { Prisma, type Db, type DbOrTx } from "@promptly/db";
import {
  LATEST_LABEL, bodyIncludes, promptNameSchema, runtimeUnitSchema, RUNTIME_DEFAULT_LABEL, RUNTIME_MSG, compile, effectiveContract, extractPlaceholders,
  type PlaceholderValues, type PromptMessage, type PromptVersionBody,
  accessOf, type OrganizationRole, type PromptFacts, type RuntimePrompt, type TeamRole, type RuntimeSelector, type VariableProblem, type runtimeCreatePromptInput,
  type runtimeCreateVersionInput, type runtimeListQuery, type runtimePromptPage, type Action,
} from "@promptly/shared";
import { DomainError, fail, invalidInput } from "../../errors.ts";
import { decodeKeysetCursor, encodeKeysetCursor } from "../platform/keyset-cursor.ts";
import type { AuditContext } from "../insight/audit.ts";
import type { LoadedPrompt } from "../prompts/loaded-prompt.ts";
import { prefixQuery } from "../prompts/prompt-reads.ts";
import { createVersion } from "../prompts/prompt-versions.ts";
import { mayFetchIncludes, refuseUnfetchableIncludes, resolveIncludes, type IncludeBody } from "../prompts/prompt-includes.ts";
import { createPrompt, deleteLivePrompt, type DeletedVersions } from "../prompts/prompt-writes.ts";
import { setLabels } from "../prompts/prompt-labels.ts";
import type { ResolvedPrompt, RuntimeCache } from "./runtime-cache.ts";
import { promptVisibility, type KeyCaller } from "../access/visibility.ts";
import { loadTeamAccess } from "../access/access.ts";
import { allowOrFail, authorize, type Resource } from "../access/authorize.ts";


const LIST_LIMIT = 50;
/**
 * The version a fetch means: a version, or a label (the default label filled in), with the fetch's
 * unit: the query's or argument's, else the X-Promptly-Unit header's (`headerUnit`), which the query's
 * rule holds to: a unit it refuses is refused in the query's words (400), not dropped.
 */
export function runtimeSelector(query: { label?: string; version?: number; unit?: string }, headerUnit?: string | string[]): RuntimeSelector {
  let header: string | undefined;
  if (query.unit === undefined && typeof headerUnit === "string") {
    const parsed = runtimeUnitSchema.safeParse(headerUnit);
    if (!parsed.success) throw invalidInput(parsed.error.issues.map((issue) => ({ path: "unit", message: issue.message })));
    header = parsed.data;
  }
  const unit = query.unit ?? header;
  const selector: RuntimeSelector = query.version !== undefined ? { version: query.version } : { label: query.label ?? RUNTIME_DEFAULT_LABEL };
  return unit === undefined ? selector : { ...selector, unit };
}

/**
 * Where a unit falls in a split label, in [0, 100): a hash of the prompt, the label and the unit, so
 * a unit gets the same version on every fetch, in every process, and units spread evenly.
 */
function splitBucket(promptId: string, label: string, unit: string): number {
  return createHash("sha256").update(`${promptId}\n${label}\n${unit}`).digest().readUInt32BE(0) % 100;
}

/**
 * Whether a fetch of a split label is served its candidate: for `weight` of every hundred buckets, by the
 * unit's bucket, or at random without a unit.
 */
function picksCandidate(promptId: string, selector: RuntimeSelector & { label: string }, weight: number): boolean {
  const bucket = selector.unit !== undefined ? splitBucket(promptId, selector.label, selector.unit) : Math.floor(Math.random() * 100);
  return bucket < weight;
}

/**
 * How a split label resolves: `pick`, by weight (or the unit), as a fetch is served; `base`, always the
 * label's own version, for a caller that must get the same version every time (an evaluation started
 * by label: a CI gate passing or failing by the pick's luck decides nothing).
 */
type SplitResolution = "pick" | "base";

/** The version a fetch of a kept answer is served: a split label's picked per fetch from what the cache holds, both versions resolved (no query). */
function pickVersion(resolved: ResolvedPrompt, selector: RuntimeSelector, split: SplitResolution): ResolvedPrompt {
  if (!resolved.split || selector.label === undefined || split === "base") return resolved;
  return picksCandidate(resolved.promptId, selector, resolved.split.weight) ? resolved.split.candidate : resolved;
}

/** The prompt of that name that the key may see (the one visibility rule: its team's, not private, not archived). */
async function findKeyPrompt(db: DbOrTx, caller: KeyCaller, name: string) {
  // A name no prompt can have (a NUL, capitals) is not looked up: nothing to find, and nothing PostgreSQL refuses.
  if (!promptNameSchema.safeParse(name).success) return null;
  const { joins, visible } = promptVisibility(caller);
  const [prompt] = await db.$queryRaw<
    {
      id: string; organizationId: string; name: string; title: string; tags: string[]; updatedAt: Date; latestVersion: number;
      visibility: PromptFacts["visibility"]; authorId: string | null; teamRole: TeamRole | null; organizationRole: OrganizationRole | null;
    }[]
  >`
    SELECT p.id::text AS id, p.organization_id::text AS "organizationId", p.name, p.title, p.tags, p.updated_at AS "updatedAt",
           p.latest_version AS "latestVersion", p.visibility::text AS visibility, p.author_id::text AS "authorId",
           my_tm.role::text AS "teamRole", my_om.role::text AS "organizationRole"
    FROM prompts p ${joins}
    WHERE p.name = ${name} AND ${visible}`;
  return prompt ?? null;
}

/** A version's resolution, or the refusal it met (an include the key may not fetch, one changed since), for a split's two versions. */
type Resolution = { ok: true; resolved: ResolvedPrompt } | { ok: false; error: DomainError };

const settle = (reading: Promise<ResolvedPrompt>): Promise<Resolution> =>
  reading.then(
    (resolved) => ({ ok: true, resolved }),
    (error: unknown) => {
      if (error instanceof DomainError) return { ok: false, error };
      throw error;
    },
  );

/**
 * A fetch read from the database: the version it is served (404 names the prompt and what was asked
 * for), and the answer kept for the next fetches (null: not kept). A split label resolves both its
 * versions, so each later fetch picks one from memory. A version refused (an include the key may not
 * fetch, one changed since) refuses only the fetches that pick it, as a kept answer does (which asks
 * about the picked version's includes alone); the refusal is not kept, nor the label's answer with it.
 */
async function getRuntimePrompt(
  db: DbOrTx, caller: KeyCaller, name: string, selector: RuntimeSelector, split: SplitResolution,
): Promise<{ served: ResolvedPrompt; kept: ResolvedPrompt | null }> {
  const notFound = () => fail("NOT_FOUND", RUNTIME_MSG.promptNotFound(name, selector));
  const prompt = (await findKeyPrompt(db, caller, name)) ?? notFound();
  const one = async (version: number) => {
    const resolved = await resolveVersion(db, caller, prompt, version, notFound);
    return { served: resolved, kept: resolved };
  };
  if (selector.label === undefined) return one(selector.version);
  if (selector.label === LATEST_LABEL) return one(prompt.latestVersion);
  const label = await db.promptLabel.findUnique({
    where: { promptId_name: { promptId: prompt.id, name: selector.label } },
    select: { version: true, candidateVersion: true, candidateWeight: true },
  });
  if (!label) return notFound();
  if (label.candidateVersion === null || label.candidateWeight === null) return one(label.version);
  const main = await settle(resolveVersion(db, caller, prompt, label.version, notFound));
  const candidate = await settle(resolveVersion(db, caller, prompt, label.candidateVersion, notFound, selector.label));
  const picked = split === "pick" && picksCandidate(prompt.id, selector, label.candidateWeight) ? candidate : main;
  if (!picked.ok) throw picked.error;
  const kept = main.ok && candidate.ok ? { ...main.resolved, split: { weight: label.candidateWeight, candidate: candidate.resolved } } : null;
  return { served: picked.resolved, kept };
}

/** What a version's row holds of the labels that serve it: those on it (split or not), and each split label whose candidate it is. */
const servingLabelsSelect = {
  labels: { select: { name: true } },
  candidateOf: { select: { name: true } },
} as const;

/**
 * The labels that serve a version (servingLabelsSelect's row), as every read of it names them; `servedUnder`
 * is added. Sorted here, by code unit (as the Langfuse list's COLLATE "C"), not by the database's collation, which may differ.
 */
function servingLabels(row: { labels: { name: string }[]; candidateOf: { name: string }[] }, servedUnder?: string): string[] {
  return [...new Set([...row.labels, ...row.candidateOf].map((label) => label.name).concat(servedUnder !== undefined ? [servedUnder] : []))].sort();
}

/**
 * The labels that serve a version of the key's prompt, as its fetch by version names them (`latest` aside),
 * read from the database now, with the prompt's newest version. Null when the key may not fetch the version
 * (a key bound to labels), or sees no such prompt or version.
 */
export async function runtimeVersionLabels(
  db: DbOrTx, caller: KeyCaller, name: string, version: number,
): Promise<{ labels: string[]; latestVersion: number } | null> {
  if (!authorize(caller, "prompt.read", { fetch: { version } }).ok) return null;
  const prompt = await findKeyPrompt(db, caller, name);
  if (!prompt) return null;
  const row = await db.promptVersion.findUnique({ where: { promptId_version: { promptId: prompt.id, version } }, select: servingLabelsSelect });
  if (!row) return null;
  return { labels: servingLabels(row), latestVersion: prompt.latestVersion };
}

/**
 * What a key's update of a version's labels (the Langfuse API's PATCH, MCP's updatePromptLabels) does with
 * `labels`: `keep`, those already on the version as read now (on it, or on it through a split, as its base
 * or its candidate: its fetch by version names them), which stay as they are, so a client sending back the
 * labels it read moves nothing and ends no split; `move`, the others, each allowed here by the one decision
 * (never `production`). setRuntimeLabels decides `keep` again under the prompt's lock: one no longer there
 * is moved, as the decision allows. Only a key that may fetch the version keeps any: another is refused
 * for each label as ever, and learns nothing of the version's labels.
 */
export async function runtimeLabelsToMove(
  db: DbOrTx, caller: KeyCaller, name: string, version: number, labels: readonly string[],
): Promise<{ move: string[]; keep: string[] }> {
  const on = (await runtimeVersionLabels(db, caller, name, version))?.labels ?? [];
  const unique = [...new Set(labels)];
  const move = unique.filter((label) => !on.includes(label));
  for (const label of move) allowOrFail(authorize(caller, "prompt.write", { label }));
  return { move, keep: unique.filter((label) => on.includes(label)) };
}

/**
 * One version of a prompt, as a tool receives it, with the labels that serve it: those on it, and each
 * split label whose candidate it is (that label's fetches are served it, as Langfuse's clients read it
 * and as the Langfuse list names it), however it is fetched. `servedUnder`: the split label read to
 * serve it, listed even if its split ended between the two reads, so the answer says what served it.
 * A split's start or end updates the label's row, whose trigger drops the team's kept answers, by version too.
 */
async function resolveVersion(
  db: DbOrTx,
  caller: KeyCaller,
  prompt: NonNullable<Awaited<ReturnType<typeof findKeyPrompt>>>,
  version: number,
  notFound: () => never,
  servedUnder?: string,
): Promise<ResolvedPrompt> {
  const row = await db.promptVersion.findUnique({
    where: { promptId_version: { promptId: prompt.id, version } },
    select: {
      id: true, version: true, type: true, template: true, messages: true, variables: true, model: true, config: true, tools: true, responseFormat: true, commitMessage: true, authorId: true, createdAt: true,
      ...servingLabelsSelect,
    },
  });
  if (!row) return notFound();
  const labels = servingLabels(row, servedUnder);
  const written: IncludeBody = row.type === "text" ? { type: row.type, template: row.template ?? "" } : { type: row.type, messages: row.messages as unknown as PromptMessage[] };
  const reader = { caller, access: { ...accessOf(caller, { teamRole: prompt.teamRole, organizationRole: prompt.organizationRole }), userId: caller.userId } };
  const resolved = bodyIncludes(written).length
    ? await resolveIncludes(db, reader, caller.apiKey.teamId, { name: prompt.name, version: row.version, id: row.id, body: written }, "STATE_CONFLICT")
    : null;
  const servedAs = (body: IncludeBody): RuntimePrompt => ({
    name: prompt.name,
    title: prompt.title,
    version: row.version,
    ...body,
    variables: effectiveContract({ ...body, variables: row.variables as unknown as RuntimePrompt["variables"] }),
    placeholders: extractPlaceholders(body),
    model: row.model,
    config: row.config as Record<string, unknown>,
    tools: row.tools as unknown as RuntimePrompt["tools"],
    responseFormat: row.responseFormat as unknown as RuntimePrompt["responseFormat"],
    labels,
    tags: prompt.tags,
    updatedAt: prompt.updatedAt.toISOString(),
  });
  const facts = { id: row.id, createdAt: row.createdAt.toISOString(), commitMessage: row.commitMessage, authorId: row.authorId, latestVersion: prompt.latestVersion };
  return {
    teamId: caller.apiKey.teamId,
    promptId: prompt.id,
    prompt: { ...servedAs(resolved?.body ?? written), resolutionGraph: resolved?.graph ?? null },
    unresolved: resolved ? servedAs(written) : null,
    includes: resolved?.refs ?? [],
    version: facts,
    facts: { visibility: prompt.visibility, authorId: prompt.authorId },
    split: null,
  };
}

/**
 * What a key's fetch (or compile) is served: from this process's cache when it holds the answer
 * (no query), else from the database, kept unless a change was heard meanwhile. Each answer counts
 * one use of its version by the key, under the label asked for ('' for an explicit version; flushed
 * to prompt_usage in batches). Not-found is not kept.
 */
export async function serveRuntimePrompt(
  deps: { db: DbOrTx; runtime: RuntimeCache; now: () => Date },
  caller: KeyCaller,
  name: string,
  selector: RuntimeSelector,
): Promise<RuntimePrompt> {
  return (await serveRuntimeVersion(deps, caller, name, selector)).prompt;
}

/** serveRuntimePrompt's fetch with the version's row beside the answer (the Langfuse-compatible API answers its id, dates and commit message). */
export async function serveRuntimeVersion(
  deps: { db: DbOrTx; runtime: RuntimeCache; now: () => Date },
  caller: KeyCaller,
  name: string,
  selector: RuntimeSelector,
): Promise<ResolvedPrompt> {
  allowOrFail(authorize(caller, "prompt.read", { fetch: selector }));
  const resolved = await resolveRuntimePrompt(deps, caller, name, selector);
  countRuntimeUse(deps, caller, selector, resolved);
  return resolved;
}

/** One use of the served version by the key, under the label asked for ('' for an explicit version). */
export function countRuntimeUse(deps: { runtime: RuntimeCache; now: () => Date }, caller: KeyCaller, selector: RuntimeSelector, resolved: ResolvedPrompt) {
  deps.runtime.countUse(resolved.promptId, resolved.prompt.version, caller.apiKey.id, selector.label ?? "", deps.now());
}

const runtimeCacheKey = (caller: KeyCaller, name: string, selector: RuntimeSelector) =>
  `${caller.apiKey.teamId}\n${name}\n${selector.version !== undefined ? `v${selector.version}` : `l${selector.label}`}`;

/**
 * The version as resolveRuntimePrompt answers it when this process's cache holds it, without a
 * query; undefined when only resolveRuntimePrompt can answer (not kept, or an include the key may
 * not fetch, which it refuses). The caller has asked the decision.
 */
export function cachedRuntimePrompt(runtime: RuntimeCache, caller: KeyCaller, name: string, selector: RuntimeSelector): ResolvedPrompt | undefined {
  const kept = runtime.prompt(runtimeCacheKey(caller, name, selector));
  const resolved = kept && pickVersion(kept, selector, "pick");
  return resolved && mayFetchIncludes(caller, resolved.includes) ? resolved : undefined;
}

/**
 * The prompt a key's action names, resolved, once the whole decision allows the action: first what
 * the key alone decides (its scopes and labels: no lookup, nothing revealed), then, the prompt known,
 * what the key's role, or a scope the permission table lets stand in for it, allows on this prompt.
 * Refusals are thrown as the domain error. `split`: how a split label resolves (resolveRuntimePrompt's).
 */
export async function keyPromptFor(
  deps: { db: DbOrTx; runtime: RuntimeCache },
  caller: KeyCaller,
  action: Action,
  name: string,
  selector: RuntimeSelector,
  split: SplitResolution = "pick",
): Promise<ResolvedPrompt> {
  allowOrFail(authorize(caller, action, { fetch: selector }));
  const resolved = await resolveRuntimePrompt(deps, caller, name, selector, split);
  const access = { ...accessOf(caller, { teamRole: caller.apiKey!.teamRole, organizationRole: "member" }), userId: caller.userId };
  allowOrFail(authorize(caller, action, { fetch: selector, prompt: { facts: resolved.facts, access } }));
  return resolved;
}

/**
 * The version a key's request names, from this process's cache when it holds it; the caller has asked
 * the decision. A split label's version is picked by weight, or with `split: "base"` is the label's own
 * (the same kept answer either way: it holds both).
 */
export async function resolveRuntimePrompt(
  deps: { db: DbOrTx; runtime: RuntimeCache },
  caller: KeyCaller,
  name: string,
  selector: RuntimeSelector,
  split: SplitResolution = "pick",
): Promise<ResolvedPrompt> {
  const cacheKey = runtimeCacheKey(caller, name, selector);
  const kept = deps.runtime.prompt(cacheKey);
  if (!kept) {
    const mark = deps.runtime.mark();
    const read = await getRuntimePrompt(deps.db, caller, name, selector, split);
    if (read.kept) deps.runtime.keepPrompt(cacheKey, read.kept, mark);
    return read.served;
  }
  const resolved = pickVersion(kept, selector, split);
  refuseUnfetchableIncludes(caller, resolved.includes);
  return resolved;
}

/** Fills a version with `values` (and its placeholders with theirs) by the shared compile: every contract problem at once, or the text or messages. */
export function compileRuntimePrompt(
  prompt: RuntimePrompt,
  values: Record<string, unknown>,
  placeholders: PlaceholderValues = {},
): { ok: true; version: number; text?: string; messages?: PromptMessage[] } | { ok: false; message: string; problems: VariableProblem[] } {
  const body: PromptVersionBody =
    prompt.type === "text"
      ? { type: "text", template: prompt.template ?? "", variables: prompt.variables }
      : { type: "chat", messages: prompt.messages ?? [], variables: prompt.variables };
  const result = compile(body, values, placeholders);
  if (!result.ok) return { ok: false, message: RUNTIME_MSG.compileFailed + result.message, problems: result.problems };
  return { ok: true, version: prompt.version, ...("text" in result ? { text: result.text } : { messages: result.messages }) };
}

/**
 * The key's team's prompts it may see (not private, not archived), by name, 50 a page: the keyset
 * cursor carries the last name and id. `q` searches like the library's search (each word a prefix)
 * and narrows the list; the order stays by name, so pages never shift under a tool. `name` (exact)
 * and `label` (a label on any version; `latest` is on every prompt) narrow it too (the MCP tool's filters).
 */
export async function listRuntimePrompts(
  db: DbOrTx,
  caller: KeyCaller,
  query: z.output<typeof runtimeListQuery> & { name?: string; label?: string },
): Promise<z.output<typeof runtimePromptPage>> {
  const { joins, visible } = promptVisibility(caller);
  const where: Prisma.Sql[] = [visible];
  if (query.folder) where.push(Prisma.sql`starts_with(p.name, ${`${query.folder}/`})`);
  if (query.tag) where.push(Prisma.sql`p.tags @> ARRAY[${query.tag}]::text[]`);
  if (query.name !== undefined) where.push(Prisma.sql`p.name = ${query.name}`);
  if (query.label !== undefined && query.label !== LATEST_LABEL) {
    where.push(Prisma.sql`EXISTS (SELECT 1 FROM prompt_labels fl WHERE fl.prompt_id = p.id AND fl.name = ${query.label})`);
  }
  if (query.q) {
    const tsquery = prefixQuery(query.q);
    const search = tsquery ? Prisma.sql`(to_tsquery('english', ${tsquery}) || to_tsquery('simple', ${tsquery}))` : Prisma.sql`''::tsquery`;
    where.push(Prisma.sql`(p.search_vector @@ ${search} OR ${query.q} <<% p.title OR ${query.q} <<% p.name)`);
  }
  if (query.cursor) {
    const { sortValue: name, id } = decodeKeysetCursor(query.cursor, promptNameSchema);
    where.push(Prisma.sql`(p.name COLLATE "C", p.id) > (${name}::text COLLATE "C", ${id}::uuid)`);
  }
  const rows = await db.$queryRaw<{ id: string; name: string; title: string; labels: { name: string; version: number }[]; latestVersion: number; tags: string[]; updatedAt: Date }[]>`
    SELECT p.id::text AS id, p.name, p.title, p.latest_version AS "latestVersion", p.tags, p.updated_at AS "updatedAt",
           COALESCE((SELECT json_agg(json_build_object('name', l.name, 'version', l.version) ORDER BY l.name)
                     FROM prompt_labels l WHERE l.prompt_id = p.id), '[]'::json) AS labels
    FROM prompts p ${joins}
    WHERE ${Prisma.join(where, " AND ")}
    ORDER BY p.name COLLATE "C", p.id
    LIMIT ${LIST_LIMIT + 1}`;
  const page = rows.slice(0, LIST_LIMIT);
  const last = page.at(-1);
  return {
    items: page.map(({ id: _id, updatedAt, ...row }) => ({ ...row, updatedAt: updatedAt.toISOString() })),
    nextCursor: rows.length > LIST_LIMIT && last ? encodeKeysetCursor(last.name, last.id) : null,
  };
}

// ---- writes ----

/**
 * The prompt as prompts.ts's writes take it, with the key's access in its team (a viewer, an editor
 * with the `write` scope), once the one decision allows `action` (a read, a write, or a delete) with each of `labels` on it.
 */
export async function loadKeyPrompt(
  db: DbOrTx, caller: KeyCaller, name: string, labels: readonly string[] = [], action: "prompt.read" | "prompt.write" | "prompt.delete" = "prompt.write",
): Promise<LoadedPrompt> {
  // The key's action, and each label it names: what the caller alone decides, then again with the prompt.
  const resources: Resource[] = labels.length ? labels.map((label) => ({ label })) : [{}];
  for (const resource of resources) allowOrFail(authorize(caller, action, resource));
  const found = await findKeyPrompt(db, caller, name);
  const prompt: LoadedPrompt | null = found && {
    id: found.id,
    teamId: caller.apiKey.teamId,
    organizationId: found.organizationId,
    archived: false,
    facts: { visibility: found.visibility, authorId: found.authorId },
    access: { ...accessOf(caller, { teamRole: found.teamRole, organizationRole: found.organizationRole }), userId: caller.userId },
  };
  for (const resource of resources) allowOrFail(authorize(caller, action, { ...resource, prompt }), RUNTIME_MSG.promptNotFound(name));
  return prompt!;
}

/** Who a key's write is recorded as, and from where. */
const keyContext = (caller: KeyCaller, now: Date, ip: string | null): AuditContext => ({ actor: { kind: "apiKey", apiKeyId: caller.apiKey.id }, ip, now });

/** A prompt in the key's team with its version 1 and `labels` on it, in one transaction; never private (a private prompt belongs to a person). */
export async function createRuntimePrompt(
  db: Db,
  caller: KeyCaller,
  input: z.output<typeof runtimeCreatePromptInput>,
  now: Date,
  ip: string | null = null,
  labels: readonly string[] = [],
) {
  allowOrFail(authorize(caller, "prompt.write"));
  for (const label of labels) allowOrFail(authorize(caller, "prompt.write", { label }));
  const team = await loadTeamAccess(db, caller, caller.apiKey.teamId);
  allowOrFail(authorize(caller, "prompt.write", { place: team }));
  const created = await createPrompt(db, caller, team!, { ...input, teamId: caller.apiKey.teamId }, now, keyContext(caller, now, ip), labels);
  return { name: created.name, version: created.version, versionId: created.versionId };
}

export async function createRuntimeVersion(
  db: Db,
  caller: KeyCaller,
  name: string,
  input: z.output<typeof runtimeCreateVersionInput>,
  now: Date,
  ip: string | null = null,
  labels: readonly string[] = [],
  tags?: readonly string[],
) {
  const prompt = await loadKeyPrompt(db, caller, name, labels);
  const { version, versionId } = await createVersion(db, caller, prompt, { ...input, promptId: prompt.id }, now, keyContext(caller, now, ip), labels, tags);
  return { name, version, versionId };
}

/**
 * A key's "create the prompt or add a version" (the Langfuse API's create, MCP's create tools): a new
 * prompt of that name with its version 1, or, when the key sees a prompt of that name, its next version,
 * with `labels` on it in the same transaction. A prompt keeps its type (a text prompt's versions are
 * text); tags are the prompt's, answered by every version: tags given with a new version replace them in
 * its transaction (`[]` clears them), none given keeps them. The title is used only for a new prompt.
 * `created`: whether the prompt is new. A name taken by a prompt the key cannot see is the create's conflict.
 */
export async function saveRuntimePrompt(
  db: Db,
  caller: KeyCaller,
  input: z.output<typeof runtimeCreatePromptInput>,
  now: Date,
  ip: string | null = null,
  labels: readonly string[] = [],
): Promise<{ name: string; version: number; versionId: string; created: boolean }> {
  const nextVersion = async () => {
    const prompt = await findKeyPrompt(db, caller, input.name);
    if (!prompt) return null;
    const [latest] = await db.$queryRaw<{ type: "text" | "chat" }[]>`
      SELECT type::text AS type FROM prompt_versions WHERE prompt_id = ${prompt.id}::uuid AND version = ${prompt.latestVersion}`;
    if (latest && latest.type !== input.type) fail("INVALID", RUNTIME_MSG.typeFixed(prompt.name, latest.type));
    const { type, template, messages, variables, model, config, commitMessage, tags } = input;
    return { ...(await createRuntimeVersion(db, caller, prompt.name, { type, template, messages, variables, model, config, commitMessage }, now, ip, labels, tags)), created: false };
  };
  const added = await nextVersion();
  if (added) return added;
  try {
    return { ...(await createRuntimePrompt(db, caller, input, now, ip, labels)), created: true };
  } catch (error) {
    // Made meanwhile by another request: its next version, when the key sees it.
    if (!(error instanceof DomainError && error.reason === "NAME_TAKEN")) throw error;
    return (await nextVersion()) ?? Promise.reject(error);
  }
}

/**
 * A key's delete (the Langfuse API's DELETE, with the `delete` scope): the whole prompt, one version, or
 * the version a label points to, as deleteLivePrompt's rules allow; never what `production` points to.
 */
export async function deleteRuntimePrompt(db: Db, caller: KeyCaller, name: string, which: DeletedVersions, now: Date, ip: string | null = null) {
  const prompt = await loadKeyPrompt(db, caller, name, which.label !== undefined ? [which.label] : [], "prompt.delete");
  await deleteLivePrompt(db, caller, prompt, name, which, keyContext(caller, now, ip));
}

/** Points a label at a version; `production` is never moved by a key, whatever its scopes (the one decision). */
export async function setRuntimeLabel(db: Db, caller: KeyCaller, name: string, label: string, version: number, now: Date, ip: string | null = null) {
  await setRuntimeLabels(db, caller, name, [label], version, now, ip);
  return { name, label, version };
}

/**
 * Points each of `labels` at a version, in one transaction: all of them move, or none (the Langfuse API's
 * and MCP's label updates). `keep` (runtimeLabelsToMove's): labels read as already on the version, each left
 * as it is if it still is under the prompt's lock, else moved too once the one decision allows it (a key
 * never moves `production`). Answers the labels moved.
 */
export async function setRuntimeLabels(
  db: Db, caller: KeyCaller, name: string, labels: readonly string[], version: number, now: Date, ip: string | null = null, keep: readonly string[] = [],
): Promise<string[]> {
  if (!labels.length && !keep.length) return [];
  const prompt = await loadKeyPrompt(db, caller, name, labels);
  const mayMove = (label: string) => {
    allowOrFail(authorize(caller, "prompt.write", { label }));
    allowOrFail(authorize(caller, "prompt.write", { label, prompt }), RUNTIME_MSG.promptNotFound(name));
  };
  return await setLabels(db, prompt, labels, version, now, keyContext(caller, now, ip), { labels: keep, mayMove });
}
