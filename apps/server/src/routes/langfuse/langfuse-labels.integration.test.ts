// Labels through the Langfuse-compatible API, against the real server and database: a request sets at
// most PROMPT_LABELS_PER_REQUEST_MAX labels (a create's `labels`, an update's `newLabels`: 400 in
// Langfuse's shape, nothing moved), a prompt carries at most PROMPT_LABELS_MAX; and the list of a key
// bound to labels shows only the versions its labels point to, a split label's candidate included (no other
// version's config, whatever the `version` or `label` filter), while an unbound key's list shows any; and a
// split label is on both its versions in any key's list, as its fetches serve either, and in the labels
// of its candidate's fetch by version, until the split ends; an update sending such a label back to a
// version it is on through a split (its base or its candidate), or wholly, leaves it and its split as they
// are, decided under the prompt's lock: a split ended while the update waited for it is moved as any label.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { holding, someoneWaits } from "@promptly/api/testing/review-race";
import type { DbTransaction } from "@promptly/db";
import { LANGFUSE_MSG, PROMPT_LABELS_MAX, PROMPT_LABELS_PER_REQUEST_MAX, PROMPT_MSG, RUNTIME_MSG } from "@promptly/shared";
import { basicAuth, langfuseCaller, startKeyServer, type KeyServer, type Pair } from "../../../test/key-server.ts";
import { within } from "../../../test/within.ts";

let ks: KeyServer;
let call: ReturnType<typeof langfuseCaller>;
let team: string;
let writer: Pair;
let reader: Pair;

beforeAll(async () => {
  ks = await startKeyServer();
  team = await ks.team("Labels");
  writer = await ks.key(team, { scopes: ["write"] });
  reader = await ks.key(team);
  call = langfuseCaller(ks.server, () => writer);
});
afterAll(async () => {
  await ks.close();
});

const labelsOf = async (name: string) => {
  const prompt = await ks.h.database.db.prompt.findFirstOrThrow({ where: { teamId: team, name }, select: { labels: { select: { name: true } } } });
  return prompt.labels.map((label) => label.name).sort();
};
const names = (count: number, prefix = "l") => Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
const tooManyAtOnce = (path: string) => ({
  status: 400,
  body: { message: LANGFUSE_MSG.invalidRequest, error: [{ path, message: PROMPT_MSG.tooManyLabelsAtOnce }] },
});

describe("how many labels a request sets", () => {
  it(`an update's newLabels and a create's labels hold at most ${PROMPT_LABELS_PER_REQUEST_MAX}: more is 400 in Langfuse's shape and nothing is written`, async () => {
    expect((await call("POST", "/v2/prompts", { body: { name: "bounded", prompt: "x" } })).status).toBe(201);
    expect(await call("PATCH", "/v2/prompts/bounded/versions/1", { body: { newLabels: names(PROMPT_LABELS_PER_REQUEST_MAX + 1) } })).toEqual(tooManyAtOnce("newLabels"));
    expect(await labelsOf("bounded")).toEqual([]);
    expect(await call("POST", "/v2/prompts", { body: { name: "bounded", prompt: "y", labels: names(PROMPT_LABELS_PER_REQUEST_MAX + 1) } })).toEqual(tooManyAtOnce("labels"));
    expect(await call("POST", "/v2/prompts", { body: { name: "never-made", prompt: "y", labels: names(PROMPT_LABELS_PER_REQUEST_MAX + 1) } })).toEqual(tooManyAtOnce("labels"));
    expect(await ks.h.database.db.prompt.count({ where: { teamId: team, name: "never-made" } })).toBe(0);
    expect(await ks.h.database.db.promptVersion.count({ where: { prompt: { teamId: team, name: "bounded" } } })).toBe(1);

    // The limit itself is taken.
    const patched = await call("PATCH", "/v2/prompts/bounded/versions/1", { body: { newLabels: names(PROMPT_LABELS_PER_REQUEST_MAX) } });
    expect(patched.status).toBe(200);
    expect(await labelsOf("bounded")).toHaveLength(PROMPT_LABELS_PER_REQUEST_MAX);
  });

  it(`a prompt carries at most ${PROMPT_LABELS_MAX} labels: a request adding one past it is 400 naming the limit, and moves none of its labels`, async () => {
    expect((await call("POST", "/v2/prompts", { body: { name: "crowded", prompt: "x" } })).status).toBe(201);
    for (let start = 0; start < PROMPT_LABELS_MAX; start += PROMPT_LABELS_PER_REQUEST_MAX) {
      const batch = names(PROMPT_LABELS_MAX).slice(start, start + PROMPT_LABELS_PER_REQUEST_MAX);
      expect((await call("PATCH", "/v2/prompts/crowded/versions/1", { body: { newLabels: batch } })).status).toBe(200);
    }
    expect((await call("POST", "/v2/prompts", { body: { name: "crowded", prompt: "y" } })).status).toBe(201);
    const refused = await call("PATCH", "/v2/prompts/crowded/versions/2", { body: { newLabels: ["l-0", "one-more"] } });
    expect(refused).toEqual({ status: 400, body: { message: PROMPT_MSG.tooManyLabels, error: "InvalidRequestError", reason: "TOO_MANY_LABELS" } });
    expect(PROMPT_MSG.tooManyLabels).toContain(String(PROMPT_LABELS_MAX));
    expect(await labelsOf("crowded")).toEqual(names(PROMPT_LABELS_MAX).sort());
    // Nothing moved: l-0 is still on version 1.
    expect((await call("GET", "/v2/prompts/crowded?label=l-0")).body).toMatchObject({ version: 1 });
    // Labels it has still move.
    expect((await call("PATCH", "/v2/prompts/crowded/versions/2", { body: { newLabels: ["l-0", "l-1"] } })).status).toBe(200);
    expect((await call("GET", "/v2/prompts/crowded?label=l-0")).body).toMatchObject({ version: 2 });
  });
});

