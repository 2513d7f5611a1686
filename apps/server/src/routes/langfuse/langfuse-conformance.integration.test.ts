// The Langfuse-compatible prompts API (/api/public) case by case against what Langfuse's own server
// test of it asserts (web/src/__tests__/async/prompts.v2.servertest.ts in langfuse/langfuse): each
// `it` here is one of its cases, named as there, in our words, against the real server and database.
// Where Promptly's rules differ, the test asserts Promptly's answer and says which rule in one line;
// docs/langfuse-conformance.md maps every case, those that do not apply included.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { INCLUDE_MAX_DEPTH, INCLUDE_MSG, LANGFUSE_MSG, PROMPT_MSG, RUNTIME_MSG, bodyIncludes } from "@promptly/shared";
import { langfuseCaller, startKeyServer, type KeyServer, type LangfuseAnswer, type Pair } from "../../../test/key-server.ts";

let ks: KeyServer;
let call: ReturnType<typeof langfuseCaller>;
let teamId: string;
const keys = {} as Record<"read" | "write" | "lists", Pair>;
let unique = 0;
/** A name no other case of the file uses. */
const fresh = (stem: string) => `${stem}-${++unique}`;


const get = (name: string, query = "", pair?: Pair) => call("GET", `/v2/prompts/${encodeURIComponent(name)}${query}`, { pair });
const post = (body: Record<string, unknown>, pair: Pair = keys.write) => call("POST", "/v2/prompts", { pair, body });
const notFound = (answer: LangfuseAnswer) => {
  expect(answer.status).toBe(404);
  expect(answer.body.error).toBe("LangfuseNotFoundError");
};
const invalid = (answer: LangfuseAnswer, message: string) => expect(answer).toEqual({ status: 400, body: { message, error: "InvalidRequestError" } });
const invalidData = (answer: LangfuseAnswer, issue: { path: string; message: string }) =>
  expect(answer).toEqual({ status: 400, body: { message: LANGFUSE_MSG.invalidRequest, error: [issue] } });
const protectedLabel = { status: 403, body: { message: RUNTIME_MSG.protectedLabel, error: "ForbiddenError" } };

beforeAll(async () => {
  ks = await startKeyServer();
  call = langfuseCaller(ks.server, () => keys.read);
  teamId = await ks.team("Core");
  keys.read = await ks.key(teamId);
  keys.write = await ks.key(teamId, { scopes: ["write"] });
});
afterAll(async () => {
  await ks.close();
});

describe("when fetching a prompt", () => {
  it("should return a 401 if key is invalid", async () => {
    const answer = await call("GET", "/v2/prompts", { auth: `Bearer ${crypto.randomUUID()}` });
    expect(answer.status).toBe(401);
    expect(answer.body.error).toContain("Unauthorized");
  });

  it("should fetch a prompt", async () => {
    const name = fresh("fetched");
    await ks.prompt(teamId, name, [{ template: "prompt", labels: ["production"], config: { temperature: 0.1 } }]);
    const { status, body } = await get(name);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      id: expect.any(String), name, prompt: "prompt", type: "text", version: 1, config: { temperature: 0.1 }, tags: [], resolutionGraph: null,
      createdBy: expect.any(String), projectId: teamId,
    });
    // `latest` is always the newest version, listed in its labels too.
    expect(body["labels"]).toEqual(["production", "latest"]);
  });

  it("should fetch a prompt with special characters", async () => {
    // Names keep Promptly's rule: Langfuse's "promptName?!+ =@#;…" is refused naming the nearest name it accepts, and fetched it is not found.
    const odd = `promptName?!+ =@#;${++unique}`;
    invalidData(await post({ name: odd, prompt: "prompt" }), { path: "name", message: PROMPT_MSG.nameInvalidNearest(`promptname-${unique}`) });
    notFound(await get(odd));
    // What the rule allows besides letters and digits ('.', '-', '_', '/') arrives percent-encoded.
    const name = fresh("special/prompt.name_x");
    await ks.prompt(teamId, name, [{ template: "prompt", labels: ["production"] }]);
    expect(await get(name)).toMatchObject({ status: 200, body: { name, prompt: "prompt" } });
  });

  it("should fetch a prompt by version even if not production", async () => {
    const name = fresh("non-production");
    await ks.prompt(teamId, name, [{ template: "prompt" }]);
    notFound(await get(name));
    expect(await get(name, "?version=1")).toMatchObject({ status: 200, body: { name, version: 1, labels: ["latest"] } });
  });

  it("should fetch a prompt by label even if not production", async () => {
    const name = fresh("non-production");
    await ks.prompt(teamId, name, [{ template: "prompt", labels: ["dev"] }]);
    notFound(await get(name));
    expect(await get(name, "?label=dev")).toMatchObject({ status: 200, body: { name, version: 1, labels: ["dev", "latest"] } });
  });

  it("should fetch the latest prompt if label is latest", async () => {
    // `latest` is never set: it is the newest version, here version 2.
    const name = fresh("latest");
    await ks.prompt(teamId, name, [{ template: "first", labels: ["production"] }, { template: "second" }]);
    expect(await get(name, "?label=latest")).toMatchObject({ status: 200, body: { version: 2, prompt: "second", labels: ["latest"] } });
    expect(await get(name)).toMatchObject({ status: 200, body: { version: 1, prompt: "first", labels: ["production"] } });
  });

  it("should fetch the production prompt if no version or label set", async () => {
    const name = fresh("production");
    await ks.prompt(teamId, name, [{ template: "first", labels: ["staging"] }, { template: "second", labels: ["production"] }]);
    expect(await get(name)).toMatchObject({ status: 200, body: { version: 2, labels: ["production", "latest"] } });
  });

  it("should return a 404 if prompt does not exist", async () => {
    const answer = await get("random_prompt");
    expect(answer).toEqual({ status: 404, body: { message: "Prompt not found: 'random_prompt' with label 'production'", error: "LangfuseNotFoundError" } });
  });
});

