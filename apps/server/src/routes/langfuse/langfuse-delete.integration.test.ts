// A key's DELETE of /api/public/v2/prompts/{name} beyond what Langfuse's own cases ask (those are in
// langfuse-conformance.integration.test.ts): the `delete` scope, what a key may not see or delete, the
// audit trail and the webhook events, the versions' immutable history and their numbers, never given
// twice, against the real server and database.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { INCLUDE_MSG, RUNTIME_MSG } from "@promptly/shared";
import { langfuseCaller, startKeyServer, type KeyServer, type Pair } from "../../../test/key-server.ts";

let ks: KeyServer;
let call: ReturnType<typeof langfuseCaller>;
let team: string;
let writer: Pair & { id: string };
let deleter: Pair & { id: string };
let count = 0;

beforeAll(async () => {
  ks = await startKeyServer();
  call = langfuseCaller(ks.server, () => writer);
});
afterAll(async () => {
  await ks.close();
});
beforeEach(async () => {
  team = await ks.team(`Deletes ${++count}`);
  writer = await ks.key(team, { scopes: ["write"] });
  deleter = await ks.key(team, { scopes: ["delete"] });
});

const remove = (name: string, query = "", pair: Pair = deleter) => call("DELETE", `/v2/prompts/${encodeURIComponent(name)}${query}`, { pair });
const save = (name: string, prompt: string, labels: string[] = []) => call("POST", "/v2/prompts", { body: { name, prompt, labels } });
const fetched = (name: string, query: string) => call("GET", `/v2/prompts/${encodeURIComponent(name)}${query}`);
const forbidden = (message: string) => ({ status: 403, body: { message, error: "ForbiddenError" } });

describe("what a key may delete", () => {
  it("needs the delete scope, alone or beside write: a read key and a write key are refused before anything is read", async () => {
    await save("kept", "x");
    const reader = await ks.key(team);
    expect(await remove("kept", "", reader)).toEqual(forbidden(RUNTIME_MSG.deleteScopeNeeded));
    expect(await remove("kept", "", writer)).toEqual(forbidden(RUNTIME_MSG.deleteScopeNeeded));
    // Even for a name that does not exist: the scope is decided before any lookup.
    expect(await remove("no-such-prompt", "", writer)).toEqual(forbidden(RUNTIME_MSG.deleteScopeNeeded));
    const both = await ks.key(team, { scopes: ["write", "delete"] });
    expect((await remove("kept", "", both)).status).toBe(204);
  });

  it("a key bound to labels deletes nothing", async () => {
    await save("bound", "x", ["staging"]);
    const bound = await ks.key(team, { scopes: ["delete"], labels: ["staging"] });
    expect(await remove("bound", "?label=staging", bound)).toEqual(forbidden(RUNTIME_MSG.labelsOnly(["staging"])));
    expect((await fetched("bound", "?version=1")).status).toBe(200);
  });

  it("never asks what `production` points to, named by label: refused before the prompt is looked up", async () => {
    expect(await remove("no-such-prompt", "?label=production")).toEqual(forbidden(RUNTIME_MSG.deleteProduction));
  });

  it("what the key cannot see (another team's, private, archived) or that does not exist is not found, and stays", async () => {
    const other = await ks.team(`Other ${count}`);
    await ks.prompt(other, "elsewhere", [{ template: "x" }]);
    const { id: privateId } = await ks.admin.prompts.create({ teamId: team, name: "mine", title: "Mine", visibility: "private", type: "text", template: "x" });
    const { id: archivedId } = await ks.prompt(team, "archived", [{ template: "x" }]);
    await ks.admin.prompts.archive({ id: archivedId });
    for (const name of ["elsewhere", "mine", "archived", "no-such-prompt"]) {
      expect(await remove(name)).toEqual({ status: 404, body: { message: RUNTIME_MSG.promptNotFound(name), error: "LangfuseNotFoundError" } });
    }
    expect(await ks.h.services.db.prompt.count({ where: { id: { in: [privateId, archivedId] } } })).toBe(2);
    expect(await ks.h.services.db.prompt.count({ where: { teamId: other } })).toBe(1);
    await save("present", "x");
    expect(await remove("present", "?version=9")).toEqual({ status: 404, body: { message: RUNTIME_MSG.promptNotFound("present", { version: 9 }), error: "LangfuseNotFoundError" } });
    expect(await remove("present", "?label=nowhere")).toEqual({ status: 404, body: { message: RUNTIME_MSG.promptNotFound("present", { label: "nowhere" }), error: "LangfuseNotFoundError" } });
  });

  it("an include by a prompt the key cannot see refuses it too, without naming that prompt", async () => {
    await save("shared-child", "child");
    await ks.admin.prompts.create({
      teamId: team, name: "secret-parent", title: "Secret", visibility: "private", type: "text", template: "Uses @@@langfusePrompt:name=shared-child|version=1@@@",
    });
    const answer = await remove("shared-child");
    expect(answer).toEqual({ status: 400, body: { message: INCLUDE_MSG.deleteIncluded([`${INCLUDE_MSG.hiddenIncluder} depends on shared-child v1`]), error: "InvalidRequestError", reason: "INCLUDED" } });
    expect((await fetched("shared-child", "?version=1")).status).toBe(200);
  });
});