describe("the list of a key bound to labels", () => {
  beforeAll(async () => {
    await ks.prompt(team, "reply", [
      { template: "One", labels: ["production"], config: { temperature: 0.1 } },
      { template: "Two", labels: ["staging"], config: { temperature: 0.2, secret: "staging only" } },
      { template: "Three", config: { temperature: 0.3, secret: "draft only" } },
    ]);
  });

  it("sees only the versions its labels point to: a version or label filter outside them lists nothing of them", async () => {
    const bound = await ks.key(team, { labels: ["production"] });
    const list = (query: string, pair: Pair) => call("GET", `/v2/prompts?name=reply${query}`, { pair });

    expect((await list("", bound)).body).toMatchObject({
      data: [{ name: "reply", versions: [1], labels: ["production"], lastConfig: { temperature: 0.1 } }],
      meta: { totalItems: 1 },
    });
    for (const query of ["&version=2", "&version=3", "&label=staging", "&label=latest"]) {
      const answer = await list(query, bound);
      expect(answer.status, query).toBe(200);
      expect(answer.body, query).toMatchObject({ data: [], meta: { totalItems: 0, totalPages: 0 } });
      expect(JSON.stringify(answer.body), query).not.toContain("only");
    }
    expect((await list("&version=1", bound)).body).toMatchObject({ data: [{ versions: [1], lastConfig: { temperature: 0.1 } }] });
    expect((await list("&label=production", bound)).body).toMatchObject({ data: [{ versions: [1], lastConfig: { temperature: 0.1 } }] });

    // A key bound to `latest` follows the newest version, and sees it alone.
    const latest = await ks.key(team, { labels: ["latest", "staging"] });
    expect((await list("", latest)).body).toMatchObject({
      data: [{ versions: [2, 3], labels: ["latest", "staging"], lastConfig: { temperature: 0.3, secret: "draft only" } }],
    });
    expect((await list("&version=1", latest)).body).toMatchObject({ data: [] });

    // An unbound key sees every version, as before.
    expect((await list("&version=2", reader)).body).toMatchObject({ data: [{ versions: [2], lastConfig: { temperature: 0.2, secret: "staging only" } }] });
    expect((await list("&label=staging", reader)).body).toMatchObject({ data: [{ versions: [2], lastConfig: { secret: "staging only" } }] });
    expect((await list("", reader)).body).toMatchObject({ data: [{ versions: [1, 2, 3], lastConfig: { secret: "draft only" } }] });
  });

  it("sees a split label's candidate version too, which that label's fetches are served, and no other", async () => {
    const { id } = await ks.prompt(team, "split-reply", [
      { template: "One", labels: ["production"], config: { temperature: 0.1 } },
      { template: "Two", config: { temperature: 0.2 } },
      { template: "Three", config: { temperature: 0.3, secret: "draft only" } },
    ]);
    await ks.admin.promptLabels.split({ promptId: id, label: "production", version: 2, weight: 20 });
    const bound = await ks.key(team, { labels: ["production"] });
    const list = (query: string) => call("GET", `/v2/prompts?name=split-reply${query}`, { pair: bound });

    expect((await list("")).body).toMatchObject({
      data: [{ name: "split-reply", versions: [1, 2], labels: ["production"], lastConfig: { temperature: 0.2 } }],
      meta: { totalItems: 1 },
    });
    expect((await list("&version=2")).body).toMatchObject({ data: [{ versions: [2], lastConfig: { temperature: 0.2 } }] });
    const outside = await list("&version=3");
    expect(outside.body).toMatchObject({ data: [], meta: { totalItems: 0 } });
    expect(JSON.stringify(outside.body)).not.toContain("only");
  });
});

