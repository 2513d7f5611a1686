// Evaluations survive a killed app process: a real server process runs a
// 200-case evaluation from the shared queue and is killed with SIGKILL midway; another process (this
// one, its queue worker started as a restarted process's would be) takes the slots the dead one held at
// once, gets its jobs back when they expire, and finishes: every case recorded exactly once.
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Prisma } from "@promptly/db";
import { createAccount, createHarness, createOrganization, createTeam, type Harness } from "@promptly/api/testing";
import { startFakeProvider, type FakeProvider } from "@promptly/api/testing/fake-provider";
import { sharedServicesEnv, startServerProcess, type ServerProcess } from "../test/server-process.ts";

const CASES = 200;
let h: Harness;
let provider: FakeProvider;
let server: ServerProcess;

beforeAll(async () => {
  [h, provider] = await Promise.all([createHarness(), startFakeProvider()]);
  // The harness's secret: the connection's key was sealed with it.
  server = await startServerProcess({ ...sharedServicesEnv(h.database.url), APP_SECRET: h.services.config.secret, ALLOW_PRIVATE_PROVIDER_URLS: "true" });
});
afterAll(async () => {
  await server?.dispose();
  await Promise.all([h.close(), provider.close()]);
});

/** The case a provider call was made for: its question, as the compiled prompt carries it. */
const questionOf = (body: unknown) => /case \d+/.exec(JSON.stringify(body))?.[0] ?? null;

it("a process killed during a 200-case evaluation: the evaluation completes, every case run and recorded exactly once", async () => {
  const person = await createAccount(h);
  const organization = await createOrganization(h, [{ userId: person.id, role: "admin" }]);
  const teamId = (await createTeam(h, organization.id, [{ userId: person.id, role: "admin" }])).id;
  const api = (await h.signedInClient(person.id)).api;
  await api.providers.create({ organizationId: organization.id, kind: "openai-compatible", name: "Local", baseUrl: provider.openaiBaseUrl, apiKey: provider.apiKey });
  const prompt = await api.prompts.create({ teamId, name: "kill/test", title: "Kill", visibility: "team", type: "text", template: "Answer {{ question }}.", model: "gpt-4o-mini" });
  await h.database.db.testCase.createMany({
    data: Array.from({ length: CASES }, (_, index) => ({
      promptId: prompt.id, variables: { question: `case ${index}` }, assertions: [{ type: "contains", value: `case ${index}` }] as Prisma.InputJsonArray,
    })),
  });
  // Answers a little slow, so the kill lands midway even on a busy machine (20 at once, 100 ms each: a second for all).
  provider.answer.firstTokenDelayMs = 100;

  // Started here; only the server process works the queue so far.
  const started = await api.evaluations.start({ promptId: prompt.id, versions: [1] });
  const recorded = () => h.database.db.evaluationItem.count({ where: { evaluationId: started.id, status: { not: "pending" } } });
  await expect.poll(recorded, { timeout: 10_000, interval: 5 }).toBeGreaterThanOrEqual(40).catch((error: unknown) => {
    // The server process's own words say why it ran nothing.
    console.log(server.output());
    throw error;
  });
  server.child.kill("SIGKILL");
  await server.exited;
  const beforeTakeover = await recorded();
  expect(beforeTakeover).toBeLessThan(CASES);

  // The restarted process: its worker takes over.
  await h.services.evaluations.startWorker(h.services.db);
  await expect.poll(async () => (await api.evaluations.get({ id: started.id })).status, { timeout: 15_000, interval: 50 }).toBe("done");
  const summary = await api.evaluations.get({ id: started.id });
  expect(summary).toMatchObject({ total: CASES, done: CASES, failed: 0, versions: [{ version: 1, passRate: 100 }] });

  // Every case ran: once, or twice when the dead process's call was cut by the kill (never recorded twice).
  const items = await h.database.db.evaluationItem.findMany({ where: { evaluationId: started.id }, select: { status: true, output: true, attempts: true, variables: true } });
  expect(items).toHaveLength(CASES);
  for (const item of items) expect(item).toMatchObject({ status: "passed", attempts: 1, output: `Echo: Answer ${(item.variables as { question: string }).question}.` });
  const calls = new Map<string, number>();
  for (const call of provider.calls) {
    const question = call.path === "/v1/chat/completions" ? questionOf(call.body) : null;
    if (question) calls.set(question, (calls.get(question) ?? 0) + 1);
  }
  expect(calls.size).toBe(CASES);
  const repeated = [...calls.values()].filter((count) => count > 1);
  // Only what the dead process had not yet written was made again: its calls in flight (at most the 20
  // slots it held) and the answers it held for its next write (items are written 10 at a time: at most
  // one batch gathering and one being written).
  expect(repeated.every((count) => count === 2)).toBe(true);
  expect(repeated.length).toBeLessThanOrEqual(20 + 2 * 10);
  expect(calls.size + repeated.length).toBe([...calls.values()].reduce((sum, count) => sum + count, 0));
}, 60_000);
