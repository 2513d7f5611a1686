// Fixtures for the prompt library's integration tests: the teams' world (one person of each caller
// kind) with the two kinds the library adds, another organization's member and a prompt's author;
// prompts created through the API or, by the hundred, straight into the database; and the state of
// the library's tables, to show that a refused call changed nothing.
import { PROMPT_VISIBILITIES, type PromptVisibility } from "@promptly/shared";
import { CALLER_KINDS, createSignedInAccount, createTeam, createWorld, type SignedInAccount } from "./teams-support.ts";
import type { Harness } from "./harness.ts";
import { keyCaller, type KeyCaller } from "../src/services/access/visibility.ts";

export { failure, outcome } from "./teams-support.ts";

/** The teams' caller kinds, another organization's member, and the author: an editor of the team who created the prompt. */
export const PROMPT_CALLER_KINDS = [...CALLER_KINDS.slice(0, 2), "otherOrgMember", ...CALLER_KINDS.slice(2), "author"] as const;
export type PromptCallerKind = (typeof PROMPT_CALLER_KINDS)[number];
type Api = SignedInAccount["api"];

/**
 * The teams' world, plus an author (member of the organization, editor of every team `team()` makes)
 * and another organization's member (an editor in a team of their own organization). `space()` makes
 * a fresh organization and team with the same people in the same roles, for tests that count.
 */
export async function createLibraryWorld(h: Harness) {
  const world = await createWorld(h);
  const db = h.database.db;
  const author = await createSignedInAccount(h, { fullName: "Alex Author" });
  const otherOrgMember = await createSignedInAccount(h, { fullName: "Nora Neighbour" });
  const elsewhere = await db.organization.findFirstOrThrow({ where: { members: { some: { userId: world.accounts.outsider.id } } } });
  await db.organizationMember.create({ data: { organizationId: elsewhere.id, userId: otherOrgMember.id, role: "member" } });
  await db.organizationMember.create({ data: { organizationId: world.organization.id, userId: author.id, role: "member" } });
  const elsewhereTeam = await createTeam(h, elsewhere.id, [{ userId: otherOrgMember.id, role: "editor" }], "Neighbours");
  const accounts = { ...world.accounts, otherOrgMember, author };
  const callers = { ...world.callers, otherOrgMember: otherOrgMember.api, author: author.api } as Record<PromptCallerKind, Api>;
  const { viewer, editor, admin, orgMember, orgAdmin } = world.accounts;
  const teamMembers = [
    { userId: admin.id, role: "admin" as const },
    { userId: editor.id, role: "editor" as const },
    { userId: author.id, role: "editor" as const },
    { userId: viewer.id, role: "viewer" as const },
  ];

  /** A team of the organization with the viewer, the editor, the author (an editor) and the admin. */
  const team = (name = "Core", organizationId = world.organization.id) => createTeam(h, organizationId, teamMembers, name);

  /** A new organization with the people of the world in their roles, and one team of theirs. */
  const space = async (name = "Space") => {
    const organization = await db.organization.create({
      data: {
        name,
        members: {
          create: [
            ...[orgMember, viewer, editor, admin, author].map((account) => ({ userId: account.id, role: "member" as const })),
            { userId: orgAdmin.id, role: "admin" as const },
          ],
        },
      },
      select: { id: true },
    });
    return { organizationId: organization.id, team: await team("Core", organization.id) };
  };

  /** A key of the team with the ingest scope (made by its admin), as the production services take their caller. */
  const ingestKey = async (teamId: string, name = "Tracing"): Promise<KeyCaller> => {
    const created = await world.callers.admin.apiKeys.create({ teamId, name, scopes: ["ingest"] });
    return keyCaller({ id: created.id, teamId, labels: null, scopes: ["ingest"] });
  };

  return { ...world, accounts, callers, elsewhere: { id: elsewhere.id, team: elsewhereTeam }, team, space, ingestKey };
}

/**
 * Expected answers as a table: a line per visibility, its name then one cell per caller kind in
 * PROMPT_CALLER_KINDS' order, each cell a key of `codes` ("OK", "NF", ...).
 */
export function callerTable<C extends Record<string, string>>(codes: C, text: string): Record<PromptVisibility, Record<PromptCallerKind, C[keyof C]>> {
  const lines = text.trim().split("\n").map((line) => line.trim().split(/\s+/));
  const rowsByVisibility = Object.fromEntries(
    lines.map(([visibility, ...cells]) => {
      if (cells.length !== PROMPT_CALLER_KINDS.length) throw new Error(`the ${visibility} line needs ${PROMPT_CALLER_KINDS.length} cells`);
      return [visibility, Object.fromEntries(PROMPT_CALLER_KINDS.map((kind, index) => [kind, codes[cells[index] as keyof C]]))];
    }),
  );
  if (PROMPT_VISIBILITIES.some((visibility) => !rowsByVisibility[visibility])) throw new Error("a table needs a line per visibility");
  return rowsByVisibility as Record<PromptVisibility, Record<PromptCallerKind, C[keyof C]>>;
}

let promptCounter = 0;