describe("a split label in the list", () => {
  it("is on both its versions, as its fetches serve either: the label filter lists the candidate, and the candidate's labels name it", async () => {
    const { id } = await ks.prompt(team, "split-list", [
      { template: "One", labels: ["production"], config: { temperature: 0.1 } },
      { template: "Two", labels: ["staging"], config: { temperature: 0.2 } },
      { template: "Three", config: { temperature: 0.3 } },
    ]);
    await ks.admin.promptLabels.split({ promptId: id, label: "production", version: 2, weight: 50 });
    const list = async (query: string, pair: Pair = reader) => {
      const answer = await call("GET", `/v2/prompts?name=split-list${query}`, { pair });
      expect(answer.status, query).toBe(200);
      return answer.body["data"];
    };

    // What the label's fetches serve: either version, each answered with the label in its labels.
    const served = new Map<number, unknown>();
    for (let unit = 0; served.size < 2; unit++) {
      expect(unit, "a unit served each version").toBeLessThan(100);
      const response = await fetch(`${ks.server.base}/api/public/v2/prompts/split-list?label=production`, {
        headers: { authorization: basicAuth(reader), "x-promptly-unit": `unit-${unit}` },
      });
      const body = (await response.json()) as { version: number; labels: string[] };
      served.set(body.version, body.labels);
    }
    expect(Object.fromEntries(served)).toEqual({ 1: ["production"], 2: ["production", "staging"] });

    // The list says the same of every version a filter matches, for an unbound key and one bound to the label.
    const bound = await ks.key(team, { labels: ["production"] });
    for (const pair of [reader, bound]) {
      expect(await list("&label=production", pair)).toMatchObject([{ versions: [1, 2], labels: ["production", "staging"], lastConfig: { temperature: 0.2 } }]);
      expect(await list("&label=production&version=2", pair)).toMatchObject([{ versions: [2], labels: ["production", "staging"] }]);
      expect(await list("&version=2", pair)).toMatchObject([{ versions: [2], labels: ["production", "staging"] }]);
      expect(await list("&label=staging", pair)).toMatchObject([{ versions: [2], labels: ["production", "staging"] }]);
    }
    expect(await list("")).toMatchObject([{ versions: [1, 2, 3], labels: ["latest", "production", "staging"] }]);
    expect(await list("&version=3")).toMatchObject([{ versions: [3], labels: ["latest"] }]);
    expect(await list("&label=production&version=3")).toEqual([]);

    // Once the split ends, the label is on its one version again.
    await ks.admin.promptLabels.endSplit({ promptId: id, label: "production", outcome: "rollback" });
    expect(await list("&label=production")).toMatchObject([{ versions: [1], labels: ["production"], lastConfig: { temperature: 0.1 } }]);
    expect(await list("&version=2")).toMatchObject([{ versions: [2], labels: ["staging"] }]);
  });
});

