// A prompt deleted while a merge of production data writes one of its generations. The merge deletes the
// stored row and writes it back (its foreign key then takes the prompt's row shared); the prompt's delete
// takes the prompt's row first, then deletes its generations. Each waits on the other: PostgreSQL ends one
// of them as deadlocked, most often the delete (it waited first, so it looks first). A merge tries again by
// itself; the person deleting the prompt was answered an internal error. The delete now tries again too.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mergeAcrossTheDelete } from "../../../testing/deadlock-support.ts";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld, createPrompt, promptName } from "../../../testing/prompts-support.ts";
import type { Caller, KeyCaller } from "../access/visibility.ts";
import { ingestProduction } from "../production/ingest.ts";
import { loadPrompt } from "./loaded-prompt.ts";
import { deleteLivePrompt } from "./prompt-writes.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createLibraryWorld>>;
let team: { id: string };
let key: KeyCaller;

beforeAll(async () => {
  h = await createHarness();
  world = await createLibraryWorld(h);
  team = await world.team();
  key = await world.ingestKey(team.id);
});
afterAll(() => h.close());

const generationsOf = async (promptId: string) =>
  (await h.database.db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM generations WHERE prompt_id = ${promptId}::uuid`)[0]!.n;

const actor = () => ({ actor: { kind: "user" as const, userId: world.accounts.admin.id }, ip: null, now: new Date() });

describe("a prompt deleted while a merge writes one of its generations", () => {
  const deletes: [string, (prompt: { id: string; name: string }) => Promise<unknown>][] = [
    ["archived, then deleted in the app", async (prompt) => {
      await world.callers.admin.prompts.archive({ id: prompt.id });
      await world.callers.admin.prompts.delete({ id: prompt.id });
    }],
    ["deleted whole by the Langfuse API's delete", async (prompt) => {
      const caller: Caller = { userId: world.accounts.admin.id, role: "user", isSuperUser: false };
      const loaded = (await loadPrompt(h.database.db, caller, prompt.id))!;
      return deleteLivePrompt(h.database.db, caller, loaded, prompt.name, {}, actor());
    }],
  ];

  it.each(deletes)("%s: the delete goes through, and takes the generation the merge wrote meanwhile", async (_, remove) => {
    const name = promptName("deadlock");
    const prompt = await createPrompt(world.callers.admin, team.id, { visibility: "team", name });
    const observationId = `deadlock-${name}`;
    await ingestProduction(h.database.db, key, team.id, {
      generations: [{ observationId, source: "langfuse", seenAt: new Date(), promptName: name, version: 1, startedAt: new Date() }],
      scores: [],
    });
    expect(await generationsOf(prompt.id)).toBe(1);

    const outcome = await mergeAcrossTheDelete(h.database.url, team.id, observationId, "DELETE FROM generations WHERE prompt_id", () => remove({ id: prompt.id, name }));
    // PostgreSQL ended the delete (deadlock_support makes it the one that looks): it ran again, after the merge's write.
    expect(outcome.removed).toBe("deleted");
    expect(outcome.written).toBe("written");
    expect(await h.database.db.prompt.findUnique({ where: { id: prompt.id } })).toBeNull();
    expect(await generationsOf(prompt.id)).toBe(0);
  });
});
