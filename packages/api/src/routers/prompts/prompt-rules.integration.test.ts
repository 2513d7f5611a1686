// Who may do what in the prompt library: every prompt procedure × every
// caller kind × every visibility, with the exact answer, and proof that a refused call changed
// nothing; then the lists, search, facets and dashboard never show what `prompts.get` refuses.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROMPT_VISIBILITIES, type PromptVisibility } from "@promptly/shared";
import { createHarness, outcome as answer, type Harness } from "../../../testing/harness.ts";
import { createTeam } from "../../../testing/teams-support.ts";
import {
  PROMPT_CALLER_KINDS, callerTable, createLibraryWorld, insertPrompts, libraryState, watchLibraryWrites, type PromptCallerKind, type PromptRow,
} from "../../../testing/prompts-support.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createLibraryWorld>>;
let team: Awaited<ReturnType<typeof world.team>>;

beforeAll(async () => {
  h = await createHarness();
  world = await createLibraryWorld(h);
  team = await world.team();
});
afterAll(() => h.close());

// ---- the expected answers ----

const CODES = { UA: "UNAUTHORIZED", NF: "NOT_FOUND", FB: "FORBIDDEN", OK: "OK", IN: "IN", "--": "--" } as const;
type Cell = (typeof CODES)[keyof typeof CODES];
type Rows = Record<PromptVisibility, Record<PromptCallerKind, Cell>>;

/** A table: a line per visibility, its name then one cell per caller kind, in PROMPT_CALLER_KINDS' order. */
const table = (text: string): Rows => callerTable(CODES, text);

// UA = UNAUTHORIZED, NF = NOT_FOUND, FB = FORBIDDEN, OK = done. For lists and counts: IN = the prompt
// is listed (counted), -- = the call answers but the prompt is not there. A prompt the caller may not
// read does not exist for them: NOT_FOUND, never FORBIDDEN. The columns:
//   anon = anonymous, out = outsider (another organization's admin, an app administrator),
//   oorg = another organization's member, orgM = member of the organization outside the team,
//   view / edit / adm = the team's viewer / editor / admin, oadm = organization admin (in no team),
//   su = super user, auth = the author (an editor of the team who created the prompt).

/** Read, bookmark: any role in the team or organization admin; organization prompts any member; private the author. */
const READ = table(`
  private        UA   NF   NF   NF   NF   NF   NF   NF   OK   OK
  team           UA   NF   NF   NF   OK   OK   OK   OK   OK   OK
  organization   UA   NF   NF   OK   OK   OK   OK   OK   OK   OK
`); //           anon out  oorg orgM view edit adm  oadm su   auth

/** Save a version, edit details, move labels other than production: team editor level; private the author. */
const WRITE = table(`
  private        UA   NF   NF   NF   NF   NF   NF   NF   OK   OK
  team           UA   NF   NF   NF   FB   OK   OK   OK   OK   OK
  organization   UA   NF   NF   FB   FB   OK   OK   OK   OK   OK
`); //           anon out  oorg orgM view edit adm  oadm su   auth

/**
 * Move or remove production, rename, delete: team admin level. A private prompt is its author's
 * alone, admin actions included (the comment on canOnPrompt settles it).
 */
const ADMIN = table(`
  private        UA   NF   NF   NF   NF   NF   NF   NF   OK   OK
  team           UA   NF   NF   NF   FB   FB   OK   OK   OK   FB
  organization   UA   NF   NF   FB   FB   FB   OK   OK   OK   FB
`); //           anon out  oorg orgM view edit adm  oadm su   auth

/**
 * Move or remove production: team admin level on every prompt. A private prompt's author needs it too:
 * a private prompt is shared again with the production it carries, and keys serve that.
 */
const PRODUCTION = table(`
  private        UA   NF   NF   NF   NF   NF   NF   NF   OK   FB
  team           UA   NF   NF   NF   FB   FB   OK   OK   OK   FB
  organization   UA   NF   NF   FB   FB   FB   OK   OK   OK   FB
`); //           anon out  oorg orgM view edit adm  oadm su   auth

