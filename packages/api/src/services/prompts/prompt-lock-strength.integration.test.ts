// How strongly a write locks its prompt's row. An edit that neither deletes the prompt nor renames it locks
// the row FOR NO KEY UPDATE: edits of the prompt still take turns, but a row written with its foreign key to
// the prompt (a merge's generation), which takes the prompt's row FOR KEY SHARE, goes on meanwhile. They all
// took FOR UPDATE, which made every merge of the prompt's production data wait for the edit's whole
// transaction. A delete still takes FOR UPDATE (nothing may link to the prompt while its data goes).
// Each edit here is a real call held open halfway: the audit_events table is locked by another connection,
// so the edit takes its prompt's lock, then waits to write its audit event (seen in pg_locks).
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createLibraryWorld, createPrompt, promptName } from "../../../testing/prompts-support.ts";
import type { KeyCaller } from "../access/visibility.ts";
import { ingestProduction } from "../production/ingest.ts";

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

async function connect(name: string) {
  const client = new pg.Client({ connectionString: h.database.url, application_name: name });
  await client.connect();
  return client;
}

/** Polls `done` until it holds (20 s at most). */
async function until(what: string, done: () => Promise<boolean>) {
  const deadline = Date.now() + 20_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Backends of this database waiting for a lock: on audit_events, or on a row (a row's lock, waited for as its
 * writer's transaction or the tuple): not the advisory locks the harness's queues take beside the test.
 */
async function waiting(watcher: pg.Client) {
  const { rows } = await watcher.query<{ audit: number; other: number }>(`
    SELECT count(*) FILTER (WHERE l.relation = 'audit_events'::regclass)::int AS audit,
           count(*) FILTER (WHERE l.locktype IN ('transactionid', 'tuple'))::int AS other
      FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
     WHERE a.datname = current_database() AND NOT l.granted`);
  return rows[0]!;
}

/**
 * Starts `edit` with audit_events locked and answers once it waits to write its audit event, holding its
 * prompt's lock; `release` lets it end (and throws what it threw).
 */
async function heldAtItsAudit(edit: () => Promise<unknown>) {
  const blocker = await connect("holding audit_events");
  const watcher = await connect("watching");
  await blocker.query("BEGIN");
  await blocker.query("LOCK TABLE audit_events IN SHARE MODE");
  let settled = false;
  const ended = edit().then(() => null, (error: unknown) => error).finally(() => (settled = true));
  try {
    await until("the edit waits to write its audit event", async () => settled || (await waiting(watcher)).audit > 0);
    if (settled) throw new Error(`the edit ended without writing an audit event: ${String(await ended)}`);
  } catch (error) {
    await blocker.query("ROLLBACK");
    await Promise.all([blocker.end(), watcher.end()]);
    throw error;
  }
  return {
    watcher,
    release: async () => {
      await blocker.query("COMMIT");
      await blocker.end();
      await watcher.end();
      const error = await ended;
      if (error) throw error;
    },
  };
}

/** Locks the prompt's row FOR KEY SHARE (what a foreign key to it takes) from another connection: "free", or the code it failed with. */
async function keyShare(promptId: string, lockTimeout: string) {
  const other = await connect("referring");
  try {
    await other.query(`SET lock_timeout = '${lockTimeout}'`);
    await other.query("BEGIN");
    return await other.query("SELECT 1 FROM prompts WHERE id = $1 FOR KEY SHARE", [promptId]).then(() => "free", (error: { code?: string }) => error.code);
  } finally {
    await other.query("ROLLBACK").catch(() => undefined);
    await other.end();
  }
}

const titleOf = async (promptId: string) => (await h.database.db.prompt.findUniqueOrThrow({ where: { id: promptId }, select: { title: true } })).title;

type Edit = (prompt: { id: string; name: string }) => Promise<() => Promise<unknown>>;

// Each prepares what it needs, then answers the call to hold open.
const edits: [string, Edit][] = [
  ["an update of its details", async (prompt) => () => world.callers.admin.prompts.update({ id: prompt.id, title: "Held" })],
  ["its archive", async (prompt) => () => world.callers.admin.prompts.archive({ id: prompt.id })],
  ["a bulk action (tags added)", async (prompt) => () => world.callers.admin.prompts.bulk({ promptIds: [prompt.id], action: { kind: "addTags", tags: ["held"] } })],
  ["an import of a new version", async (prompt) => () =>
    world.callers.admin.library.applyImport({
      teamId: team.id,
      document: [{ name: prompt.name, version: 1, type: "text", prompt: "Answer {{ question }} briefly.", config: {}, labels: [], tags: [] }],
    })],
  ["a decision on a change request", async (prompt) => {
    const { id } = await world.callers.editor.changeRequests.create({ promptId: prompt.id, label: "production", version: 1, message: "" });
    return () => world.callers.admin.changeRequests.reject({ id, comment: "Not yet" });
  }],
  ["a new test case (lockLivePrompt)", async (prompt) => () => world.callers.editor.testCases.create({ promptId: prompt.id, variables: { question: "Why?" } })],
];

describe("an edit of a prompt", () => {
  it.each(edits)("%s does not make a row referring to the prompt wait", async (_, prepare) => {
    const prompt = await createPrompt(world.callers.admin, team.id, { visibility: "team" });
    const held = await heldAtItsAudit(await prepare(prompt));
    let keyShared: string | undefined;
    try {
      keyShared = await keyShare(prompt.id, "2s");
    } finally {
      await held.release();
    }
    expect(keyShared).toBe("free");
  });

  it("does not make a merge writing one of its generations wait", async () => {
    const name = promptName("merged");
    const prompt = await createPrompt(world.callers.admin, team.id, { visibility: "team", name });
    const held = await heldAtItsAudit(() => world.callers.admin.prompts.update({ id: prompt.id, title: "Held" }));
    let merged = false;
    const merge = ingestProduction(h.database.db, key, team.id, {
      generations: [{ observationId: `held-${name}`, source: "langfuse", seenAt: new Date(), promptName: name, version: 1, startedAt: new Date() }],
      scores: [],
    }).then(() => (merged = true));
    let outcome: "merged" | "waited" | undefined;
    try {
      await until("the merge ends or waits", async () => merged || (await waiting(held.watcher)).other > 0);
      outcome = merged ? "merged" : "waited";
    } finally {
      await held.release();
    }
    await merge;
    expect(outcome).toBe("merged");
    expect(await h.database.db.generation.count({ where: { promptId: prompt.id } })).toBe(1);
    expect(await titleOf(prompt.id)).toBe("Held");
  });

  it("still waits for another edit of the same prompt, and goes after it", async () => {
    const prompt = await createPrompt(world.callers.admin, team.id, { visibility: "team" });
    const held = await heldAtItsAudit(() => world.callers.admin.prompts.update({ id: prompt.id, title: "First" }));
    let second: Promise<unknown> | undefined;
    try {
      let settled = false;
      second = world.callers.editor.prompts.update({ id: prompt.id, title: "Second" }).finally(() => (settled = true));
      // It waits on the first edit's row lock (not on audit_events: it never got that far).
      await until("the second edit waits for the first", async () => settled || (await waiting(held.watcher)).other > 0);
      expect(settled).toBe(false);
    } finally {
      await held.release();
    }
    await second;
    expect(await titleOf(prompt.id)).toBe("Second");
  });
});

describe("a delete of a prompt", () => {
  it("still makes a row referring to the prompt wait (nothing links to it while its data goes)", async () => {
    const prompt = await createPrompt(world.callers.admin, team.id, { visibility: "team" });
    await world.callers.admin.prompts.archive({ id: prompt.id });
    const held = await heldAtItsAudit(() => world.callers.admin.prompts.delete({ id: prompt.id }));
    let keyShared: string | undefined;
    try {
      keyShared = await keyShare(prompt.id, "200ms");
    } finally {
      await held.release();
    }
    expect(keyShared).toBe("55P03");
    expect(await h.database.db.prompt.findUnique({ where: { id: prompt.id } })).toBeNull();
  });
});
