// A split release: `production` pointing at two versions by weight. Every runtime path (REST, the
// Langfuse API, MCP) serves each fetch one of them by weight and says which; a unit always gets the same
// one. Setting and ending a split are moves of `production`: a team admin's, and where the team reviews
// `production`, a change request that applies it once approved (a rollback onto the label's own version
// stays a team admin's direct move). A refused split changes nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROMPT_MSG, REVIEW_MSG } from "@promptly/shared";
import { appProcess, createAccount, createHarness, createOrganization, createTeam, outcome, type AppProcess, type Harness } from "@promptly/api/testing";
import { createPromptClient } from "@promptly/client";
import { createApp } from "../../app.ts";
import { listenForTests, type TestServer } from "../../../test/test-server.ts";
import { callTool, mcpClients, toolJson } from "../../../test/mcp-client.ts";

let h: Harness;
let app: AppProcess;
let server: TestServer;
let clients: ReturnType<typeof mcpClients>;
let organizationId: string;
let adminId: string;
let otherAdminId: string;
let editorId: string;
type Api = Awaited<ReturnType<Harness["signedInClient"]>>["api"];
let admin: Api;
let otherAdmin: Api;
let editor: Api;

beforeAll(async () => {
  h = await createHarness();
  app = appProcess(h);
  server = await listenForTests(createApp({ services: app.services }));
  clients = mcpClients(server);
  adminId = (await createAccount(h, { fullName: "Ada Admin" })).id;
  otherAdminId = (await createAccount(h, { fullName: "Otto Admin" })).id;
  editorId = (await createAccount(h, { fullName: "Eve Editor" })).id;
  organizationId = (await createOrganization(h, [adminId, otherAdminId, editorId].map((userId) => ({ userId, role: "member" as const })), "Acme")).id;
  admin = (await h.signedInClient(adminId)).api;
  otherAdmin = (await h.signedInClient(otherAdminId)).api;
  editor = (await h.signedInClient(editorId)).api;
});
afterAll(async () => {
  await clients.close();
  await server.close();
  await app.close();
  await h.close();
});

let teams = 0;

/** A team requiring `requiredApprovals`, its prompt with v1 in production and v2 beside it, and a read key. */
async function world(requiredApprovals: number) {
  teams += 1;
  const teamId = (await createTeam(h, organizationId, [
    { userId: adminId, role: "admin" }, { userId: otherAdminId, role: "admin" }, { userId: editorId, role: "editor" },
  ], `Team ${teams}`)).id;
  const name = `support/split-${teams}`;
  const prompt = await editor.prompts.create({ teamId, name, title: "Reply", visibility: "team", type: "text", template: "Version one" });
  await admin.promptLabels.set({ promptId: prompt.id, label: "production", version: 1 });
  await editor.promptVersions.create({ promptId: prompt.id, template: "Version two" });
  await h.database.db.team.update({ where: { id: teamId }, data: { requiredApprovals } });
  const key = (await admin.apiKeys.create({ teamId, name: `read ${teams}` })).key;
  return { teamId, promptId: prompt.id, name, key };
}
type World = Awaited<ReturnType<typeof world>>;

const production = async (w: World) =>
  h.database.db.promptLabel.findUnique({ where: { promptId_name: { promptId: w.promptId, name: "production" } }, select: { version: true, candidateVersion: true, candidateWeight: true } });

/** REST's fetch of `production`: the version it answered. */
async function restVersion(w: World, options: { unit?: string; header?: string } = {}) {
  const query = options.unit !== undefined ? `&unit=${encodeURIComponent(options.unit)}` : "";
  const headers: Record<string, string> = { authorization: `Bearer ${w.key}` };
  if (options.header !== undefined) headers["x-promptly-unit"] = options.header;
  const response = await fetch(`${server.base}/api/v1/prompts/${w.name}?label=production${query}`, { headers });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { version: number; template: string };
  // The answer says its version, and it is that version's text.
  expect(body.template).toBe(body.version === 1 ? "Version one" : "Version two");
  return body.version;
}