describe("a delete is recorded", () => {
  it("in the audit trail by the key, each label that went as a removal, and as webhook events", async () => {
    await ks.admin.webhooks.create({ teamId: team, url: "https://hooks.example.com/promptly", events: ["prompt.deleted", "prompt.version.deleted"] });
    await save("audited", "v1", ["staging"]);
    await save("audited", "v2");
    const { id: promptId } = await ks.h.services.db.prompt.findFirstOrThrow({ where: { teamId: team, name: "audited" }, select: { id: true } });
    expect((await remove("audited", "?label=staging")).status).toBe(204);
    expect((await remove("audited")).status).toBe(204);

    const events = await ks.h.services.db.auditEvent.findMany({
      where: { promptId, action: { in: ["prompt.version.delete", "prompt.label.remove", "prompt.delete"] } },
      orderBy: [{ createdAt: "asc" }, { seq: "asc" }],
      select: { action: true, actorKind: true, actorId: true, targetName: true, before: true, after: true },
    });
    const byKey = { actorKind: "api_key", actorId: deleter.id, targetName: "audited" };
    expect(events).toEqual([
      { ...byKey, action: "prompt.version.delete", before: { versions: [1], labels: [{ name: "staging", version: 1 }] }, after: null },
      { ...byKey, action: "prompt.label.remove", before: { label: "staging", version: 1 }, after: { label: "staging", version: null } },
      { ...byKey, action: "prompt.delete", before: { versions: [2], labels: [] }, after: null },
    ]);

    const deliveries = await ks.h.services.db.webhookDelivery.findMany({ where: { subscription: { teamId: team } }, orderBy: { createdAt: "asc" }, select: { event: true, payload: true } });
    expect(deliveries.map((delivery) => delivery.event)).toEqual(["prompt.version.deleted", "prompt.deleted"]);
    const actor = { kind: "apiKey", id: deleter.id, name: expect.any(String) };
    expect(deliveries[0]!.payload).toMatchObject({
      type: "prompt.version.deleted", teamId: team, data: { prompt: { id: promptId, name: "audited" }, versions: [1], labels: [{ name: "staging", version: 1 }], actor },
    });
    expect(deliveries[1]!.payload).toMatchObject({ type: "prompt.deleted", teamId: team, data: { prompt: { id: promptId, name: "audited" }, actor } });
  });
});

describe("versions stay immutable history", () => {
  it("a version row typed by hand is still refused; a prompt keeps one version; a deleted number is never given again", async () => {
    const { id } = await ks.prompt(team, "history", [{ template: "v1" }, { template: "v2" }, { template: "v3" }]);
    const db = ks.h.services.db;
    await expect(db.$executeRaw`DELETE FROM prompt_versions WHERE prompt_id = ${id}::uuid AND version = 1`).rejects.toThrow(/immutable/);
    // A fetch kept in this process's cache is dropped with the version.
    expect((await fetched("history", "?version=3")).status).toBe(200);
    expect((await remove("history", "?version=3")).status).toBe(204);
    expect((await fetched("history", "?version=3")).status).toBe(404);
    expect((await fetched("history", "?label=latest")).body).toMatchObject({ version: 2, prompt: "v2" });
    // The app's next version, and an import's, take numbers past the deleted one.
    expect((await ks.admin.promptVersions.create({ promptId: id, template: "v4" })).version).toBe(4);
    expect((await remove("history", "?version=4")).status).toBe(204);
    await ks.admin.library.applyImport({ teamId: team, document: { name: "history", version: 1, type: "text", prompt: "imported", labels: [], tags: [], config: {} } });
    expect(await db.promptVersion.findMany({ where: { promptId: id }, select: { version: true }, orderBy: { version: "asc" } })).toEqual([{ version: 1 }, { version: 2 }, { version: 5 }]);
    // Typed by hand: the database refuses a deleted number, and a prompt without versions.
    await expect(db.$executeRaw`INSERT INTO prompt_versions (prompt_id, version, type, template) VALUES (${id}::uuid, 3, 'text', 'again')`).rejects.toThrow(/not given again/);
    await expect(db.$executeRaw`INSERT INTO deleted_prompt_versions (prompt_id, version, deleted_at) SELECT ${id}::uuid, version, now() FROM prompt_versions WHERE prompt_id = ${id}::uuid`).rejects.toThrow(/at least one version/);
    expect(await db.promptVersion.count({ where: { promptId: id } })).toBe(3);
  });
});