describe("when creating a prompt", () => {
  const chatMessages = [
    { role: "system", content: "You are a bot" },
    { role: "user", content: "What's up?" },
  ];

  it("should create and fetch a chat prompt", async () => {
    const name = fresh("chat");
    // A key never moves production: Langfuse's create with labels ["production"] is 403 and saves nothing.
    expect(await post({ name, prompt: chatMessages, type: "chat", labels: ["production"], commitMessage: "chore: setup initial prompt" })).toEqual(protectedLabel);
    notFound(await get(name, "?label=latest"));

    expect((await post({ name, prompt: chatMessages, type: "chat", commitMessage: "chore: setup initial prompt" })).status).toBe(201);
    const { status, body } = await get(name, "?label=latest");
    expect(status).toBe(200);
    expect(body).toMatchObject({ name, prompt: chatMessages, type: "chat", version: 1, labels: ["latest"], createdBy: "API", config: {}, commitMessage: "chore: setup initial prompt" });
  });

  it("should fail if chat prompt has string prompt", async () => {
    const name = fresh("chat-string");
    invalid(await post({ name, prompt: "prompt", type: "chat" }), LANGFUSE_MSG.chatNeedsMessages);
    notFound(await get(name, "?label=latest"));
    // Langfuse's legacy GET /api/public/prompts?name= is not served: its 404 is the unknown route's.
    expect(await call("GET", `/prompts?name=${name}`)).toEqual({ status: 404, body: { message: "Not found", error: "LangfuseNotFoundError" } });
  });

  it("should fail if chat prompt has incorrect messages format", async () => {
    const name = fresh("chat-format");
    const answer = await post({ name, prompt: [chatMessages[0], { role: "user", message: "What's up?" }], type: "chat" });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(LANGFUSE_MSG.invalidRequest);
    notFound(await get(name, "?label=latest"));
  });

  it("should fail if text prompt has message format", async () => {
    const name = fresh("text-format");
    invalid(await post({ name, prompt: [chatMessages[0]], type: "text" }), LANGFUSE_MSG.textNeedsString);
    notFound(await get(name, "?label=latest"));
  });

  it("should fail if previous versions have different prompt type", async () => {
    const name = fresh("typed");
    expect((await post({ name, prompt: chatMessages, type: "chat" })).status).toBe(201);
    const answer = await post({ name, prompt: "prompt", type: "text" });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe("InvalidRequestError");
    expect(answer.body.message).toBe(RUNTIME_MSG.typeFixed(name, "chat"));
    expect(await get(name, "?label=latest")).toMatchObject({ status: 200, body: { prompt: chatMessages, type: "chat", version: 1, labels: ["latest"], createdBy: "API", config: {} } });
    notFound(await get(name, "?version=2"));
  });

  it("should correctly handle overwriting labels", async () => {
    // Langfuse's `production` here is `beta` (a key never moves production); labels dedupe and move as there.
    const name = fresh("overwrite");
    const first = await post({ name, prompt: "prompt1", labels: ["beta", "staging", "development"], config: { temperature: 0.1 } });
    const second = await post({ name, prompt: "prompt2", labels: ["beta", "beta", "staging"], config: { temperature: 0.2 } });
    const third = await post({ name, prompt: "prompt3", labels: ["staging"], isActive: false, config: { temperature: 0.3 } });
    expect([first.status, second.status, third.status]).toEqual([201, 201, 201]);
    expect(await get(name, "?label=beta")).toMatchObject({ status: 200, body: { id: second.body["id"], labels: ["beta"] } });
    expect(await get(name, "?version=1")).toMatchObject({ status: 200, body: { id: first.body["id"], labels: ["development"] } });
    expect(await get(name, "?version=3")).toMatchObject({ status: 200, body: { id: third.body["id"], labels: ["staging", "latest"] } });
    // isActive: true is Langfuse's legacy way to ask for production: refused alike, nothing saved.
    expect(await post({ name, prompt: "prompt4", isActive: true })).toEqual(protectedLabel);
    notFound(await get(name, "?version=4"));
    // `latest` asked of a new version is where it goes anyway: taken as said (a PATCH setting it is 400).
    expect(await post({ name, prompt: "prompt4", labels: ["latest"] })).toMatchObject({ status: 201, body: { version: 4, labels: ["latest"] } });
  });

  it("should create empty object if no config is provided", async () => {
    const name = fresh("no-config");
    expect((await post({ name, prompt: "prompt" })).status).toBe(201);
    expect(await get(name, "?label=latest")).toMatchObject({
      status: 200, body: { name, prompt: "prompt", type: "text", version: 1, labels: ["latest"], createdBy: "API", config: {} },
    });
  });

  it("should prevent creating a prompt with both a variable and placeholder with the same name", async () => {
    const name = fresh("same-name-conflict");
    const answer = await post({
      name, type: "chat",
      prompt: [{ role: "system", content: "Hello {{userName}}" }, { type: "placeholder", name: "userName" }, { role: "user", content: "How are you?" }],
    });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain("variables and placeholders must be unique");
    expect(answer.body.message).toContain("userName");
    notFound(await get(name, "?label=latest"));
  });

  it("should allow creating a new version of a prompt with placeholder names that conflict a variable name in a previous version", async () => {
    const name = fresh("variable-conflict");
    // A key never moves production: Langfuse's v1 carries it; here the first version is saved without it.
    const v1 = await post({ name, type: "chat", prompt: [{ role: "system", content: "You are a helpful {{conversationHistory}}" }, { role: "user", content: "Continue our conversation" }] });
    expect(v1.status).toBe(201);
    const v2 = await post({
      name, type: "chat",
      prompt: [
        { role: "system", content: "You are a helpful assistant with context: {{newHistory}}" },
        { type: "placeholder", name: "conversationHistory" },
        { role: "user", content: "Continue our conversation" },
      ],
    });
    expect(v2.status).toBe(201);
    expect(v2.body).toMatchObject({ version: 2, prompt: [{ role: "system" }, { type: "placeholder", name: "conversationHistory" }, { role: "user" }] });
  });

  describe("prompt name validation", () => {
    it("should reject invalid prompt names", async () => {
      // Names keep Promptly's rule, so its one message names the problem and the nearest name it accepts (Langfuse words each case apart).
      const nearest = { "/invalid-name": "invalid-name", "invalid-name/": "invalid-name", "invalid//name": "invalid/name", "invalid|name": "invalid-name", "Test <div>": "test-div" };
      for (const [name, suggested] of Object.entries(nearest)) {
        invalidData(await post({ name, prompt: "test prompt", type: "text" }), { path: "name", message: PROMPT_MSG.nameInvalidNearest(suggested) });
      }
      const empty = await post({ name: "", prompt: "test prompt", type: "text" });
      expect(empty).toMatchObject({ status: 400, body: { message: LANGFUSE_MSG.invalidRequest } });
      expect(empty.body.error).toContainEqual({ path: "name", message: PROMPT_MSG.nameRequired });
      expect((empty.body.error as { path: string }[]).every((issue) => issue.path === "name")).toBe(true);
      // Langfuse keeps 'new' for its UI's route; a Promptly name may be 'new'.
      expect((await post({ name: "new", prompt: "test prompt", type: "text" })).status).toBe(201);
    });

    it("should accept valid prompt names", async () => {
      const valid = [
        "simple-name", "name_with_underscores", "name.with.dots", "folder/subfolder/name", "name-with-123-numbers", "_starting_with_underscore",
        "ending_with_underscore_", "multiple___underscores", "multiple---hyphens", "multiple...dots",
      ];
      for (const name of valid) expect((await post({ name, prompt: "test prompt", type: "text" })).status, name).toBe(201);
      // Promptly's rule: lowercase, no spaces or brackets, which Langfuse accepts; the refusal names the nearest name it accepts.
      const nearest = { UPPERCASE: "uppercase", "name with spaces": "name-with-spaces", "multiple   spaces": "multiple-spaces", "angled[brac]es]": "angled-brac-es" };
      for (const [name, suggested] of Object.entries(nearest)) {
        invalidData(await post({ name, prompt: "test prompt", type: "text" }), { path: "name", message: PROMPT_MSG.nameInvalidNearest(suggested) });
        expect((await post({ name: suggested, prompt: "test prompt", type: "text" })).status, suggested).toBe(201);
      }
    });
  });

  it("should update tags across versions", async () => {
    // Tags are the prompt's and every version answers them: given tags replace them, none keep them, [] clears them.
    const name = fresh("tagged");
    const tagsOf = async (...versions: number[]) => Promise.all(versions.map(async (version) => (await get(name, `?version=${version}`)).body["tags"]));
    expect((await post({ name, prompt: "This is a test prompt", tags: ["tag"] })).status).toBe(201);
    expect(await tagsOf(1)).toEqual([["tag"]]);
    expect((await post({ name, prompt: "This is a test prompt" })).status).toBe(201);
    expect(await tagsOf(1, 2)).toEqual([["tag"], ["tag"]]);
    expect((await post({ name, prompt: "This is a test prompt", tags: ["tag1", "tag2", "tag3"] })).status).toBe(201);
    expect(await tagsOf(1, 2, 3)).toEqual(Array(3).fill(["tag1", "tag2", "tag3"]));
    expect((await post({ name, prompt: "This is a test prompt", tags: [] })).status).toBe(201);
    expect(await tagsOf(1, 2, 3, 4)).toEqual(Array(4).fill([]));
  });

  it("should create and fetch a test prompt with slashes in the name", async () => {
    const name = fresh("this/is/a/prompt/with/a/slash");
    expect((await post({ name, prompt: "This is a prompt in a folder structure", type: "text", commitMessage: "chore: setup folder structure prompt" })).status).toBe(201);
    const { body } = await get(name, "?label=latest");
    expect(body).toMatchObject({ name, prompt: "This is a prompt in a folder structure" });
  });
});

