// A page of generations holds at most GENERATIONS_PAGE_SCORE_BYTES_MAX of score text: a key that fills its
// prompt's generations with the most scores of the longest comments would otherwise make every page and
// export of the prompt tens of megabytes, enough to bring the server down. The page ends early instead,
// its cursor going on right after its last generation, so following cursors still gives every generation
// once, in order, with all its scores; a page of ordinary scores is whole.
import { GENERATION_SCORES_MAX } from "@promptly/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld, createPrompt } from "../../../testing/prompts-support.ts";
import { keyCaller, type KeyCaller } from "../access/visibility.ts";
import { authenticateApiKey } from "../identity/api-keys.ts";
import { SCORE_COMMENT_MAX } from "../platform/storable-text.ts";
import { GENERATIONS_PAGE_SCORE_BYTES_MAX, listGenerations, scoresOf } from "./generations.ts";
import { ingestProduction } from "./ingest.ts";
import { runtimeGenerationPages, runtimeGenerations } from "./runtime-production.ts";

let h: Harness;
let flooded: { id: string; name: string };
let ordinary: { id: string; name: string };
let ingestKey: KeyCaller;
let key: KeyCaller;
let floodedIds: string[];
let ordinaryIds: string[];

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const now = new Date(Math.floor(Date.now() / HOUR) * HOUR);
const span = { from: new Date(now.getTime() - 2 * HOUR), to: now };
/** The flooded prompt's generations, each with GENERATION_SCORES_MAX scores of the longest comment and a 1,000-character value. */
const FLOODED = 12;
const ORDINARY = 30;
const LONG_VALUE = 1_000;
const db = () => h.services.db;

/** Generations of `prompt`, one a minute, `scores` each (score n of `comment` and `stringValue`); their ids newest first. */
async function seed(teamId: string, prompt: { id: string; name: string }, count: number, scores: { count: number; comment: string; stringValue: string }) {
  await ingestProduction(db(), ingestKey, teamId, {
    generations: Array.from({ length: count }, (_, i) => ({
      observationId: `${prompt.name}-${i}`, source: "api", promptName: prompt.name, version: 1, startedAt: new Date(span.from.getTime() + i * MINUTE), seenAt: now,
    })),
    scores: [],
  });
  await db().$executeRaw`
    INSERT INTO scores (organization_id, team_id, generation_id, prompt_id, version, name, data_type, string_value, comment, source, created_at)
    SELECT g.organization_id, g.team_id, g.id, g.prompt_id, 1, 'score-' || n, 'categorical', ${scores.stringValue}, ${scores.comment}, 'api',
           ${span.from}::timestamptz + n * interval '1 second'
      FROM generations g, generate_series(1, ${scores.count}::int) n
     WHERE g.prompt_id = ${prompt.id}::uuid`;
  const rows = await db().$queryRaw<{ id: string }[]>`SELECT id::text FROM generations WHERE prompt_id = ${prompt.id}::uuid ORDER BY started_at DESC, id DESC`;
  return rows.map((row) => row.id);
}

beforeAll(async () => {
  h = await createHarness();
  const world = await createLibraryWorld(h);
  const team = await world.team();
  ingestKey = await world.ingestKey(team.id);
  flooded = await createPrompt(world.callers.editor, team.id, { visibility: "team" });
  ordinary = await createPrompt(world.callers.editor, team.id, { visibility: "team" });
  const created = await world.callers.admin.apiKeys.create({ teamId: team.id, name: "Reader" });
  const authenticated = await authenticateApiKey(db(), created.key, h.clock.now());
  if (!authenticated.ok) throw new Error(authenticated.message);
  key = keyCaller(authenticated.apiKey);
  // Three-byte characters: the most bytes a comment of SCORE_COMMENT_MAX characters of the BMP takes.
  floodedIds = await seed(team.id, flooded, FLOODED, { count: GENERATION_SCORES_MAX, comment: "€".repeat(SCORE_COMMENT_MAX), stringValue: "v".repeat(LONG_VALUE) });
  ordinaryIds = await seed(team.id, ordinary, ORDINARY, { count: 3, comment: "Polite and correct.", stringValue: "good" });
});
afterAll(() => h.close());

type Page = Awaited<ReturnType<typeof listGenerations>>;

/** The bytes of score text a page's items hold, as the budget counts them. */
const scoreBytes = (items: Page["items"]) =>
  items.reduce((sum, item) => sum + item.scores.reduce((bytes, score) => bytes + Buffer.byteLength(score.name) + Buffer.byteLength(score.stringValue ?? "") + Buffer.byteLength(score.comment ?? ""), 0), 0);

/** Every page `read` gives, following nextCursor from the first. */
async function walk(read: (cursor: string | undefined) => Promise<Page>) {
  const pages: Page[] = [];
  let cursor: string | undefined;
  do {
    const page = await read(cursor);
    pages.push(page);
    cursor = page.nextCursor ?? undefined;
  } while (cursor && pages.length <= FLOODED);
  return pages;
}

