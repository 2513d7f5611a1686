// A span or cursor in a year PostgreSQL holds no instant of (year 0, a year before it, one past 9999) is
// the caller's mistake: BAD_REQUEST with its reason, never the database's out-of-range error.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PRODUCTION_MSG } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld, createPrompt, failure } from "../../../testing/prompts-support.ts";
import { encodeKeysetCursor } from "../../services/platform/keyset-cursor.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createLibraryWorld>>;
let prompt: { id: string; name: string };

beforeAll(async () => {
  h = await createHarness();
  world = await createLibraryWorld(h);
  const team = await world.team();
  prompt = await createPrompt(world.callers.editor, team.id, { visibility: "team" });
});
afterAll(() => h.close());

const spans = {
  "year 0": { from: new Date("0000-01-01T00:00:00Z"), to: new Date("0000-02-01T00:00:00Z") },
  "a negative year": { from: new Date("-000001-01-01T00:00:00Z"), to: new Date("-000001-02-01T00:00:00Z") },
  "a year past 9999": { from: new Date("+010000-01-01T00:00:00Z"), to: new Date("+010000-02-01T00:00:00Z") },
  "only 'to', in year 1 (the default 'from' falls in year 0)": { to: new Date("0001-01-02T00:00:00Z") },
};

describe("production reads over a span in a year out of range", () => {
  for (const [name, span] of Object.entries(spans)) {
    it(`are BAD_REQUEST in ${name}`, async () => {
      const api = world.callers.viewer.production;
      const refused = { code: "BAD_REQUEST", message: PRODUCTION_MSG.rangeYears };
      expect(await failure(api.generations({ promptId: prompt.id, ...span }))).toMatchObject(refused);
      expect(await failure(api.metrics({ promptId: prompt.id, ...span }))).toMatchObject(refused);
      expect(await failure(api.compare({ promptId: prompt.id, ...span, a: 1, b: 2 }))).toMatchObject(refused);
    });
  }

  it("a cursor starting in year 0 is BAD_REQUEST", async () => {
    const cursor = encodeKeysetCursor("0000-06-01T00:00:00.000Z", "00000000-0000-4000-8000-000000000000");
    expect((await failure(world.callers.viewer.production.generations({ promptId: prompt.id, cursor }))).code).toBe("BAD_REQUEST");
  });
});