describe("when fetching a prompt list", () => {
  // Langfuse's fixture, as a team admin makes it (versions are numbered without gaps, and a label is
  // on one version at a time): prompt-1 with configs by version, prompt-2 with a label on each, prompt-3
  // tagged; a prompt of another team; a second apart each, prompt-1's versions last.
  const saved: Record<string, string> = {};
  beforeAll(async () => {
    const lists = await ks.team("Lists");
    keys.lists = await ks.key(lists);
    await ks.prompt(teamId, "prompt-5", [{ template: "prompt-5", labels: ["production"] }]);
    await ks.prompt(lists, "prompt-2", [{ template: "prompt-2", labels: ["production"] }, { template: "prompt-2", labels: ["dev"] }, { template: "prompt-2", labels: ["staging"] }]);
    ks.h.clock.advance(1000);
    await ks.prompt(lists, "prompt-3", [{ template: "prompt-3", labels: ["production"] }], ["tag-1"]);
    ks.h.clock.advance(1000);
    await ks.prompt(lists, "prompt-1", [
      { template: "prompt-1", config: { version: 1 } },
      { template: "prompt-1", labels: ["version2"], config: { version: 2 } },
      { template: "prompt-1", labels: ["production"], config: { version: 3 } },
    ]);
    for (const version of [1, 2, 3]) saved[`prompt-1@${version}`] = (await get("prompt-1", `?version=${version}`, keys.lists)).body["createdAt"] as string;
  });
  const list = (query = "") => call("GET", `/v2/prompts${query}`, { pair: keys.lists });
  const names = (answer: LangfuseAnswer) => (answer.body["data"] as { name: string }[]).map((prompt) => prompt.name);
  const onePage = (totalItems: number) => ({ page: 1, limit: 10, totalPages: 1, totalItems });

  it("should only return prompts from the current project", async () => {
    const answer = await list();
    expect(answer.status).toBe(200);
    expect(names(answer)).toEqual(["prompt-1", "prompt-2", "prompt-3"]);
  });

  it("should fetch a prompt meta list", async () => {
    const { status, body } = await list();
    expect(status).toBe(200);
    // `latest` is listed where the newest version matches.
    expect(body["data"]).toEqual([
      { name: "prompt-1", type: "text", versions: [1, 2, 3], labels: ["latest", "production", "version2"], tags: [], lastUpdatedAt: expect.any(String), lastConfig: { version: 3 } },
      { name: "prompt-2", type: "text", versions: [1, 2, 3], labels: ["dev", "latest", "production", "staging"], tags: [], lastUpdatedAt: expect.any(String), lastConfig: {} },
      { name: "prompt-3", type: "text", versions: [1], labels: ["latest", "production"], tags: ["tag-1"], lastUpdatedAt: expect.any(String), lastConfig: {} },
    ]);
    // `pagination`: the legacy name of `meta`, still read by older SDKs.
    expect(body).toMatchObject({ meta: onePage(3), pagination: onePage(3) });
  });

  it("should fetch a prompt meta list with name filter", async () => {
    expect((await list("?name=prompt-1")).body).toMatchObject({
      data: [{ name: "prompt-1", versions: [1, 2, 3], labels: ["latest", "production", "version2"], tags: [] }], meta: onePage(1),
    });
    expect((await list("?name=prompt-2")).body).toMatchObject({
      data: [{ name: "prompt-2", versions: [1, 2, 3], labels: ["dev", "latest", "production", "staging"], tags: [] }], meta: onePage(1),
    });
    expect(await list("?name=non-existent")).toMatchObject({ status: 200, body: { data: [] } });
  });

  it("should fetch a prompt meta list with tag filter", async () => {
    expect((await list("?tag=tag-1")).body).toMatchObject({
      data: [{ name: "prompt-3", versions: [1], labels: ["latest", "production"], tags: ["tag-1"] }], meta: onePage(1),
    });
    expect(await list("?tag=non-existent")).toMatchObject({ status: 200, body: { data: [] } });
  });

  it("should fetch a prompt meta list with label filter", async () => {
    const production = await list("?label=production");
    expect(names(production)).toEqual(["prompt-1", "prompt-2", "prompt-3"]);
    expect(production.body["meta"]).toEqual(onePage(3));
    // Only the versions with the label, and only their labels.
    expect((await list("?label=dev")).body).toMatchObject({ data: [{ name: "prompt-2", versions: [2], labels: ["dev"], tags: [] }], meta: onePage(1) });
    expect(await list("?label=non-existent")).toMatchObject({ status: 200, body: { data: [] } });
  });

  it("should fetch a prompt meta list with pagination", async () => {
    const { body } = await list("?page=1&limit=1");
    expect(body["data"]).toHaveLength(1);
    expect(body["meta"]).toEqual({ page: 1, limit: 1, totalPages: 3, totalItems: 3 });
  });

  it("should fetch lastConfig correctly for a prompt with multiple versions", async () => {
    const lastConfig = async (query: string, name: string) =>
      ((await list(query)).body["data"] as { name: string; lastConfig: unknown }[]).find((prompt) => prompt.name === name)?.lastConfig;
    expect(await lastConfig("", "prompt-1")).toEqual({ version: 3 });
    expect(await lastConfig("", "prompt-2")).toEqual({});
    expect(await lastConfig("?label=version2", "prompt-1")).toEqual({ version: 2 });
    expect(names(await list("?version=1"))).toHaveLength(3);
    expect(await lastConfig("?version=1", "prompt-1")).toEqual({ version: 1 });
  });

  it("should respect the fromUpdatedAt and toUpdatedAt filters on GET /prompts", async () => {
    // A version's save is its last update (versions never change): from is inclusive, to exclusive, as in Langfuse.
    const from = saved["prompt-1@2"]!;
    const to = saved["prompt-1@3"]!;
    const both = await list(`?fromUpdatedAt=${from}&toUpdatedAt=${to}`);
    expect(both.body).toMatchObject({ data: [{ name: "prompt-1", lastUpdatedAt: from, versions: [2] }], meta: { totalItems: 1 } });
    const onlyFrom = await list(`?fromUpdatedAt=${from}`);
    expect(onlyFrom.body).toMatchObject({ data: [{ name: "prompt-1", lastUpdatedAt: to, versions: [2, 3] }], meta: { totalItems: 1 } });
    const onlyTo = await list(`?toUpdatedAt=${to}`);
    expect(onlyTo.body).toMatchObject({
      data: [{ name: "prompt-1", lastUpdatedAt: from, versions: [1, 2] }, { name: "prompt-2", versions: [1, 2, 3] }, { name: "prompt-3", versions: [1] }],
      meta: { totalItems: 3 },
    });
  });
});