/** Archive, restore: team admin level or the author. */
const ARCHIVE = table(`
  private        UA   NF   NF   NF   NF   NF   NF   NF   OK   OK
  team           UA   NF   NF   NF   FB   FB   OK   OK   OK   OK
  organization   UA   NF   NF   FB   FB   FB   OK   OK   OK   OK
`); //           anon out  oorg orgM view edit adm  oadm su   auth

/** Rate: any reader but the author. */
const RATE = table(`
  private        UA   NF   NF   NF   NF   NF   NF   NF   OK   FB
  team           UA   NF   NF   NF   OK   OK   OK   OK   OK   FB
  organization   UA   NF   NF   OK   OK   OK   OK   OK   OK   FB
`); //           anon out  oorg orgM view edit adm  oadm su   auth

/** Create in the team (a prompt of that visibility), check a name: team editor level; the team is hidden from non-members. */
const TEAM_EDITOR = table(`
  private        UA   NF   NF   NF   FB   OK   OK   OK   OK   OK
  team           UA   NF   NF   NF   FB   OK   OK   OK   OK   OK
  organization   UA   NF   NF   NF   FB   OK   OK   OK   OK   OK
`); //           anon out  oorg orgM view edit adm  oadm su   auth

/** Lists, search, the bookmarks list, facets, the dashboard: any member of the organization asks, and finds what READ allows. */
const LISTED = table(`
  private        UA   NF   NF   --   --   --   --   --   IN   IN
  team           UA   NF   NF   --   IN   IN   IN   IN   IN   IN
  organization   UA   NF   NF   IN   IN   IN   IN   IN   IN   IN
`); //           anon out  oorg orgM view edit adm  oadm su   auth

// ---- the procedures on one prompt ----

type Api = (typeof world.callers)[PromptCallerKind];
interface Prompt {
  id: string;
  name: string;
}
interface ProcedureCase {
  expected: Rows;
  /** The state the call needs, written with the prompt (`userId`: the caller's, null for anonymous). */
  given?: (userId: string | null) => Partial<PromptRow>;
  call: (api: Api, prompt: Prompt, visibility: PromptVisibility) => Promise<unknown>;
  /** What an accepted call did. */
  done: (prompt: Prompt, value: unknown, kind: PromptCallerKind, visibility: PromptVisibility) => Promise<void>;
}

const db = () => h.database.db;
const userOf = (kind: PromptCallerKind) => (kind === "anonymous" ? null : world.accounts[kind].id);
const stored = (prompt: Prompt) => db().prompt.findUnique({ where: { id: prompt.id } });
const labelOf = async (prompt: Prompt, name: string) =>
  (await db().promptLabel.findUnique({ where: { promptId_name: { promptId: prompt.id, name } } }))?.version ?? null;