describe("a split label in a fetch by version", () => {
  it("is among the candidate's labels while the split lasts, as the list names it, and not once it ends", async () => {
    const { id } = await ks.prompt(team, "split-fetch", [
      { template: "One", labels: ["production"] },
      { template: "Two", labels: ["staging"] },
      { template: "Three" },
    ]);
    /** The labels of the fetch by version, waited for: a split's start or end reaches the answers kept in memory by notification. */
    const expectLabels = async (version: number, labels: string[]) => {
      let last: unknown;
      try {
        await within(10_000, async () => {
          const answer = await call("GET", `/v2/prompts/split-fetch?version=${version}`);
          expect(answer.status).toBe(200);
          last = answer.body["labels"];
          return JSON.stringify(last) === JSON.stringify(labels);
        });
      } catch (error) {
        expect(last, `version ${version}`).toEqual(labels);
        throw error;
      }
    };
    const listed = async (version: number) => (await call("GET", `/v2/prompts?name=split-fetch&version=${version}`)).body["data"];
    // Kept in memory before the split starts: its start must drop them.
    await within(5_000, async () => ks.app.services.runtime.serving);
    await expectLabels(1, ["production"]);
    await expectLabels(2, ["staging"]);

    await ks.admin.promptLabels.split({ promptId: id, label: "production", version: 2, weight: 40 });
    await expectLabels(2, ["production", "staging"]);
    await expectLabels(1, ["production"]);
    await expectLabels(3, ["latest"]);
    expect(await listed(2)).toMatchObject([{ labels: ["production", "staging"] }]);

    // Rolled back: the label is on its own version alone again.
    await ks.admin.promptLabels.endSplit({ promptId: id, label: "production", outcome: "rollback" });
    await expectLabels(2, ["staging"]);
    await expectLabels(1, ["production"]);
    expect(await listed(2)).toMatchObject([{ labels: ["staging"] }]);

    // Promoted: the label is on the candidate alone.
    await ks.admin.promptLabels.split({ promptId: id, label: "production", version: 2, weight: 40 });
    await expectLabels(2, ["production", "staging"]);
    await ks.admin.promptLabels.endSplit({ promptId: id, label: "production", outcome: "promote" });
    await expectLabels(1, []);
    await expectLabels(2, ["production", "staging"]);
  });
});

