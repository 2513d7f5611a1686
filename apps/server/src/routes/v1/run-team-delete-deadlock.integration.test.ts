// A key's run recorded while its team is deleted. The team's delete takes the team's row, then its cascade
// deletes the team's prompts (their rows locked) before it reaches the team's API keys. The run's record
// took its key's row (FOR KEY SHARE, to write it only if still there) before its foreign key checks took
// its prompt's: each waited on the other and PostgreSQL ended one of them as deadlocked. The record now
// takes the organization's and the prompt's rows first, in the order the deletes take them.
// Staged: a trigger holds the record's insert (its row built, its own locks taken) at an advisory lock
// the test holds, until the delete waits on a lock; then the insert goes on.
// Likewise while a super user deletes the key's organization, whose delete locks the organization's prompts
// first, then deletes the organization's row: a record taking the organization's row before the prompt's
// held it while it waited on the prompt the delete held. Staged: the test holds the prompt's row, the
// delete waits on it, then the record (queued behind the delete); the test lets the prompt go. The record,
// its prompt and organization gone, is refused by their foreign keys: the run is answered 404 (its prompt
// not found), as a run whose prompt is deleted while it runs is.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUNTIME_MSG, runtimeRunResult } from "@promptly/shared";
import { createAccount, createHarness, createOrganization, createTeam, type Harness } from "@promptly/api/testing";
import { fakeAnswerText, startFakeProvider, type FakeProvider } from "@promptly/api/testing/fake-provider";
import { createApp } from "../../app.ts";
import { createLogger } from "../../logger.ts";
import { listenForTests, type TestServer } from "../../../test/test-server.ts";

const GATE = 73_101;

let h: Harness;
let provider: FakeProvider;
let server: TestServer;
let watcher: pg.Client;

beforeAll(async () => {
  [h, provider] = await Promise.all([createHarness(), startFakeProvider()]);
  server = await listenForTests(createApp({ services: h.services, logger: createLogger("error", { write: () => {} }) }));
  watcher = new pg.Client({ connectionString: h.database.url });
  await watcher.connect();
  await watcher.query(`
    CREATE FUNCTION test_gate_run() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN PERFORM pg_advisory_xact_lock(${GATE}, 0); RETURN NEW; END $$`);
  await watcher.query(`CREATE TRIGGER test_gate_run BEFORE INSERT ON prompt_runs FOR EACH ROW EXECUTE FUNCTION test_gate_run()`);
});
afterAll(async () => {
  await watcher?.end();
  await server?.close();
  await Promise.all([h.close(), provider.close()]);
});