const PROCEDURES: Record<string, ProcedureCase> = {
  "prompts.get": {
    expected: READ,
    call: (api, prompt) => api.prompts.get({ id: prompt.id }),
    // What the page offers is what the procedures answer.
    done: async (prompt, value, kind, visibility) => {
      const may = (rows: Rows) => rows[visibility][kind] === "OK";
      expect(value).toMatchObject({
        id: prompt.id,
        version: { version: 1 },
        can: { read: true, write: may(WRITE), "label.protected": may(PRODUCTION), rename: may(ADMIN), archive: may(ARCHIVE), delete: may(ADMIN), rate: may(RATE), run: may(WRITE) },
      });
    },
  },
  "prompts.update": {
    expected: WRITE,
    call: (api, prompt) => api.prompts.update({ id: prompt.id, title: "Changed title", tags: ["changed"] }),
    done: async (prompt) => expect(await stored(prompt)).toMatchObject({ title: "Changed title", tags: ["changed"] }),
  },
  "prompts.rename": {
    expected: ADMIN,
    call: (api, prompt) => api.prompts.rename({ id: prompt.id, name: `${prompt.name}-renamed` }),
    done: async (prompt) => expect((await stored(prompt))?.name).toBe(`${prompt.name}-renamed`),
  },
  "prompts.archive": {
    expected: ARCHIVE,
    call: (api, prompt) => api.prompts.archive({ id: prompt.id }),
    done: async (prompt) => expect((await stored(prompt))?.archivedAt).toBeInstanceOf(Date),
  },
  "prompts.restore": {
    expected: ARCHIVE,
    given: () => ({ archived: true }),
    call: (api, prompt) => api.prompts.restore({ id: prompt.id }),
    done: async (prompt) => expect((await stored(prompt))?.archivedAt).toBeNull(),
  },
  "prompts.delete": {
    expected: ADMIN,
    given: () => ({ archived: true }),
    call: (api, prompt) => api.prompts.delete({ id: prompt.id }),
    done: async (prompt) => {
      expect(await stored(prompt)).toBeNull();
      expect(await db().promptVersion.count({ where: { promptId: prompt.id } })).toBe(0);
    },
  },
  "promptVersions.create": {
    expected: WRITE,
    call: (api, prompt) => api.promptVersions.create({ promptId: prompt.id, template: "Answer {{ question }} briefly.", commitMessage: "Shorter" }),
    done: async (prompt, value) => {
      expect(value).toEqual({ version: 2 });
      expect((await stored(prompt))?.latestVersion).toBe(2);
      expect(await db().promptVersion.count({ where: { promptId: prompt.id } })).toBe(2);
    },
  },
  "promptVersions.list": {
    expected: READ,
    call: (api, prompt) => api.promptVersions.list({ promptId: prompt.id }),
    done: async (_prompt, value) => expect((value as { items: { version: number }[] }).items.map((item) => item.version)).toEqual([1]),
  },
  "promptLabels.set (staging)": {
    expected: WRITE,
    call: (api, prompt) => api.promptLabels.set({ promptId: prompt.id, label: "staging", version: 1 }),
    done: async (prompt) => expect(await labelOf(prompt, "staging")).toBe(1),
  },
  "promptLabels.set (production)": {
    expected: PRODUCTION,
    call: (api, prompt) => api.promptLabels.set({ promptId: prompt.id, label: "production", version: 1 }),
    done: async (prompt) => expect(await labelOf(prompt, "production")).toBe(1),
  },
  "promptLabels.remove (staging)": {
    expected: WRITE,
    given: () => ({ labels: ["staging"] }),
    call: (api, prompt) => api.promptLabels.remove({ promptId: prompt.id, label: "staging" }),
    done: async (prompt) => expect(await labelOf(prompt, "staging")).toBeNull(),
  },
  "promptLabels.remove (production)": {
    expected: PRODUCTION,
    given: () => ({ labels: ["production"] }),
    call: (api, prompt) => api.promptLabels.remove({ promptId: prompt.id, label: "production" }),
    done: async (prompt) => expect(await labelOf(prompt, "production")).toBeNull(),
  },
  "bookmarks.add": {
    expected: READ,
    call: (api, prompt) => api.bookmarks.add({ promptId: prompt.id }),
    done: async (prompt, _value, kind) => {
      expect(await db().promptBookmark.count({ where: { promptId: prompt.id, userId: userOf(kind)! } })).toBe(1);
      expect((await stored(prompt))?.bookmarkCount).toBe(1);
    },
  },
  "bookmarks.remove": {
    expected: READ,
    // A bookmark from when the caller could read the prompt (the database takes it from anyone).
    given: (userId) => ({ bookmarkedBy: userId ? [userId] : [] }),
    call: (api, prompt) => api.bookmarks.remove({ promptId: prompt.id }),
    done: async (prompt) => {
      expect(await db().promptBookmark.count({ where: { promptId: prompt.id } })).toBe(0);
      expect((await stored(prompt))?.bookmarkCount).toBe(0);
    },
  },
  "ratings.set": {
    expected: RATE,
    call: (api, prompt) => api.ratings.set({ promptId: prompt.id, stars: 4 }),
    done: async (prompt, value, kind) => {
      expect(value).toEqual({ myRating: 4, ratingAverage: 4, ratingCount: 1 });
      expect(await db().promptRating.findMany({ where: { promptId: prompt.id }, select: { userId: true, stars: true } })).toEqual([
        { userId: userOf(kind), stars: 4 },
      ]);
    },
  },
  "ratings.clear": {
    expected: RATE,
    given: (userId) => ({ ratedBy: userId ? [{ userId, stars: 2 }] : [] }),
    call: (api, prompt) => api.ratings.clear({ promptId: prompt.id }),
    done: async (prompt, value) => {
      expect(value).toEqual({ myRating: null, ratingAverage: 0, ratingCount: 0 });
      expect(await db().promptRating.count({ where: { promptId: prompt.id } })).toBe(0);
    },
  },
  "prompts.create": {
    expected: TEAM_EDITOR,
    call: (api, prompt, visibility) =>
      api.prompts.create({ teamId: team.id, name: `${prompt.name}-new`, title: "New", visibility, type: "text", template: "Hello {{ name }}" }),
    done: async (prompt, _value, kind, visibility) => {
      const created = await db().prompt.findUniqueOrThrow({ where: { teamId_name: { teamId: team.id, name: `${prompt.name}-new` } } });
      expect(created).toMatchObject({ visibility, authorId: userOf(kind), latestVersion: 1 });
    },
  },
  // Names are unique in a team whatever the visibility, so the check (like create's CONFLICT) says a
  // name is taken even when a prompt the caller cannot read holds it.
  "prompts.nameAvailable": {
    expected: TEAM_EDITOR,
    call: (api, prompt) => api.prompts.nameAvailable({ teamId: team.id, name: prompt.name }),
    done: async (_prompt, value) => expect(value).toEqual({ available: false }),
  },
};

