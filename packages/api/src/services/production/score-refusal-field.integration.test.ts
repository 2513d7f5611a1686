// A key's score refused names the field refused: an id online evaluation gives its verdicts (`online:…`)
// is a problem of `id` (POST /api/v1/scores' details, POST /api/public/scores' problems), a value its type
// refuses still one of `value` on /api/v1 (and answered without problems on Langfuse's door, as before).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { langfuseScoreBody } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld } from "../../../testing/prompts-support.ts";
import type { KeyCaller } from "../access/visibility.ts";
import { createApiScore, createLangfuseScore } from "./production-api.ts";
import { ONLINE_SCORE_ID_PREFIX } from "./sources.ts";

let h: Harness;
let key: KeyCaller;
const generationId = "00000000-0000-4000-8000-000000000001";
const reserved = `${ONLINE_SCORE_ID_PREFIX}${generationId}:polite`;

beforeAll(async () => {
  h = await createHarness();
  const world = await createLibraryWorld(h);
  const team = await world.team();
  key = await world.ingestKey(team.id);
});
afterAll(() => h.close());

const refusal = (promise: Promise<unknown>) => promise.then(() => expect.unreachable("accepted"), (error: unknown) => error as { code: string; details?: unknown });

describe("a key's score refused", () => {
  it("of an online evaluation's id names `id` on both doors", async () => {
    const v1 = await refusal(createApiScore(h.database.db, key, { generationId, name: "polite", value: true, id: reserved }));
    expect(v1).toMatchObject({ code: "INVALID", details: [{ path: "id", message: expect.stringContaining(`"${ONLINE_SCORE_ID_PREFIX}"`) }] });
    const langfuse = await refusal(createLangfuseScore(h.database.db, key, langfuseScoreBody.parse({ id: reserved, name: "polite", value: 1, observationId: "o-1" })));
    expect(langfuse).toMatchObject({ code: "INVALID", details: [{ path: "id", message: expect.stringContaining(`"${ONLINE_SCORE_ID_PREFIX}"`) }] });
  });

  it("of a value its type refuses still names `value` on /api/v1, and no field on Langfuse's door", async () => {
    const v1 = await refusal(createApiScore(h.database.db, key, { generationId, name: "polite", value: "maybe", dataType: "boolean", id: "mine-1" }));
    expect(v1).toMatchObject({ code: "INVALID", details: [{ path: "value" }] });
    const langfuse = await refusal(createLangfuseScore(h.database.db, key, langfuseScoreBody.parse({ id: "mine-2", name: "polite", value: "maybe", dataType: "BOOLEAN", observationId: "o-1" })));
    expect(langfuse).toMatchObject({ code: "INVALID" });
    expect(langfuse.details).toBeUndefined();
  });
});