/** The Langfuse API's fetch of `production` (the unit in the header, as the SDKs cannot send a query of ours). */
async function langfuseVersion(w: World, unit?: string) {
  const headers: Record<string, string> = { authorization: `Bearer ${w.key}` };
  if (unit !== undefined) headers["x-promptly-unit"] = unit;
  const response = await fetch(`${server.base}/api/public/v2/prompts/${encodeURIComponent(w.name)}?label=production`, { headers });
  expect(response.status).toBe(200);
  return ((await response.json()) as { version: number }).version;
}

/** The 99% two-sided binomial bound of how many of `n` fetches go to a version served with probability `p`. */
const binomialBound = (n: number, p: number) => {
  const spread = 2.576 * Math.sqrt(n * p * (1 - p));
  return { low: n * p - spread, high: n * p + spread };
};

/**
 * How many of `n` fetches went to the candidate, served with probability `p`: a sample of `n` within the 99%
 * bound, the first, or a second one if the first fell outside it. A right split's sample falls outside one
 * time in a hundred by chance (the test failed so once), both of two samples one in ten thousand; a wrong
 * weight (70/30, 90/10) falls outside both every time.
 */
async function withinBound(n: number, p: number, sample: (attempt: number) => Promise<number>) {
  const { low, high } = binomialBound(n, p);
  let candidate = await sample(0);
  if (candidate < low || candidate > high) candidate = await sample(1);
  expect(candidate).toBeGreaterThanOrEqual(low);
  expect(candidate).toBeLessThanOrEqual(high);
}