const CELLS = Object.keys(PROCEDURES).flatMap((procedure) =>
  PROMPT_VISIBILITIES.flatMap((visibility) => PROMPT_CALLER_KINDS.map((kind) => [procedure, visibility, kind] as const)),
);

describe("prompt procedures × caller kinds × visibilities (who may do what)", () => {
  // One prompt per cell, by the author, in the state its procedure needs.
  const prompts = new Map<string, Prompt>();
  beforeAll(async () => {
    const created = await insertPrompts(
      h,
      CELLS.map(([procedure, visibility, kind]) => ({
        teamId: team.id,
        visibility,
        authorId: world.accounts.author.id,
        ...PROCEDURES[procedure]!.given?.(userOf(kind)),
      })),
    );
    CELLS.forEach((cell, index) => prompts.set(cell.join(), created[index]!));
    await watchLibraryWrites(h);
  });

  it.each(CELLS)("%s on a %s prompt as %s", async (procedure, visibility, kind) => {
    const { expected, call, done } = PROCEDURES[procedure]!;
    const prompt = prompts.get([procedure, visibility, kind].join())!;
    const before = await libraryState(h);
    const result = await answer(call(world.callers[kind], prompt, visibility));
    expect(result.code).toBe(expected[visibility][kind]);
    if (result.code === "OK") await done(prompt, result.value, kind, visibility);
    else expect(await libraryState(h)).toEqual(before);
  });
});

// ---- lists, search, facets and the dashboard ----

type ListingCase = (api: Api, organizationId: string, prompt: Prompt) => Promise<boolean>;
const LISTINGS: Record<string, ListingCase> = {
  "prompts.list": async (api, organizationId, prompt) =>
    (await api.prompts.list({ organizationId })).items.some((item) => item.id === prompt.id),
  "prompts.list with q": async (api, organizationId, prompt) =>
    (await api.prompts.list({ organizationId, q: "quokka" })).items.some((item) => item.id === prompt.id),
  "prompts.list bookmarked": async (api, organizationId, prompt) =>
    (await api.prompts.list({ organizationId, bookmarked: true })).items.some((item) => item.id === prompt.id),
  "prompts.facets": async (api, organizationId) => {
    const facets = await api.prompts.facets({ organizationId });
    const listed = facets.tags.some((tag) => tag.tag === "marsupials");
    expect(facets.folders.some((folder) => folder.path === "zoo")).toBe(listed);
    return listed;
  },
  "dashboard.stats": async (api, organizationId) => {
    const stats = await api.dashboard.stats({ organizationId });
    const counted = stats.totalPrompts === 1;
    // The prompt, the caller's bookmark of it and the viewer's rating, or nothing at all.
    expect(stats).toMatchObject(counted ? { bookmarks: 1, ratingCount: 1, averageRating: 5 } : { totalPrompts: 0, bookmarks: 0, ratingCount: 0, averageRating: null });
    return counted;
  },
  "dashboard.popular": async (api, organizationId, prompt) => (await api.dashboard.popular({ organizationId })).some((item) => item.id === prompt.id),
};