/** Each generation's complete scores (the newest GENERATION_SCORES_MAX, oldest first). */
const complete = (items: Page["items"]) =>
  items.every((item) => item.scores.length === GENERATION_SCORES_MAX && item.scores[0]!.name === "score-1" && item.scores.at(-1)!.comment === "€".repeat(SCORE_COMMENT_MAX));

describe("a page of generations flooded with scores", () => {
  const names = Array.from({ length: GENERATION_SCORES_MAX }, (_, i) => `score-${i + 1}`.length).reduce((sum, length) => sum + length, 0);
  const perGeneration = names + GENERATION_SCORES_MAX * (LONG_VALUE + 3 * SCORE_COMMENT_MAX);

  it("ends at the last generation whose scores fit the budget, and its cursor goes on right after it", async () => {
    const first = await listGenerations(db(), flooded.id, { ...span, limit: 50 }, now, true);
    const fits = Math.floor(GENERATIONS_PAGE_SCORE_BYTES_MAX / perGeneration);
    expect(fits).toBeGreaterThan(0);
    expect(fits).toBeLessThan(FLOODED);
    expect(first.items.map((item) => item.id)).toEqual(floodedIds.slice(0, fits));
    expect(scoreBytes(first.items)).toBeLessThanOrEqual(GENERATIONS_PAGE_SCORE_BYTES_MAX);
    expect(complete(first.items)).toBe(true);
    expect(first.nextCursor).not.toBeNull();
    const second = await listGenerations(db(), flooded.id, { ...span, limit: 50, cursor: first.nextCursor! }, now, true);
    expect(second.items[0]!.id).toBe(floodedIds[fits]);
  });

  it("gives every generation once, in order, with all its scores, cursor after cursor (the app's list and REST's page)", async () => {
    const app = await walk((cursor) => listGenerations(db(), flooded.id, { ...span, limit: 200, cursor }, now, true));
    const rest = await walk((cursor) => runtimeGenerations(db(), key, flooded.name, { ...span, limit: 200, cursor }, now));
    for (const pages of [app, rest]) {
      expect(pages.length).toBeGreaterThan(1);
      expect(pages.at(-1)!.nextCursor).toBeNull();
      for (const page of pages) expect(scoreBytes(page.items)).toBeLessThanOrEqual(GENERATIONS_PAGE_SCORE_BYTES_MAX);
      const items = pages.flatMap((page) => page.items);
      expect(items.map((item) => item.id)).toEqual(floodedIds);
      expect(complete(items)).toBe(true);
    }
  });

  it("is exported page by page within the budget, every generation once", async () => {
    const pages: Page["items"][] = [];
    for await (const items of runtimeGenerationPages(db(), key, flooded.name, span, 1_000, now)) pages.push(items);
    expect(pages.length).toBeGreaterThan(1);
    for (const items of pages) expect(scoreBytes(items)).toBeLessThanOrEqual(GENERATIONS_PAGE_SCORE_BYTES_MAX);
    expect(pages.flat().map((item) => item.id)).toEqual(floodedIds);
    expect(complete(pages.flat())).toBe(true);
  });

  it("of ordinary scores is whole", async () => {
    const page = await listGenerations(db(), ordinary.id, { ...span, limit: 20 }, now, true);
    expect(page.items.map((item) => item.id)).toEqual(ordinaryIds.slice(0, 20));
    expect(page.items.every((item) => item.scores.map((score) => score.name).join() === "score-1,score-2,score-3")).toBe(true);
    expect(page.nextCursor).not.toBeNull();
    const rest = await listGenerations(db(), ordinary.id, { ...span, limit: 20, cursor: page.nextCursor! }, now, true);
    expect(rest.items.map((item) => item.id)).toEqual(ordinaryIds.slice(20));
    expect(rest.nextCursor).toBeNull();
  });
});

describe("a generation gone since its page was read (housekeeping deleted it; its scores are kept)", () => {
  it("keeps its place without scores, and none of its scores' text is read", async () => {
    const [gone, kept] = ordinaryIds.slice(-2);
    // Read as the list reads a page's scores after its generations: the row deleted in between (scores stay).
    await db().$transaction(async (tx) => {
      await tx.$executeRaw`DELETE FROM generations WHERE id = ${gone}::uuid`;
      const scores = await scoresOf(tx, [gone!, kept!], true);
      expect([...scores.keys()]).toEqual([gone, kept]);
      expect(scores.get(gone!)!.scores).toEqual([]);
      expect(scores.get(kept!)!.scores.map((score) => score.name)).toEqual(["score-1", "score-2", "score-3"]);
      throw new Error("rolled back");
    }).catch((error: unknown) => {
      if (!(error instanceof Error && error.message === "rolled back")) throw error;
    });
  });
});