describe("a split of production", () => {
  let w: World;
  beforeAll(async () => {
    w = await world(0);
    expect(await admin.promptLabels.split({ promptId: w.promptId, label: "production", version: 2, weight: 20 })).toEqual({ applied: true, changeRequestId: null });
  });

  it("is kept on the label and shown on the prompt", async () => {
    expect(await production(w)).toEqual({ version: 1, candidateVersion: 2, candidateWeight: 20 });
    const prompt = await admin.prompts.get({ id: w.promptId });
    expect(prompt.labels.find((label) => label.name === "production")).toEqual({ name: "production", version: 1, split: { version: 2, weight: 20 } });
  });

  it("serves 80/20 over 2,000 fetches, within the binomial 99% bound", async () => {
    await withinBound(2_000, 0.2, async () => {
      let candidate = 0;
      for (let i = 0; i < 2_000; i++) if ((await restVersion(w)) === 2) candidate++;
      return candidate;
    });
  }, 120_000);

  it("spreads units 80/20 too, and serves each unit the same version every time on REST (query and header), Langfuse and MCP", async () => {
    const n = 2_000;
    const byUnit = new Map<string, number>();
    // A unit's version is its hash with the prompt's id (new each run): a second sample is 2,000 other units.
    await withinBound(n, 0.2, async (attempt) => {
      // Ten at a time: 2,000 one after the other, and the 200 below, ran past 30 s on a loaded machine.
      for (let i = 0; i < n; i += 10) {
        const units = Array.from({ length: 10 }, (_, offset) => `user-${attempt * n + i + offset}`);
        const versions = await Promise.all(units.map((unit) => restVersion(w, { header: unit })));
        units.forEach((unit, index) => byUnit.set(unit, versions[index]!));
      }
      return [...byUnit].filter(([unit, version]) => version === 2 && Number(unit.slice(5)) >= attempt * n).length;
    });

    // One unit of each version, fetched 50 times through each path.
    const onCandidate = [...byUnit].find(([, version]) => version === 2)![0];
    const onMain = [...byUnit].find(([, version]) => version === 1)![0];
    const mcp = await clients.connect(w.key);
    for (const [unit, version] of [[onCandidate, 2], [onMain, 1]] as const) {
      for (let i = 0; i < 50; i++) {
        expect(await restVersion(w, { unit })).toBe(version);
        expect(await restVersion(w, { header: unit })).toBe(version);
        expect(await langfuseVersion(w, unit)).toBe(version);
        expect(toolJson(await callTool(mcp, "getPrompt", { name: w.name, label: "production", unit })).version).toBe(version);
      }
    }
  }, 120_000);

  it("the client sends its unit and keeps one answer per unit: each unit's version, the same every time", async () => {
    let clock = 0;
    const client = createPromptClient({ url: server.base, apiKey: w.key, cacheTtlSeconds: 1, now: () => clock });
    const seen = new Map<string, number>();
    for (let round = 0; round < 50; round++) {
      // Past the TTL on every round, so each get revalidates its unit's answer with the server.
      clock += 2_000;
      for (const unit of ["user-1", "user-2", "user-3", "user-4", "user-5", "user-6", "user-7", "user-8"]) {
        const prompt = await client.get(w.name, { unit });
        expect(prompt.version).toBe(seen.get(unit) ?? prompt.version);
        seen.set(unit, prompt.version);
      }
    }
    // The server's pick for each unit, which the client's answers are.
    for (const [unit, version] of seen) expect(await restVersion(w, { header: unit })).toBe(version);
  });

  it("the client sends a unit as given (not Latin-1, a space at its end): its version is the one ?unit= gives, every time", async () => {
    // A unit whose trailing space changes its version: a header would have lost the space.
    let spaced: string | undefined;
    for (let i = 0; spaced === undefined && i < 200; i++) {
      if ((await restVersion(w, { unit: `user-${i} ` })) !== (await restVersion(w, { unit: `user-${i}` }))) spaced = `user-${i} `;
    }
    expect(spaced).toBeDefined();
    const units = ["用户-42", "ユーザー 7", spaced!];
    const expected = new Map<string, number>();
    for (const unit of units) expected.set(unit, await restVersion(w, { unit }));

    let clock = 0;
    const client = createPromptClient({ url: server.base, apiKey: w.key, cacheTtlSeconds: 1, now: () => clock, retryDelayMs: 1 });
    for (let round = 0; round < 20; round++) {
      // Past the TTL on every round, so each get revalidates its unit's answer with the server.
      clock += 2_000;
      for (const unit of units) {
        const prompt = await client.get(w.name, { unit, fallback: "Not from the server" });
        expect({ unit, isFallback: prompt.isFallback, version: prompt.version }).toEqual({ unit, isFallback: false, version: expected.get(unit) });
      }
    }
    // A new client (nothing cached) too.
    for (const unit of units) expect((await createPromptClient({ url: server.base, apiKey: w.key }).get(w.name, { unit })).version).toBe(expected.get(unit));
  });

  it("serves both versions on the Langfuse API and MCP without a unit", async () => {
    const mcp = await clients.connect(w.key);
    const seen = { langfuse: new Set<number>(), mcp: new Set<number>() };
    for (let i = 0; i < 200 && (seen.langfuse.size < 2 || seen.mcp.size < 2); i++) {
      seen.langfuse.add(await langfuseVersion(w));
      seen.mcp.add(toolJson(await callTool(mcp, "getPrompt", { name: w.name })).version as number);
    }
    expect([...seen.langfuse].sort()).toEqual([1, 2]);
    expect([...seen.mcp].sort()).toEqual([1, 2]);
  });

  it("ends by a rollback in one move: production serves its version alone", async () => {
    const other = await world(0);
    await admin.promptLabels.split({ promptId: other.promptId, label: "production", version: 2, weight: 50 });
    expect(await admin.promptLabels.endSplit({ promptId: other.promptId, label: "production", outcome: "rollback" })).toEqual({ applied: true, changeRequestId: null });
    expect(await production(other)).toEqual({ version: 1, candidateVersion: null, candidateWeight: null });
    for (let i = 0; i < 20; i++) expect(await restVersion(other)).toBe(1);
  });
});