describe("PATCH api/public/v2/prompts/[promptName]/versions/[version]", () => {
  const patch = (name: string, version: number, newLabels: unknown, pair: Pair = keys.write) =>
    call("PATCH", `/v2/prompts/${encodeURIComponent(name)}/versions/${version}`, { pair, body: { newLabels } });

  it("should update the labels of a prompt", async () => {
    const name = fresh("patched");
    await ks.prompt(teamId, name, [{ template: "prompt-1", labels: ["production"] }]);
    const answer = await patch(name, 1, ["new-label"]);
    expect(answer.status).toBe(200);
    // Added to the version's labels; production stays.
    expect(answer.body["labels"]).toEqual(["new-label", "production", "latest"]);
    expect((await get(name, "?version=1")).body["labels"]).toEqual(["new-label", "production", "latest"]);
  });

  it("should remove label from previous version when adding to new version", async () => {
    const name = fresh("moved");
    await ks.prompt(teamId, name, [{ template: "prompt-1", labels: ["production", "staging"] }, { template: "prompt-1" }]);
    // A key never moves production: 403, and it stays on version 1.
    expect(await patch(name, 2, ["production"])).toEqual(protectedLabel);
    expect((await get(name)).body["version"]).toBe(1);
    // Any other label moves as Langfuse moves it.
    expect(await patch(name, 2, ["staging"])).toMatchObject({ status: 200, body: { labels: ["staging", "latest"] } });
    expect((await get(name, "?version=1")).body["labels"]).toEqual(["production"]);
  });

  it("trying to set 'latest' label results in 400 error", async () => {
    const name = fresh("latest-set");
    await ks.prompt(teamId, name, [{ template: "prompt-1" }]);
    invalid(await patch(name, 1, ["latest"]), `'latest': ${PROMPT_MSG.labelLatest}`);
  });

  it("updating non existing prompt results in 404", async () => {
    const answer = await patch("non-existing-prompt", 1, ["staging"]);
    notFound(answer);
    expect(answer.body.message).toBe(RUNTIME_MSG.promptNotFound("non-existing-prompt"));
  });
});