describe("lists, search, facets and the dashboard × caller kinds × visibilities", () => {
  // A fresh organization per visibility with the world's people and one prompt, bookmarked by
  // everyone (while they could read it, say) and rated by the viewer.
  const places = new Map<PromptVisibility, { organizationId: string; prompt: Prompt }>();
  beforeAll(async () => {
    for (const visibility of PROMPT_VISIBILITIES) {
      const space = await world.space(`Listed ${visibility}`);
      const everyone = PROMPT_CALLER_KINDS.flatMap((kind) => userOf(kind) ?? []);
      const [prompt] = await insertPrompts(h, [
        {
          teamId: space.team.id,
          name: "zoo/quokka",
          title: "Quokka care",
          tags: ["marsupials"],
          visibility,
          authorId: world.accounts.author.id,
          bookmarkedBy: everyone,
          ratedBy: [{ userId: world.accounts.viewer.id, stars: 5 }],
        },
      ]);
      places.set(visibility, { organizationId: space.organizationId, prompt: prompt! });
    }
  });

  const cells = Object.keys(LISTINGS).flatMap((listing) =>
    PROMPT_VISIBILITIES.flatMap((visibility) => PROMPT_CALLER_KINDS.map((kind) => [listing, visibility, kind] as const)),
  );
  it.each(cells)("%s with a %s prompt as %s", async (listing, visibility, kind) => {
    const { organizationId, prompt } = places.get(visibility)!;
    const result = await answer(LISTINGS[listing]!(world.callers[kind], organizationId, prompt));
    expect(result.code === "OK" ? (result.value ? "IN" : "--") : result.code).toBe(LISTED[visibility][kind]);
  });
});

/** How many prompts of the fixture below each kind reads (archived ones included), counted by hand from READ. */
const EXPECTED_READABLE: Record<Exclude<PromptCallerKind, "anonymous">, number> = {
  outsider: 4, // the other organization's team and organization prompts (an organization admin there)
  otherOrgMember: 6, // and the private ones they wrote
  orgMember: 8, // the organization prompts of both teams; not their private one, written in a team they are not in
  viewer: 18, // team A's team and organization prompts, team B's too (an editor there) and their private ones in B
  editor: 14, // team A's, their private one, team B's organization prompts
  admin: 16, // team A's and team B's (a viewer there) team and organization prompts
  orgAdmin: 16, // every team and organization prompt of the organization, no private one
  superUser: 30, // everything
  author: 15, // team A's, their two private ones there, team B's organization prompts (not their private one in B)
};