describe("refusals change nothing", () => {
  let w: World;
  beforeAll(async () => {
    w = await world(0);
  });

  const refusals: [string, () => Promise<unknown>, { code: string; message?: string }][] = [
    ["the version production points at", () => admin.promptLabels.split({ promptId: w.promptId, label: "production", version: 1, weight: 10 }), { code: "BAD_REQUEST", message: PROMPT_MSG.splitSameVersion }],
    ["a weight of 0", () => admin.promptLabels.split({ promptId: w.promptId, label: "production", version: 2, weight: 0 }), { code: "BAD_REQUEST" }],
    ["a weight of 100", () => admin.promptLabels.split({ promptId: w.promptId, label: "production", version: 2, weight: 100 }), { code: "BAD_REQUEST" }],
    ["an unknown version", () => admin.promptLabels.split({ promptId: w.promptId, label: "production", version: 9, weight: 10 }), { code: "NOT_FOUND", message: PROMPT_MSG.versionNotFound }],
    ["a label the prompt lacks", () => admin.promptLabels.split({ promptId: w.promptId, label: "staging", version: 2, weight: 10 }), { code: "NOT_FOUND", message: PROMPT_MSG.labelNotFound }],
    ["an editor splitting production", () => editor.promptLabels.split({ promptId: w.promptId, label: "production", version: 2, weight: 10 }), { code: "FORBIDDEN", message: PROMPT_MSG.protectedLabel }],
    ["ending a split that is not there", () => admin.promptLabels.endSplit({ promptId: w.promptId, label: "production", outcome: "promote" }), { code: "CONFLICT", message: PROMPT_MSG.notSplit }],
  ];
  it.each(refusals)("refuses %s", async (_, attempt, expected) => {
    const before = await production(w);
    const requests = await h.database.db.changeRequest.count({ where: { promptId: w.promptId } });
    const result = await outcome(attempt());
    expect(result).toMatchObject(expected.message ? { code: expected.code, message: expected.message } : { code: expected.code });
    expect(await production(w)).toEqual(before);
    expect(await h.database.db.changeRequest.count({ where: { promptId: w.promptId } })).toBe(requests);
  });

  it("deleting a split's candidate ends the split (a key never does so to production)", async () => {
    const d = await world(0);
    await admin.promptLabels.set({ promptId: d.promptId, label: "staging", version: 1 });
    await admin.promptLabels.split({ promptId: d.promptId, label: "staging", version: 2, weight: 50 });
    await admin.promptLabels.split({ promptId: d.promptId, label: "production", version: 2, weight: 50 });
    const deleter = (await admin.apiKeys.create({ teamId: d.teamId, name: "deleter", scopes: ["read", "write", "delete"] })).key;
    const remove = () => fetch(`${server.base}/api/public/v2/prompts/${encodeURIComponent(d.name)}?version=2`, { method: "DELETE", headers: { authorization: `Bearer ${deleter}` } });
    expect((await remove()).status).toBe(403);
    expect(await production(d)).toEqual({ version: 1, candidateVersion: 2, candidateWeight: 50 });
    // Production's split ended by its admin, the candidate goes: staging keeps its own version alone.
    await admin.promptLabels.endSplit({ promptId: d.promptId, label: "production", outcome: "rollback" });
    expect((await remove()).status).toBe(204);
    const staging = await h.database.db.promptLabel.findUnique({ where: { promptId_name: { promptId: d.promptId, name: "staging" } }, select: { version: true, candidateVersion: true } });
    expect(staging).toEqual({ version: 1, candidateVersion: null });
  });

  it("refuses splitting an archived prompt's label", async () => {
    const archived = await world(0);
    await admin.prompts.archive({ id: archived.promptId });
    const result = await outcome(admin.promptLabels.split({ promptId: archived.promptId, label: "production", version: 2, weight: 10 }));
    expect(result).toMatchObject({ code: "CONFLICT" });
    expect(await production(archived)).toEqual({ version: 1, candidateVersion: null, candidateWeight: null });
  });
});