/** This database's backends waiting on a lock, with the backends they wait for. */
async function waiting() {
  const { rows } = await watcher.query<{ pid: number; query: string; blockers: number[] }>(
    `SELECT pid, query, pg_blocking_pids(pid) AS blockers FROM pg_stat_activity
      WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
  );
  return rows;
}

/** How many statements of this database wait at the gate (the record's insert, its row built). */
const atGate = async () =>
  (await watcher.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_locks
      WHERE locktype = 'advisory' AND NOT granted AND classid = ${GATE}::oid AND objid = 0 AND objsubid = 2
        AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
  )).rows[0]!.n;

/** An organization, its team, a prompt `reply` with production on v1, a connection and a key that runs it. */
async function runWorld() {
  const person = await createAccount(h, { fullName: "Ada Admin" });
  const organization = await createOrganization(h, [{ userId: person.id, role: "admin" }], "Acme");
  const teamId = (await createTeam(h, organization.id, [{ userId: person.id, role: "admin" }], "Core")).id;
  const admin = (await h.signedInClient(person.id)).api;
  const connectionId = (await admin.providers.create({ organizationId: organization.id, kind: "openai-compatible", name: "Local", baseUrl: provider.openaiBaseUrl, apiKey: provider.apiKey })).id;
  const reply = await admin.prompts.create({ teamId, name: "reply", title: "Reply", visibility: "team", type: "text", template: "Hello {{ customer }}", model: "gpt-4o-mini" });
  await admin.promptLabels.set({ promptId: reply.id, label: "production", version: 1 });
  const key = await admin.apiKeys.create({ teamId, name: "runner", scopes: ["run"] });
  const run = () =>
    fetch(`${server.base}/api/v1/prompts/reply/run`, {
      method: "POST",
      headers: { authorization: `Bearer ${key.key}`, "content-type": "application/json" },
      body: JSON.stringify({ variables: { customer: "Ada" }, connectionId, stream: false }),
    });
  return { organization, teamId, admin, reply, run };
}

/** Waits until the run's answer and the delete have both settled: whether they were ever seen each waiting on the other. */
async function deadlockedUntilSettled(answered: Promise<unknown>, deleting: Promise<unknown>) {
  let settled = 0;
  for (const each of [answered, deleting]) void each.finally(() => (settled += 1));
  let deadlocked = false;
  while (settled < 2) {
    const rows = await waiting();
    const blockedBy = new Map(rows.map((row) => [row.pid, row.blockers]));
    if (rows.some((row) => row.blockers.some((other) => blockedBy.get(other)?.includes(row.pid)))) deadlocked = true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return deadlocked;
}

describe("a key's run recorded while its team is deleted", () => {
  it("the record and the delete never wait on each other: the run is answered, the team deleted", async () => {
    const { admin, teamId, reply, run } = await runWorld();

    await watcher.query(`SELECT pg_advisory_lock(${GATE}, 0)`);
    let gateHeld = true;
    try {
      const responding = run();
      // The record's insert holds its locks, at the gate.
      await expect.poll(atGate, { timeout: 20_000 }).toBe(1);
      const deleting = admin.teams.delete({ id: teamId }).then(() => "deleted", (error: unknown) => error);
      // The delete waits on a lock (the prompt's row the record holds, which its first statement locks; before, the key's).
      await expect.poll(async () => (await waiting()).some((row) => /DELETE FROM "public"."teams"|FROM prompts WHERE team_id/.test(row.query)), { timeout: 20_000 }).toBe(true);
      await watcher.query(`SELECT pg_advisory_unlock(${GATE}, 0)`);
      gateHeld = false;
      // Until both end: the record and the delete are never seen each waiting on the other.
      expect(await deadlockedUntilSettled(responding, deleting)).toBe(false);
      expect(await deleting).toBe("deleted");
      const response = await responding;
      expect(response.status).toBe(200);
      expect(runtimeRunResult.parse(await response.json()).output).toBe(fakeAnswerText("Hello Ada"));
      expect(await h.database.db.team.count({ where: { id: teamId } })).toBe(0);
      expect(await h.database.db.prompt.count({ where: { id: reply.id } })).toBe(0);
    } finally {
      if (gateHeld) await watcher.query(`SELECT pg_advisory_unlock(${GATE}, 0)`);
    }
  });
});

describe("a key's run recorded while a super user deletes its organization", () => {
  it("the record and the delete never wait on each other: the organization deleted, the run answered 404, nothing recorded", async () => {
    const { organization, reply, run } = await runWorld();
    const superUser = (await h.signedInClient((await createAccount(h, { superUser: true, fullName: "Sue Super" })).id)).api;
    const holder = new pg.Client({ connectionString: h.database.url });
    await holder.connect();
    try {
      await holder.query("BEGIN");
      await holder.query("SELECT id FROM prompts WHERE id = $1 FOR UPDATE", [reply.id]);
      const deleting = superUser.organizations.delete({ id: organization.id }).then(() => "deleted", (error: unknown) => error);
      // The delete's first statement waits on the prompt's row, then the record's insert behind it.
      await expect.poll(async () => (await waiting()).some((row) => /FROM prompts WHERE organization_id/.test(row.query)), { timeout: 20_000 }).toBe(true);
      const responding = run();
      // The record's statement, by its opening (PostgreSQL keeps only a statement's first kilobyte in pg_stat_activity).
      await expect.poll(async () => (await waiting()).some((row) => /^\s*WITH given AS \(/.test(row.query)), { timeout: 20_000 }).toBe(true);
      await holder.query("ROLLBACK");
      expect(await deadlockedUntilSettled(responding, deleting)).toBe(false);
      expect(await deleting).toBe("deleted");
      // Its organization (and prompt) gone before its record was written, the record's foreign keys refuse
      // it: the run is answered as a run of a prompt that is gone (404, as one asked for now would be
      // told), nothing of it written. Before, a 500.
      const response = await responding;
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: { code: "NOT_FOUND", message: RUNTIME_MSG.promptNotFound("reply", { label: "production" }) } });
      expect(await h.database.db.promptRun.count({ where: { organizationId: organization.id } })).toBe(0);
      expect(await h.database.db.organization.count({ where: { id: organization.id } })).toBe(0);
      expect(await h.database.db.prompt.count({ where: { id: reply.id } })).toBe(0);
    } finally {
      await holder.end();
    }
  });
});