/** A fresh prompt name (prompt names are unique within a team). */
export const promptName = (prefix = "prompt") => `${prefix}-${++promptCounter}`;

interface PromptOptions {
  visibility: PromptVisibility;
  name?: string;
  title?: string;
  description?: string;
  tags?: string[];
  template?: string;
}

/** A text prompt (version 1) created through the API by `by`. */
export async function createPrompt(by: Api, teamId: string, options: PromptOptions) {
  const name = options.name ?? promptName();
  const created = await by.prompts.create({
    teamId,
    name,
    title: options.title ?? `Prompt ${name}`,
    description: options.description,
    tags: options.tags,
    visibility: options.visibility,
    type: "text",
    template: options.template ?? "Answer {{ question }} politely.",
  });
  return { id: created.id, name };
}

export interface PromptRow {
  teamId: string;
  name?: string;
  title?: string;
  visibility: PromptVisibility;
  authorId: string | null;
  tags?: string[];
  template?: string;
  archived?: boolean;
  /** Labels on version 1. */
  labels?: string[];
  /** People who bookmarked it, who rated it (stars). */
  bookmarkedBy?: string[];
  ratedBy?: { userId: string; stars: number }[];
}

/**
 * Text prompts with their version 1 (and labels, bookmarks, ratings), written straight into the
 * database in a few statements: the fixtures of tests that need hundreds (creating through the API
 * has tests of its own). The ids come back in the order of `rows`.
 */
export async function insertPrompts(h: Harness, rows: PromptRow[]): Promise<{ id: string; name: string }[]> {
  const db = h.database.db;
  const teams = await db.team.findMany({ where: { id: { in: [...new Set(rows.map((row) => row.teamId))] } }, select: { id: true, organizationId: true } });
  const organizationOf = new Map(teams.map((team) => [team.id, team.organizationId]));
  const named = rows.map((row) => ({ ...row, name: row.name ?? promptName() }));
  const now = h.clock.now();
  const created = await db.prompt.createManyAndReturn({
    data: named.map((row) => ({
      organizationId: organizationOf.get(row.teamId)!,
      teamId: row.teamId,
      name: row.name,
      title: row.title ?? `Prompt ${row.name}`,
      tags: row.tags ?? [],
      visibility: row.visibility,
      authorId: row.authorId,
      latestVersion: 1,
      archivedAt: row.archived ? now : null,
    })),
    select: { id: true, teamId: true, name: true },
  });
  const ids = named.map((row) => created.find((prompt) => prompt.teamId === row.teamId && prompt.name === row.name)!.id);
  await db.promptVersion.createMany({
    data: named.map((row, index) => ({
      promptId: ids[index]!,
      version: 1,
      type: "text" as const,
      template: row.template ?? "Answer {{ question }} politely.",
      authorId: row.authorId,
    })),
  });
  await db.promptLabel.createMany({ data: named.flatMap((row, index) => (row.labels ?? []).map((name) => ({ promptId: ids[index]!, name, version: 1 }))) });
  await db.promptBookmark.createMany({ data: named.flatMap((row, index) => (row.bookmarkedBy ?? []).map((userId) => ({ promptId: ids[index]!, userId }))) });
  await db.promptRating.createMany({ data: named.flatMap((row, index) => (row.ratedBy ?? []).map((rating) => ({ promptId: ids[index]!, ...rating }))) });
  return named.map((row, index) => ({ id: ids[index]!, name: row.name }));
}

/**
 * Counts every row written to the library's tables (insert, update or delete, by any code and any
 * trigger) in a counter of the test database: `libraryState` before and after a call says whether
 * it changed anything, however many rows the tables hold. A write rolled back is no change.
 */
export async function watchLibraryWrites(h: Harness) {
  await h.database.db.$executeRawUnsafe(`CREATE TABLE test_library_writes (n bigint NOT NULL)`);
  await h.database.db.$executeRawUnsafe(`INSERT INTO test_library_writes VALUES (0)`);
  await h.database.db.$executeRawUnsafe(`
    CREATE FUNCTION test_count_library_write() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN UPDATE test_library_writes SET n = n + 1; RETURN NULL; END $$`);
  for (const table of ["prompts", "prompt_versions", "prompt_labels", "prompt_bookmarks", "prompt_ratings"]) {
    await h.database.db.$executeRawUnsafe(`
      CREATE TRIGGER test_count_library_write AFTER INSERT OR UPDATE OR DELETE ON ${table}
      FOR EACH ROW EXECUTE FUNCTION test_count_library_write()`);
  }
}

/** The library's row counts and how many rows were written so far (watchLibraryWrites must have run). */
export async function libraryState(h: Harness) {
  const [state] = await h.database.db.$queryRaw<Record<string, number>[]>`
    SELECT (SELECT count(*)::int FROM prompts) AS prompts,
           (SELECT count(*)::int FROM prompt_versions) AS versions,
           (SELECT count(*)::int FROM prompt_labels) AS labels,
           (SELECT count(*)::int FROM prompt_bookmarks) AS bookmarks,
           (SELECT count(*)::int FROM prompt_ratings) AS ratings,
           (SELECT n::int FROM test_library_writes) AS "rowsWritten"`;
  return state!;
}
