// runsRecorded (what the server's stop() awaits before it closes the database): it resolves only once
// every run of the process is recorded, those still answering and those whose record waits or is being
// written, and says false at its time limit while one is not.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUN_MSG } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { startFakeProvider, type FakeProvider } from "../../../testing/fake-provider.ts";
import { createWorld } from "../../../testing/teams-support.ts";
import { runsRecorded, streamRun } from "./runs.ts";

let h: Harness;
let world: Awaited<ReturnType<typeof createWorld>>;
let provider: FakeProvider;
let prompt: { id: string; teamId: string; organizationId: string };
let connectionId: string;

beforeAll(async () => {
  [h, provider] = await Promise.all([createHarness(), startFakeProvider()]);
  world = await createWorld(h);
  const teamId = (await world.team()).id;
  connectionId = (await world.callers.orgAdmin.providers.create({ organizationId: world.organization.id, kind: "openai-compatible", name: "Local", baseUrl: provider.openaiBaseUrl, apiKey: provider.apiKey })).id;
  const created = await world.callers.editor.prompts.create({ teamId, name: "greeter", title: "Greeter", visibility: "team", type: "text", template: "Say {{ word }} twice.", model: "gpt-4o-mini" });
  prompt = { id: created.id, teamId, organizationId: world.organization.id };
});
afterAll(() => Promise.all([h.close(), provider.close()]));

/** Records of this test's database whose write waits on a lock. */
const waitingRecords = async () =>
  (await h.database.db.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%INSERT INTO prompt_runs%'`)[0]!.n;

describe("runsRecorded", () => {
  it("waits for a run still answering, and for its stopped record while its write waits, then says true", async () => {
    expect(await runsRecorded(1_000)).toBe(true);
    let release!: () => void;
    provider.answer.hold = new Promise<void>((resolve) => (release = resolve));
    const stop = new AbortController();
    const streams = provider.openStreams;
    const input = { promptId: prompt.id, version: 1, connectionId, variables: { word: "hello" }, parameters: {} };
    const events: { type: string; run?: { id: string } }[] = [];
    const reading = (async () => {
      for await (const event of await streamRun(h.services, { userId: world.accounts.editor.id }, prompt, input, stop.signal)) events.push(event);
    })();
    await expect.poll(() => provider.openStreams).toBe(streams + 1);
    // Answering: not recorded.
    expect(await runsRecorded(50)).toBe(false);

    // The record's write waits on the person's row, held here (its FOR KEY SHARE waits on FOR UPDATE).
    const holder = new pg.Client({ connectionString: h.database.url });
    await holder.connect();
    try {
      await holder.query("BEGIN");
      await holder.query("SELECT 1 FROM users WHERE id = $1 FOR UPDATE", [world.accounts.editor.id]);
      stop.abort();
      // Watched from outside the holder's transaction, whose view of pg_stat_activity stays as it first read it.
      await expect.poll(waitingRecords).toBe(1);
      expect(await runsRecorded(50)).toBe(false);
      const recorded = runsRecorded(30_000);
      await holder.query("COMMIT");
      expect(await recorded).toBe(true);
    } finally {
      await holder.end();
      provider.answer.hold = null;
      release();
    }
    await reading;
    const done = events.at(-1)!;
    expect(done.type).toBe("done");
    expect(await h.database.db.promptRun.findUniqueOrThrow({ where: { id: done.run!.id } })).toMatchObject({ status: "stopped", error: RUN_MSG.stopped });
  });
});