describe("prompt composability", () => {
  // Langfuse makes a project and key for each case: here a team and a write key for each.
  let write: Pair;
  let composeTeam: string;
  let count = 0;
  beforeEach(async () => {
    composeTeam = await ks.team(`Compose ${++count}`);
    write = await ks.key(composeTeam, { scopes: ["write"] });
  });
  const create = (name: string, prompt: unknown, extra: Record<string, unknown> = {}) =>
    post({ name, prompt, type: Array.isArray(prompt) ? "chat" : "text", ...extra }, write);
  const resolved = async (name: string) => {
    const answer = await get(name, "?version=1", write);
    expect(answer.status).toBe(200);
    return answer.body;
  };
  const include = (name: string, by: string) => `@@@langfusePrompt:name=${name}|${by}@@@`;

  it("can create a prompt with dependencies linked via label", async () => {
    // Langfuse links through `production`, which a key never moves: `staging` here.
    await create("child-prompt", "I am a child prompt", { labels: ["staging"] });
    expect((await create("parent-prompt", `Parent prompt with dependency: ${include("child-prompt", "label=staging")}`)).status).toBe(201);
    const dependencies = await ks.h.services.db.promptDependency.findMany({ where: { teamId: composeTeam, childName: "child-prompt" } });
    expect(dependencies.map((dependency) => dependency.childLabel)).toEqual(["staging"]);

    const parent = await resolved("parent-prompt");
    const parentId = parent["id"] as string;
    expect(parent["prompt"]).toBe("Parent prompt with dependency: I am a child prompt");
    expect(parent["resolutionGraph"]).toEqual({
      root: { name: "parent-prompt", version: 1, id: parentId },
      dependencies: { [parentId]: [{ name: "child-prompt", version: 1, id: expect.any(String) }] },
    });

    // A new child version taking the label is what the parent includes from then on.
    await create("child-prompt", "I am an updated child prompt", { labels: ["staging"] });
    const after = await resolved("parent-prompt");
    expect(after["prompt"]).toBe("Parent prompt with dependency: I am an updated child prompt");
    expect(after["resolutionGraph"]).toEqual({
      root: { name: "parent-prompt", version: 1, id: parentId },
      dependencies: { [parentId]: [{ name: "child-prompt", version: 2, id: expect.any(String) }] },
    });
    expect((await get("child-prompt", "?version=2", write)).status).toBe(200);
  });

  it("resolves prompt dependencies correctly when linked via label", async () => {
    await create("nested-child", "I am a nested child", { labels: ["staging"] });
    await create("intermediate", `Intermediate with dependency: ${include("nested-child", "label=staging")}`, { labels: ["staging"] });
    await create("nested-parent", `Parent with nested dependency: ${include("intermediate", "label=staging")}`);
    expect((await resolved("nested-parent"))["prompt"]).toBe("Parent with nested dependency: Intermediate with dependency: I am a nested child");
  });

  it("resolves prompt dependencies correctly when linked via version", async () => {
    await create("version-linked-child", "I am version 3 of the child prompt");
    await create("version-linked-parent", `Parent with version dependency: ${include("version-linked-child", "version=1")}`);
    const { prompt } = await resolved("version-linked-parent");
    expect(prompt).toBe("Parent with version dependency: I am version 3 of the child prompt");
  });

  it("detects circular dependencies", async () => {
    await create("circular-a", "Prompt A without dependency", { labels: ["staging"] });
    await create("circular-b", `Prompt B with dependency: ${include("circular-a", "label=staging")}`, { labels: ["staging"] });
    const circular = await create("circular-a", `Prompt A with dependency: ${include("circular-b", "label=staging")}`, { labels: ["staging"] });
    expect(circular.status).toBe(400);
    // The cycle's own message (the prompts' names hold "circular" too, so a word of it would prove nothing).
    expect(circular.body.message).toBe(INCLUDE_MSG.cycle(["circular-a", "circular-b", "circular-a"]));
    expect((await get("circular-a", "?version=2", write)).status).toBe(404);
  });

  it("handles deeply nested dependencies (3+ levels)", async () => {
    await create("level-3-a", "I am level 3 prompt A", { labels: ["staging"] });
    await create("level-3-b", "I am level 3 prompt B", { labels: ["staging"] });
    await create("level-2", `Level 2 with dependencies: ${include("level-3-a", "label=staging")} and ${include("level-3-b", "label=staging")}`, { labels: ["staging"] });
    await create("level-1", `Level 1 with dependency: ${include("level-2", "label=staging")}`);
    const { prompt } = await resolved("level-1");
    expect(prompt).toBe("Level 1 with dependency: Level 2 with dependencies: I am level 3 prompt A and I am level 3 prompt B");
  });

  it("handles multiple dependencies at the same level", async () => {
    for (const child of ["a", "b", "c"]) await create(`child-${child}`, `I am child prompt ${child.toUpperCase()}`, { labels: ["staging"] });
    await create(
      "multi-parent",
      `Parent prompt with multiple dependencies: First: ${include("child-a", "label=staging")} Second: ${include("child-b", "label=staging")} Third: ${include("child-c", "label=staging")}`,
    );
    expect((await resolved("multi-parent"))["prompt"]).toBe(
      "Parent prompt with multiple dependencies: First: I am child prompt A Second: I am child prompt B Third: I am child prompt C",
    );
  });

  it("handles version-specific dependencies", async () => {
    await create("versioned-child", "I am version 1", { labels: ["staging"] });
    await create("versioned-child", "I am version 2", { labels: ["staging"] });
    await create("version-parent", `Parent with version dependency: ${include("versioned-child", "version=1")}`);
    expect((await resolved("version-parent"))["prompt"]).toBe("Parent with version dependency: I am version 1");
  });

  it("resolves prompt dependencies in chat prompts correctly", async () => {
    await create("chat-child-text", "I am a text prompt used in a chat prompt", { labels: ["staging"] });
    await create("chat-parent", [
      { role: "system", content: "You are a helpful assistant" },
      { role: "user", content: `Here's some context: ${include("chat-child-text", "label=staging")}` },
    ]);
    expect((await resolved("chat-parent"))["prompt"]).toEqual([
      { role: "system", content: "You are a helpful assistant" },
      { role: "user", content: "Here's some context: I am a text prompt used in a chat prompt" },
    ]);
  });

  it("supports nested dependencies in chat prompts", async () => {
    await create("nested-child", "I am a nested child prompt", { labels: ["staging"] });
    await create("intermediate-prompt", `Intermediate prompt with dependency: ${include("nested-child", "label=staging")}`, { labels: ["staging"] });
    await create("nested-chat-parent", [
      { role: "system", content: "You are a helpful assistant" },
      { role: "user", content: `Here's some context: ${include("intermediate-prompt", "label=staging")}` },
    ]);
    expect((await resolved("nested-chat-parent"))["prompt"]).toEqual([
      { role: "system", content: "You are a helpful assistant" },
      { role: "user", content: "Here's some context: Intermediate prompt with dependency: I am a nested child prompt" },
    ]);
  });

  it("should ignore invalid prompt tags", async () => {
    const text = JSON.stringify({
      text: "This prompt has invalid tags: @@@langfusePrompt:invalid@@@, @@@langfusePrompt:name=missing-type@@@, @@@langfusePrompt:name=no-version-or-label@@@",
    });
    expect((await create("prompt-with-invalid-tags", text)).status).toBe(201);
    const { prompt, resolutionGraph } = await resolved("prompt-with-invalid-tags");
    expect(prompt).toBe(text);
    expect(resolutionGraph).toBeNull();
  });

  it("should handle duplicate dependency tags for the same prompt", async () => {
    await create("parent-prompt", "I am a parent prompt");
    const tag = include("parent-prompt", "version=1");
    await create("prompt-with-duplicate-tags", `This prompt has duplicate tags: ${tag} and again ${tag}`);
    expect((await resolved("prompt-with-duplicate-tags"))["prompt"]).toBe("This prompt has duplicate tags: I am a parent prompt and again I am a parent prompt");
  });

  it("should handle special characters in prompt names", async () => {
    const named = [
      ["prompt-with-hyphens", "Hyphen content"],
      ["prompt_with_underscores", "Underscore content"],
      ["prompt.with.dots", "Dot content"],
      ["prompt123withnumbers", "Number content"],
      ["prompt/with/slashes", "Slash content"],
    ] as const;
    for (const [name, content] of named) expect((await create(name, content)).status).toBe(201);
    // Names keep Promptly's rule: Langfuse's "prompt123WithNumbers" and "prompt with spaces" are refused.
    for (const name of ["prompt123WithNumbers", "prompt with spaces"]) expect((await create(name, "x")).status).toBe(400);
    const template = `\n      Reference prompts with special chars:\n${named.map(([name]) => `      ${include(name, "version=1")}\n`).join("")}    `;
    await create("prompt-with-special-char-dependencies", template);
    expect((await resolved("prompt-with-special-char-dependencies"))["prompt"]).toBe(
      `\n      Reference prompts with special chars:\n${named.map(([, content]) => `      ${content}\n`).join("")}    `,
    );
  });

  it("should disallow a prompt that references itself", async () => {
    expect((await create("self-referencing-prompt", "This is the initial content")).status).toBe(201);
    const answer = await create("self-referencing-prompt", `This prompt references itself:\n${include("self-referencing-prompt", "version=1")}\nAnd that's it!`);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(INCLUDE_MSG.cycle(["self-referencing-prompt", "self-referencing-prompt"]));
  });

  it("should return an error when a dependent prompt doesn't exist", async () => {
    const answer = await create("prompt-with-missing-dependency", `This prompt references a non-existent prompt:\n${include("non-existent-prompt", "version=1")}\nEnd of prompt.`);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(INCLUDE_MSG.notFound({ name: "non-existent-prompt", version: 1 }, ["prompt-with-missing-dependency"]));
  });

  it("should return an error when a dependent prompt exists but in a different project", async () => {
    // Another team's prompt is not found from this team (a key sees only its team).
    await ks.prompt(teamId, "cross-project-prompt", [{ template: "This prompt belongs to another team" }]);
    const answer = await create("prompt-with-cross-project-dependency", `Another team's prompt: ${include("cross-project-prompt", "version=1")} End of prompt.`);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(INCLUDE_MSG.notFound({ name: "cross-project-prompt", version: 1 }, ["prompt-with-cross-project-dependency"]));
  });

  it("should throw an error if MAX_PROMPT_NESTING_DEPTH is exceeded", async () => {
    expect(INCLUDE_MAX_DEPTH).toBe(5);
    for (let level = INCLUDE_MAX_DEPTH; level >= 1; level--) {
      const template = level === INCLUDE_MAX_DEPTH ? "I am the deepest prompt" : `Level ${level} with dependency: ${include(`depth-${level + 1}`, "label=staging")}`;
      expect((await create(`depth-${level}`, template, { labels: ["staging"] })).status).toBe(201);
    }
    const answer = await create("depth-0", `Level 0 with dependency: ${include("depth-1", "label=staging")}`, { labels: ["staging"] });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain("Maximum nesting depth exceeded");
  });
});

