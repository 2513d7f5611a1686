// A prompt's generations page the same in any session time zone: the span's bounds and the next page's
// cursor are the instants sent (a Date parameter went without its offset and was read in the session's
// zone: in Asia/Kolkata, +05:30, a span took in generations five and a half hours before it), and each
// generation's start is the instant stored (a timestamptz read back as a Date lost the session's offset).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld, createPrompt } from "../../../testing/prompts-support.ts";
import { listGenerations } from "./generations.ts";
import { ingestProduction } from "./ingest.ts";

let h: Harness;
let prompt: { id: string; name: string };

const HOUR = 3_600_000;
const now = new Date(Math.floor(Date.now() / HOUR) * HOUR);
const from = new Date(now.getTime() - 3 * HOUR);
const to = new Date(now.getTime() - 2 * HOUR);
const started = {
  before: new Date(from.getTime() - 60_000),
  first: from,
  second: new Date(from.getTime() + 30 * 60_000),
  after: to,
};

beforeAll(async () => {
  h = await createHarness();
  const world = await createLibraryWorld(h);
  const team = await world.team();
  prompt = await createPrompt(world.callers.editor, team.id, { visibility: "team" });
  const key = await world.ingestKey(team.id);
  await ingestProduction(h.database.db, key, team.id, {
    generations: Object.entries(started).map(([observationId, startedAt]) => ({ observationId, source: "langfuse", promptName: prompt.name, version: 1, startedAt, seenAt: new Date() })),
    scores: [],
  });
});
afterAll(() => h.close());

describe("a prompt's generations", () => {
  it("page the span's generations with their starts, in a session whose time zone is not UTC", async () => {
    const pages = await h.services.db.$transaction(async (tx) => {
      await tx.$executeRaw`SET LOCAL TIME ZONE 'Asia/Kolkata'`;
      const first = await listGenerations(tx, prompt.id, { from, to, limit: 1 }, now, true);
      const second = first.nextCursor ? await listGenerations(tx, prompt.id, { from, to, limit: 1, cursor: first.nextCursor }, now, true) : null;
      return [first, second] as const;
    });
    const [first, second] = pages;
    expect(first.items.map((item) => [item.observationId, item.startedAt])).toEqual([["second", started.second.toISOString()]]);
    expect(second?.items.map((item) => [item.observationId, item.startedAt])).toEqual([["first", started.first.toISOString()]]);
    expect(second?.nextCursor).toBeNull();
  });
});