describe("an update sending back a split label", () => {
  /** The versions a fetch of production is served, over units until both are seen (the split still splits). */
  const servedByProduction = async (name: string) => {
    const served = new Set<number>();
    for (let unit = 0; served.size < 2 && unit < 100; unit++) {
      const response = await fetch(`${ks.server.base}/api/public/v2/prompts/${name}?label=production`, {
        headers: { authorization: basicAuth(reader), "x-promptly-unit": `unit-${unit}` },
      });
      expect(response.status).toBe(200);
      served.add(((await response.json()) as { version: number }).version);
    }
    return [...served].sort();
  };
  const listedLabels = async (name: string) => (await call("GET", `/v2/prompts?name=${name}`)).body["data"];

  it("changes nothing when the candidate's labels, as its fetch read them, are sent back", async () => {
    const id = await ks.splitPrompt(team, "split-echo", [[], ["staging"], []]);
    const read = await call("GET", "/v2/prompts/split-echo?version=2");
    expect(read.body["labels"]).toEqual(["production", "staging"]);
    const before = { production: await ks.production(id), listed: await listedLabels("split-echo") };

    const patched = await call("PATCH", "/v2/prompts/split-echo/versions/2", { body: { newLabels: read.body["labels"] } });
    expect(patched).toMatchObject({ status: 200, body: { version: 2, labels: ["production", "staging"] } });
    expect({ production: await ks.production(id), listed: await listedLabels("split-echo") }).toEqual(before);
    expect(await servedByProduction("split-echo")).toEqual([1, 2]);
  });

  it("is not refused to a key that may not move production, on the candidate or the base; elsewhere it still is", async () => {
    const id = await ks.splitPrompt(team, "split-keep", [[], [], []]);
    const key = await ks.key(team, { scopes: ["write"] });
    const before = await ks.production(id);
    expect(await call("PATCH", "/v2/prompts/split-keep/versions/2", { pair: key, body: { newLabels: ["production"] } })).toMatchObject({ status: 200, body: { labels: ["production"] } });
    expect(await call("PATCH", "/v2/prompts/split-keep/versions/1", { pair: key, body: { newLabels: ["production"] } })).toMatchObject({ status: 200, body: { labels: ["production"] } });
    expect(await ks.production(id)).toEqual(before);
    expect(await servedByProduction("split-keep")).toEqual([1, 2]);
    // A version production does not serve: moving it there is a key's 403, as ever.
    expect(await call("PATCH", "/v2/prompts/split-keep/versions/3", { pair: key, body: { newLabels: ["production"] } }))
      .toEqual({ status: 403, body: { message: RUNTIME_MSG.protectedLabel, error: "ForbiddenError" } });
    expect(await ks.production(id)).toEqual(before);
  });

  it("moves the other labels sent with it, and the split stays", async () => {
    const id = await ks.splitPrompt(team, "split-more", [["staging"], [], []]);
    const before = await ks.production(id);
    const patched = await call("PATCH", "/v2/prompts/split-more/versions/2", { body: { newLabels: ["production", "staging"] } });
    expect(patched).toMatchObject({ status: 200, body: { version: 2, labels: ["production", "staging"] } });
    expect((await call("GET", "/v2/prompts/split-more?version=1")).body["labels"]).toEqual(["production"]);
    expect(await ks.h.database.db.promptLabel.findFirstOrThrow({ where: { promptId: id, name: "staging" }, select: { version: true } })).toEqual({ version: 2 });
    expect(await ks.production(id)).toEqual(before);
    expect(await servedByProduction("split-more")).toEqual([1, 2]);
  });
  it("takes a label on the version wholly, as its fetch read it, as already there: a key is not refused production, the others move", async () => {
    const { id } = await ks.prompt(team, "whole-echo", [{ template: "One", labels: ["staging"] }, { template: "Two" }, { template: "Three", labels: ["production"] }]);
    const key = await ks.key(team, { scopes: ["write"] });
    const read = await call("GET", "/v2/prompts/whole-echo?version=3", { pair: key });
    expect(read.body["labels"]).toContain("production");
    const before = await ks.production(id);
    const patched = await call("PATCH", "/v2/prompts/whole-echo/versions/3", { pair: key, body: { newLabels: ["production", "staging"] } });
    expect(patched).toMatchObject({ status: 200, body: { version: 3, labels: expect.arrayContaining(["production", "staging"]) } });
    expect(await ks.h.database.db.promptLabel.findFirstOrThrow({ where: { promptId: id, name: "staging" }, select: { version: true } })).toEqual({ version: 3 });
    expect(await ks.production(id)).toEqual(before);
    expect(before).toMatchObject({ label: { version: 3, candidateVersion: null } });
  });

  it("moves a split label that ended while the update waited for the prompt, as any label: a key is refused production, nothing moves", async () => {
    const id = await ks.splitPrompt(team, "split-race", [["staging"], [], []]);
    const key = await ks.key(team, { scopes: ["write"] });
    const before = await ks.production(id);
    // An admin ending production's split, holding the prompt's row (as every label move does), not yet committed.
    const ending = await holdingPrompt(id, (tx) => tx.$executeRaw`
      UPDATE prompt_labels SET candidate_version = NULL, candidate_weight = NULL WHERE prompt_id = ${id}::uuid AND name = 'production'`);
    let settled = false;
    const patched = call("PATCH", "/v2/prompts/split-race/versions/2", { pair: key, body: { newLabels: ["production", "staging"] } }).finally(() => (settled = true));
    // The update read production's split (then on version 2) before the end committed, and waits for the prompt's row.
    await vi.waitFor(async () => expect(settled || (await someoneWaits(ks.h.database.db, ending.pid))).toBe(true), { timeout: 20_000, interval: 20 });
    await ending.commit();
    expect(await patched).toEqual({ status: 403, body: { message: RUNTIME_MSG.protectedLabel, error: "ForbiddenError" } });
    expect(await ks.production(id)).toEqual({ ...before, label: { version: 1, candidateVersion: null, candidateWeight: null } });
    expect(await ks.h.database.db.promptLabel.findFirstOrThrow({ where: { promptId: id, name: "staging" }, select: { version: true } })).toEqual({ version: 1 });
  });
});

/**
 * Another writer's transaction holding the prompt's row (FOR NO KEY UPDATE, as a label move takes it) having
 * run `change`, not yet committed: `commit` commits it; `pid` is its backend (what a waiting update waits for).
 */
const holdingPrompt = (promptId: string, change: (tx: DbTransaction) => Promise<unknown>) =>
  holding(ks.h.database.db, async (tx) => {
    await tx.$queryRaw`SELECT id FROM prompts WHERE id = ${promptId}::uuid FOR NO KEY UPDATE`;
    await change(tx);
  });