describe("DELETE /api/public/v2/prompts/:promptName", () => {
  // Langfuse makes a project and key for each case: here a team for each, a key that writes its fixture
  // (a team admin sets `production`, which no key moves) and a key with the `delete` scope.
  let team: string;
  let writer: Pair;
  let deleter: Pair;
  let count = 0;
  beforeEach(async () => {
    team = await ks.team(`Deletes ${++count}`);
    writer = await ks.key(team, { scopes: ["write"] });
    deleter = await ks.key(team, { scopes: ["delete"] });
  });
  const remove = (name: string, query = "") => call("DELETE", `/v2/prompts/${encodeURIComponent(name)}${query}`, { pair: deleter });
  /** The versions left of a prompt, as the list answers them ([] when the prompt is gone). */
  const remaining = async (name: string) =>
    ((await call("GET", `/v2/prompts?name=${encodeURIComponent(name)}`, { pair: writer })).body["data"] as { versions: number[] }[])[0]?.versions ?? [];
  const save = (name: string, prompt: string, labels: string[] = []) => post({ name, prompt, labels }, writer);
  const include = (name: string, by: string) => `@@@langfusePrompt:name=${name}|${by}@@@`;
  const deleteProduction = { status: 403, body: { message: RUNTIME_MSG.deleteProduction, error: "ForbiddenError" } };

  it("deletes all versions of a prompt", async () => {
    // A key never deletes the version production points to: Langfuse's fixture (production on v1) is 403, nothing deleted.
    const guarded = fresh("deleteprompt");
    await ks.prompt(team, guarded, [{ template: "p1", labels: ["production"] }, { template: "p2" }]);
    expect(await remove(guarded)).toEqual(deleteProduction);
    expect(await remaining(guarded)).toEqual([1, 2]);
    // Without production, every version goes, and the prompt with them.
    const name = fresh("deleteprompt");
    await ks.prompt(team, name, [{ template: "p1", labels: ["staging"] }, { template: "p2" }]);
    expect(await remove(name)).toEqual({ status: 204, body: null });
    expect(await remaining(name)).toEqual([]);
    notFound(await get(name, "?label=latest", writer));
  });

  it("deletes by label and version", async () => {
    // Langfuse's fixture: production on v1, dev on v2. Version 1 carries production: 403; the label dev deletes v2.
    const name = fresh("deletepromptfiltered");
    await ks.prompt(team, name, [{ template: "p1", labels: ["production"] }, { template: "p2", labels: ["dev"] }]);
    expect(await remove(name, "?version=1")).toEqual(deleteProduction);
    expect(await remaining(name)).toEqual([1, 2]);
    expect(await remove(name, "?label=production")).toEqual(deleteProduction);
    expect((await remove(name, "?label=dev")).status).toBe(204);
    expect(await remaining(name)).toEqual([1]);
    // The same steps with staging where Langfuse has production: v1 goes, then dev's v2, the last, takes the prompt.
    const other = fresh("deletepromptfiltered");
    await ks.prompt(team, other, [{ template: "p1", labels: ["staging"] }, { template: "p2", labels: ["dev"] }]);
    expect((await remove(other, "?version=1")).status).toBe(204);
    expect(await remaining(other)).toEqual([2]);
    expect((await remove(other, "?label=dev")).status).toBe(204);
    expect(await remaining(other)).toEqual([]);
  });

  it("deletes a prompt with slashes in name (folder structure)", async () => {
    // staging where Langfuse has production (a key never deletes what production points to).
    const name = fresh("folder/subfolder/deleteprompt");
    await ks.prompt(team, name, [{ template: "prompt in folder", labels: ["staging"] }]);
    expect((await remove(name)).status).toBe(204);
    expect(await remaining(name)).toEqual([]);
  });

  it("returns 400 when deleting prompt with dependencies", async () => {
    const child = fresh("childprompt");
    const parent = fresh("parentprompt");
    expect((await save(child, "I am a child prompt", ["staging"])).status).toBe(201);
    expect((await save(parent, `Parent with dependency: ${include(child, "version=1")}`)).status).toBe(201);
    const answer = await remove(child);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe("InvalidRequestError");
    expect(answer.body.message).toContain("depending on");
    expect(answer.body.message).toContain(parent);
    expect(answer.body.message).toBe(INCLUDE_MSG.deleteIncluded([`${parent} v1 depends on ${child} v1`]));
    expect(await remaining(child)).toEqual([1]);
  });

  it("handles mixed version and label dependencies correctly", async () => {
    // A label is on one version at a time in Promptly: beta only on v1, staging on v2 (the newest, `latest`).
    const child = fresh("childprompt");
    const [byVersion, byStaying, byGoing, byLatest] = ["parent1", "parent2", "parent3", "parent4"].map(fresh);
    expect((await save(child, "child v1", ["beta"])).status).toBe(201);
    expect((await save(child, "child v2", ["staging"])).status).toBe(201);
    expect((await save(byVersion!, `Depends on ${include(child, "version=1")}`)).status).toBe(201);
    expect((await save(byStaying!, `Depends on ${include(child, "label=staging")}`)).status).toBe(201);
    expect((await save(byGoing!, `Depends on ${include(child, "label=beta")}`)).status).toBe(201);
    expect((await save(byLatest!, `Depends on ${include(child, "label=latest")}`)).status).toBe(201);
    // v1 goes: its includer by version and by the label only v1 carries refuse it; staging and latest stay on v2.
    const first = await remove(child, "?version=1");
    expect(first.status).toBe(400);
    expect(first.body.message).toContain("depending on");
    expect(first.body.message).toContain(byVersion);
    expect(first.body.message).toContain(byGoing);
    expect(first.body.message).not.toContain(byStaying);
    expect(first.body.message).not.toContain(byLatest);
    // v2, the newest, goes: what includes it by staging, and by latest (which would move), refuse it.
    const second = await remove(child, "?version=2");
    expect(second.body.message).toBe(INCLUDE_MSG.deleteIncluded([`${byStaying} v1 depends on ${child} staging`, `${byLatest} v1 depends on ${child} latest`]));
    expect(await remaining(child)).toEqual([1, 2]);
  });

  it('reattaches "latest" label to highest remaining version when deleted', async () => {
    // `latest` is the newest version in Promptly, so the newest goes (Langfuse's fixture sets latest on v2 of 3, with production).
    const name = fresh("testprompt");
    for (const [prompt, labels] of [["version 1", ["dev"]], ["version 2", ["staging"]], ["version 3", []]] as const) {
      expect((await save(name, prompt, [...labels])).status).toBe(201);
    }
    expect((await remove(name, "?version=3")).status).toBe(204);
    expect(await remaining(name)).toEqual([1, 2]);
    expect(await get(name, "?label=latest", writer)).toMatchObject({ status: 200, body: { version: 2, prompt: "version 2", labels: ["staging", "latest"] } });
    expect((await get(name, "?version=1", writer)).body["labels"]).toEqual(["dev"]);
    // A deleted version's number is never given again: the next version is 4.
    expect(await save(name, "version 4")).toMatchObject({ status: 201, body: { version: 4, labels: ["latest"] } });
    notFound(await get(name, "?version=3", writer));
  });
});

