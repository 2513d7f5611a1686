// Who reads a production generation's text (and the judge's reasons, which may quote it), caller kind by
// caller kind: the team's members and the organization's admins in the app, every key of the prompt's
// team through REST /api/v1 (a key reads as its team's viewer, whatever its scopes); a member of the
// organization reading an organization prompt from outside its team sees the generation without it.
import { API_KEY_MSG, type ApiKeyScope } from "@promptly/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld, createPrompt, outcome } from "../../../testing/prompts-support.ts";
import { commandLineCaller, keyCaller, type KeyCaller } from "../access/visibility.ts";
import { authenticateApiKey } from "../identity/api-keys.ts";
import { ingestProduction } from "./ingest.ts";
import { runtimeGenerationPages, runtimeGenerations } from "./runtime-production.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createLibraryWorld>>;
let team: { id: string };
let prompt: { id: string; name: string };
let generationId: string;

const MINUTE = 60_000;
const REASON = 'It says "the answer" politely';
const db = () => h.services.db;
const span = () => ({ from: new Date(Date.now() - 60 * MINUTE), to: new Date(Date.now() + MINUTE) });

/** A key of `teamId` made by its admin, as the REST door authenticates it. */
async function key(teamId: string, settings: { scopes?: ApiKeyScope[]; labels?: string[] } = {}): Promise<KeyCaller> {
  const created = await world.callers.admin.apiKeys.create({ teamId, name: "Reader", ...settings });
  const authenticated = await authenticateApiKey(db(), created.key, h.clock.now());
  if (!authenticated.ok) throw new Error(authenticated.message);
  return keyCaller(authenticated.apiKey);
}

beforeAll(async () => {
  h = await createHarness();
  world = await createLibraryWorld(h);
  team = await world.team("Core");
  // An organization prompt: a member of the organization outside the team reads it, and its generations.
  prompt = await createPrompt(world.callers.editor, team.id, { visibility: "organization" });
  await world.callers.admin.teams.setGenerationText({ id: team.id, keep: true });
  const ingest = await world.ingestKey(team.id);
  const startedAt = new Date(Date.now() - 5 * MINUTE);
  await ingestProduction(db(), ingest, team.id, {
    generations: [{ observationId: "obs-1", source: "api", promptName: prompt.name, version: 1, startedAt, seenAt: startedAt, input: "the question", output: "the answer" }],
    scores: [],
  });
  const [row] = await db().$queryRaw<{ id: string }[]>`SELECT id::text FROM generations WHERE team_id = ${team.id}::uuid AND observation_id = 'obs-1'`;
  generationId = row!.id;
  // The judge's verdict, its reason quoting the output: shown as the text is.
  await ingestProduction(db(), commandLineCaller(), team.id, {
    generations: [],
    scores: [{ generationId, promptId: prompt.id, name: "polite", dataType: "boolean", value: 1, stringValue: "True", comment: REASON, source: "eval", externalId: `online:${generationId}:polite` }],
  });
});
afterAll(() => h.close());

/** The judge's reason on the generation in a list's items (null: withheld). */
const reasonIn = (items: { id: string; scores: { source: string; comment: string | null }[] }[]) =>
  items.find((item) => item.id === generationId)!.scores.find((score) => score.source === "eval")!.comment;

describe("a generation's text in the app, by caller kind", () => {
  // Text: the team's members and the organization's admins (and super users); withheld: an organization member outside the team.
  const expected = { orgMember: false, viewer: true, editor: true, admin: true, author: true, orgAdmin: true, superUser: true } as const;

  it.each(Object.entries(expected))("%s: text readable %s (one generation and the list)", async (kind, readable) => {
    const api = world.callers[kind as keyof typeof expected];
    const detail = await api.production.generation({ promptId: prompt.id, id: generationId });
    expect(detail).toMatchObject(readable ? { textReadable: true, input: "the question", output: "the answer" } : { textReadable: false, input: null, output: null });
    expect(reasonIn((await api.production.generations({ promptId: prompt.id, ...span() })).items)).toBe(readable ? REASON : null);
  });

  it("outsiders and another organization's members find no prompt", async () => {
    expect(await outcome(world.callers.outsider.production.generations({ promptId: prompt.id, ...span() }))).toBe("NOT_FOUND");
    expect(await outcome(world.callers.otherOrgMember.production.generation({ promptId: prompt.id, id: generationId }))).toBe("NOT_FOUND");
  });
});

describe("a generation's text through REST /api/v1, by key", () => {
  /** The judge's reason as the key reads it: a page, and the export's pages. */
  async function asKey(caller: KeyCaller) {
    const page = reasonIn((await runtimeGenerations(db(), caller, prompt.name, span(), new Date())).items);
    const exported = [];
    for await (const items of runtimeGenerationPages(db(), caller, prompt.name, span(), 1_000, new Date())) exported.push(...items);
    return { page, exported: reasonIn(exported) };
  }

  // Every scope a key of the team may hold reads the text: `read` alone (no `write`) as much as the others.
  it.each<[string, ApiKeyScope[]]>([
    ["read only (no write scope)", ["read"]],
    ["with the write scope", ["read", "write"]],
    ["with the ingest scope", ["ingest"]],
    ["with every scope", ["read", "write", "run", "delete", "ingest"]],
  ])("a key of the prompt's team, %s, reads it", async (_, scopes) => {
    expect(await asKey(await key(team.id, { scopes }))).toEqual({ page: REASON, exported: REASON });
  });

  it("a label-bound key reads no generations; another team's key finds no prompt", async () => {
    const bound = await key(team.id, { labels: ["production"] });
    await expect(runtimeGenerations(db(), bound, prompt.name, span(), new Date())).rejects.toMatchObject({ code: "FORBIDDEN", message: API_KEY_MSG.labelBound(["production"]) });
    const other = await key((await world.team("Other")).id);
    await expect(runtimeGenerations(db(), other, prompt.name, span(), new Date())).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