describe("every list shows exactly what prompts.get accepts", () => {
  // Two teams of one organization and a team of another; prompts of every visibility by several
  // authors, archived or not, some by people no longer in the team, one by a deleted account.
  // Everyone bookmarked every prompt and the super user rated each.
  const fixture: (Prompt & { organizationId: string; teamId: string; archived: boolean; tag: string })[] = [];
  let organizationId: string;
  let teams: string[];
  beforeAll(async () => {
    const space = await world.space("Agreement");
    organizationId = space.organizationId;
    const { author, editor, viewer, admin, orgMember, otherOrgMember, superUser } = world.accounts;
    // Team B: the viewer is an editor there, the admin a viewer; the author and the editor are not in it.
    const teamB = await createTeam(h, organizationId, [{ userId: viewer.id, role: "editor" }, { userId: admin.id, role: "viewer" }], "Second");
    teams = [space.team.id, teamB.id];
    const rows: (PromptRow & { organizationId: string })[] = [];
    const add = (organization: string, teamId: string, authorId: string | null, archived = false) => {
      for (const visibility of PROMPT_VISIBILITIES) rows.push({ organizationId: organization, teamId, visibility, authorId, archived });
    };
    add(organizationId, space.team.id, author.id);
    add(organizationId, space.team.id, author.id, true);
    add(organizationId, space.team.id, editor.id);
    add(organizationId, space.team.id, orgMember.id); // never in the team (or since removed)
    add(organizationId, space.team.id, null); // a deleted account
    add(organizationId, teamB.id, viewer.id);
    add(organizationId, teamB.id, viewer.id, true);
    add(organizationId, teamB.id, author.id); // not in team B
    add(world.elsewhere.id, world.elsewhere.team.id, otherOrgMember.id);
    add(world.elsewhere.id, world.elsewhere.team.id, otherOrgMember.id, true);
    const everyone = PROMPT_CALLER_KINDS.flatMap((kind) => userOf(kind) ?? []);
    const tagged = rows.map((row, index) => ({
      ...row,
      name: `f${index}/agreement`,
      tags: [`t${index}`],
      template: "Describe the zebra for {{ audience }}.",
      bookmarkedBy: everyone,
      ratedBy: [{ userId: superUser.id, stars: 3 }],
    }));
    const created = await insertPrompts(h, tagged);
    created.forEach((prompt, index) => {
      const row = tagged[index]!;
      fixture.push({ ...prompt, organizationId: row.organizationId, teamId: row.teamId, archived: row.archived ?? false, tag: `t${index}` });
    });
  });

  const signedIn = PROMPT_CALLER_KINDS.filter((kind) => kind !== "anonymous");
  it.each(signedIn)("as %s", async (kind) => {
    const api = world.callers[kind];
    const accepted: typeof fixture = [];
    for (const prompt of fixture) {
      const { code } = await answer(api.prompts.get({ id: prompt.id }));
      expect(["OK", "NOT_FOUND"]).toContain(code);
      if (code === "OK") accepted.push(prompt);
    }
    const ids = (prompts: { id: string }[]) => prompts.map((prompt) => prompt.id).sort();
    const live = accepted.filter((prompt) => !prompt.archived);
    const pages = async (input: Omit<Parameters<Api["prompts"]["list"]>[0], "organizationId">) => {
      const found: { id: string }[] = [];
      for (const organization of [organizationId, world.elsewhere.id]) {
        const result = await answer(api.prompts.list({ organizationId: organization, limit: 100, ...input }));
        if (result.code === "OK") found.push(...(result.value as { items: { id: string }[]; nextCursor: string | null }).items);
        else expect(result.code).toBe("NOT_FOUND");
      }
      return ids(found);
    };
    expect([...(await pages({})), ...(await pages({ archived: true }))].sort()).toEqual(ids(accepted));
    expect(await pages({ q: "zebra" })).toEqual(ids(live));
    expect(await pages({ q: "zebra", archived: true })).toEqual(ids(accepted.filter((prompt) => prompt.archived)));
    expect(await pages({ bookmarked: true })).toEqual(ids(live));

    for (const organization of [organizationId, world.elsewhere.id]) {
      const inOrganization = live.filter((prompt) => prompt.organizationId === organization);
      const facets = await answer(api.prompts.facets({ organizationId: organization }));
      const stats = await answer(api.dashboard.stats({ organizationId: organization }));
      const popular = await answer(api.dashboard.popular({ organizationId: organization }));
      if (facets.code !== "OK") {
        expect([facets.code, stats.code, popular.code]).toEqual(["NOT_FOUND", "NOT_FOUND", "NOT_FOUND"]);
        expect(inOrganization).toEqual([]);
        continue;
      }
      const { tags, folders } = facets.value as { tags: { tag: string; count: number }[]; folders: { path: string; count: number }[] };
      expect(tags.map((tag) => tag.tag).sort()).toEqual(inOrganization.map((prompt) => prompt.tag).sort());
      expect(folders.map((folder) => folder.path).sort()).toEqual(inOrganization.map((prompt) => prompt.name.split("/")[0]).sort());
      const n = inOrganization.length;
      expect(stats.value).toMatchObject({ totalPrompts: n, bookmarks: n, ratingCount: n, averageRating: n ? 3 : null });
      const popularIds = (popular.value as { id: string }[]).map((item) => item.id);
      expect(popularIds).toHaveLength(Math.min(6, n));
      expect(ids(inOrganization)).toEqual(expect.arrayContaining(popularIds));
    }

    // A team filter names a team the caller sees; its page is the readable prompts of that team.
    for (const teamId of teams) {
      const result = await answer(api.prompts.list({ organizationId, teamId, limit: 100 }));
      if (result.code !== "OK") {
        expect(result.code).toBe("NOT_FOUND");
        continue;
      }
      expect(ids((result.value as { items: { id: string }[] }).items)).toEqual(ids(live.filter((prompt) => prompt.teamId === teamId)));
    }
    expect(accepted.length).toBe(EXPECTED_READABLE[kind]);
  });
});