describe("Langfuse's handlers, where its tests have no case of their own", () => {
  // getPromptByName and deletePrompt refuse a version with a label; /projects refuses other methods, before the key.
  it("a version and a label together are 400 on GET and DELETE", async () => {
    const name = fresh("both");
    await ks.prompt(teamId, name, [{ template: "x", labels: ["staging"] }]);
    const deleter = await ks.key(teamId, { scopes: ["delete"] });
    const both = { status: 400, body: { message: LANGFUSE_MSG.versionAndLabel, error: "InvalidRequestError" } };
    expect(await get(name, "?version=1&label=staging")).toEqual(both);
    expect(await call("DELETE", `/v2/prompts/${name}?version=1&label=staging`, { pair: deleter })).toEqual(both);
    expect(await get(name, "?version=1")).toMatchObject({ status: 200, body: { version: 1 } });
  });

  it("GET /api/public/projects answers 405 to other methods, whatever the key", async () => {
    const methodNotAllowed = { status: 405, body: { message: LANGFUSE_MSG.methodNotAllowed, error: "MethodNotAllowedError" } };
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      expect(await call(method, "/projects", { pair: keys.write }), method).toEqual(methodNotAllowed);
      expect(await call(method, "/projects", { auth: "Bearer nothing" }), method).toEqual(methodNotAllowed);
    }
    const response = await fetch(`${ks.server.base}/api/public/projects`, { method: "PUT" });
    expect(response.headers.get("allow")).toBe("GET, HEAD");
    // The prompts' paths alike; a path of no route stays 404 once the key is known.
    expect(await call("PUT", "/v2/prompts", { pair: keys.write })).toEqual(methodNotAllowed);
    expect(await call("POST", "/v2/prompts/some-name", { pair: keys.write })).toEqual(methodNotAllowed);
    expect((await call("PUT", "/v2/datasets", { pair: keys.write })).status).toBe(404);
    expect((await call("GET", "/projects")).status).toBe(200);
  });
});