describe("where the team reviews production", () => {
  it("a split and its end are change requests, applied when approved", async () => {
    const w = await world(1);
    // Nobody sets it directly: the split is a change request, and production is unchanged meanwhile.
    const asked = await admin.promptLabels.split({ promptId: w.promptId, label: "production", version: 2, weight: 10 });
    expect(asked.applied).toBe(false);
    expect(await production(w)).toEqual({ version: 1, candidateVersion: null, candidateWeight: null });
    const request = await admin.changeRequests.get({ id: asked.changeRequestId! });
    expect(request).toMatchObject({ label: "production", baseVersion: 1, proposedVersion: 2, proposedWeight: 10, status: "open" });
    await otherAdmin.changeRequests.approve({ id: asked.changeRequestId!, comment: "Try it on a tenth" });
    expect(await production(w)).toEqual({ version: 1, candidateVersion: 2, candidateWeight: 10 });

    // Ending it (promote) is one reviewed move, which an editor may ask for too: production then points at the candidate alone.
    const ending = await editor.promptLabels.endSplit({ promptId: w.promptId, label: "production", outcome: "promote" });
    expect(ending.applied).toBe(false);
    expect(await production(w)).toEqual({ version: 1, candidateVersion: 2, candidateWeight: 10 });
    expect(await admin.changeRequests.get({ id: ending.changeRequestId! })).toMatchObject({ baseVersion: 1, proposedVersion: 2, proposedWeight: null });
    // Its author's own approval does not count, and changes nothing; nor does asking for the same end twice.
    expect(await outcome(editor.changeRequests.approve({ id: ending.changeRequestId!, comment: "Mine" }))).toMatchObject({ code: "FORBIDDEN" });
    expect(await outcome(admin.promptLabels.endSplit({ promptId: w.promptId, label: "production", outcome: "promote" }))).toMatchObject({ code: "CONFLICT", message: REVIEW_MSG.duplicateOpen });
    expect(await production(w)).toEqual({ version: 1, candidateVersion: 2, candidateWeight: 10 });
    await admin.changeRequests.approve({ id: ending.changeRequestId!, comment: "Ship it" });
    expect(await production(w)).toEqual({ version: 2, candidateVersion: null, candidateWeight: null });
    for (let i = 0; i < 20; i++) expect(await restVersion(w)).toBe(2);

    // The label history says each move, the split beside the version.
    const moves = await h.database.db.auditEvent.findMany({ where: { promptId: w.promptId, action: "prompt.label.set" }, orderBy: { createdAt: "asc" }, select: { before: true, after: true } });
    expect(moves.slice(-2)).toEqual([
      { before: { label: "production", version: 1 }, after: { label: "production", version: 1, split: { version: 2, weight: 10 } } },
      { before: { label: "production", version: 1, split: { version: 2, weight: 10 } }, after: { label: "production", version: 2 } },
    ]);
  });

  it("a rollback is a team admin's direct move; an editor's goes through review; either leaves production on its version alone", async () => {
    const w = await world(1);
    const asked = await admin.promptLabels.split({ promptId: w.promptId, label: "production", version: 2, weight: 30 });
    await otherAdmin.changeRequests.approve({ id: asked.changeRequestId!, comment: "Fine" });
    const rollback = await editor.promptLabels.endSplit({ promptId: w.promptId, label: "production", outcome: "rollback" });
    expect(await admin.changeRequests.get({ id: rollback.changeRequestId! })).toMatchObject({ baseVersion: 1, proposedVersion: 1, proposedWeight: null });
    await otherAdmin.changeRequests.approve({ id: rollback.changeRequestId!, comment: "Back" });
    expect(await production(w)).toEqual({ version: 1, candidateVersion: null, candidateWeight: null });

    const again = await admin.promptLabels.split({ promptId: w.promptId, label: "production", version: 2, weight: 30 });
    await otherAdmin.changeRequests.approve({ id: again.changeRequestId!, comment: "Once more" });
    expect(await admin.promptLabels.endSplit({ promptId: w.promptId, label: "production", outcome: "rollback" })).toEqual({ applied: true, changeRequestId: null });
    expect(await production(w)).toEqual({ version: 1, candidateVersion: null, candidateWeight: null });
  });

  it("a refused split makes no change request", async () => {
    const w = await world(1);
    expect(await outcome(admin.promptLabels.split({ promptId: w.promptId, label: "production", version: 1, weight: 10 }))).toMatchObject({ code: "BAD_REQUEST", message: PROMPT_MSG.splitSameVersion });
    expect(await outcome(admin.promptLabels.split({ promptId: w.promptId, label: "production", version: 7, weight: 10 }))).toMatchObject({ code: "NOT_FOUND" });
    expect(await h.database.db.changeRequest.count({ where: { promptId: w.promptId } })).toBe(0);
    expect(await production(w)).toEqual({ version: 1, candidateVersion: null, candidateWeight: null });
  });
});