describe("Parsing prompt dependency tags", () => {
  // Langfuse's parser cases, on Promptly's include parser: each include as { name, version } or { name, label }.
  const parsed = (template: string) => bodyIncludes({ type: "text", template }).map(({ tag: _tag, ...ref }) => ref);
  const cases: [title: string, template: string, expected: ({ name: string; version: number } | { name: string; label: string })[]][] = [
    ["should extract prompt dependency tags with version", "This is a test with @@@langfusePrompt:name=test|version=1@@@ dependency", [{ name: "test", version: 1 }]],
    [
      "should handle prompt names with special characters",
      `@@@langfusePrompt:name=test-with-hyphens|version=1@@@ @@@langfusePrompt:name=test with spaces|label=production@@@
       @@@langfusePrompt:name=test_with_underscores|version=2@@@ @@@langfusePrompt:name=test.with.dots|label=staging@@@ @@@langfusePrompt:name=test123WithNumbers|version=3@@@`,
      [
        { name: "test-with-hyphens", version: 1 }, { name: "test with spaces", label: "production" }, { name: "test_with_underscores", version: 2 },
        { name: "test.with.dots", label: "staging" }, { name: "test123WithNumbers", version: 3 },
      ],
    ],
    ["should extract prompt dependency tags with label", "This is a test with @@@langfusePrompt:name=test|label=production@@@ dependency", [{ name: "test", label: "production" }]],
    [
      "should extract multiple prompt dependency tags",
      "First dependency: @@@langfusePrompt:name=first|version=1@@@\nSecond dependency: @@@langfusePrompt:name=second|label=staging@@@",
      [{ name: "first", version: 1 }, { name: "second", label: "staging" }],
    ],
    [
      "should ignore invalid prompt dependency tags",
      "Valid: @@@langfusePrompt:name=valid|version=1@@@\nInvalid: @@@langfusePrompt:version=1@@@\nAlso invalid: @@@langfusePrompt:name=invalid|something=else@@@",
      [{ name: "valid", version: 1 }],
    ],
    ["should return empty array when no tags are found", "This is a test with no dependency tags", []],
    ["should handle tags with special characters in name", "Tag with special chars @@@langfusePrompt:name=test-prompt_123|version=2@@@", [{ name: "test-prompt_123", version: 2 }]],
    ["should handle tags with special characters in label", "Tag with special chars @@@langfusePrompt:name=test|label=prod-v1.0_beta@@@", [{ name: "test", label: "prod-v1.0_beta" }]],
    ["should correctly coerce version to number", "Version as string @@@langfusePrompt:name=test|version=123@@@", [{ name: "test", version: 123 }]],
    ["should handle tags with spaces in the content", "Tag with spaces @@@langfusePrompt:name=my prompt|label=production label@@@", [{ name: "my prompt", label: "production label" }]],
    [
      "should handle multiple tags with the same name but different versions/labels",
      "@@@langfusePrompt:name=same|version=1@@@\n@@@langfusePrompt:name=same|version=2@@@\n@@@langfusePrompt:name=same|label=production@@@",
      [{ name: "same", version: 1 }, { name: "same", version: 2 }, { name: "same", label: "production" }],
    ],
    ["should handle tags with the PRODUCTION_LABEL constant value", "@@@langfusePrompt:name=test|label=production@@@", [{ name: "test", label: "production" }]],
    [
      "should ignore malformed tags that don't match the regex pattern",
      "Valid: @@@langfusePrompt:name=valid|version=1@@@\nMalformed: @@langfusePrompt:name=test|version=1@@\nAlso malformed: @@@langfusePrompt:name=test|version=1\nAnd: langfusePrompt:name=test|version=1@@@",
      [{ name: "valid", version: 1 }],
    ],
    [
      "should not parse langfuseMedia tags as prompt dependency tags",
      "@@@langfusePrompt:name=valid|version=1@@@\n@@@langfuseMedia:type=image/jpeg|id=cc48838a-3da8-4ca4-a007-2cf8df930e69|source=base64@@@\n@@@langfusePrompt:name=another|label=production@@@",
      [{ name: "valid", version: 1 }, { name: "another", label: "production" }],
    ],
    [
      "should reject tags where name is not the first parameter",
      "Valid: @@@langfusePrompt:name=valid|version=1@@@\nInvalid: @@@langfusePrompt:version=1|name=test@@@",
      [{ name: "valid", version: 1 }],
    ],
  ];
  it.each(cases)("%s", (_title, template, expected) => {
    expect(parsed(template)).toEqual(expected);
  });

});
