// Message placeholders in chat versions, through every way a version is written (the app's tRPC API,
// /api/v1, the Langfuse API, MCP's createChatPrompt, an import of Langfuse prompt JSON and of
// Promptly's own library file) and every way it is read: each saves `{ type: "placeholder", name }`
// among the role messages and answers it as written, and each refuses a name that is both a variable
// and a placeholder of one version (Langfuse's words) and a placeholder name outside the variable
// name rule, saving nothing. A name may change kind from one version to the next.
import { beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { PROMPT_MSG } from "@promptly/shared";
import { everyDoor, refused, v1Refusal, type Saved } from "../test/every-door.ts";
import { langfuseCaller, type KeyServer, type Pair } from "../test/key-server.ts";
import { callTool, toolText } from "../test/mcp-client.ts";

type Message = { role: "system" | "user" | "assistant"; content: string } | { type: "placeholder"; name: string };

const door = everyDoor();
const { v1, importProblems, reads } = door;
let ks: KeyServer;
let teamId: string;
let write: Pair & { id: string };
let agent: Client;
beforeAll(() => void ({ ks, teamId, write, agent } = door));

const withHistory = (system: string): Message[] => [
  { role: "system", content: system },
  { type: "placeholder", name: "history" },
  { role: "user", content: "And now?" },
];



/** Each way a version is written: a new chat prompt of `name` with `messages`, or its next version. */
const writePaths: Record<string, (name: string, messages: Message[]) => Promise<Saved>> = {
  trpc: async (name, messages) => {
    const listed = await ks.admin.prompts.list({ organizationId: ks.organizationId, teamId, q: name }).catch(() => ({ items: [] as { id: string; name: string }[] }));
    const existing = listed.items.find((item) => item.name === name);
    return refused(
      existing
        ? ks.admin.promptVersions.create({ promptId: existing.id, messages })
        : ks.admin.prompts.create({ teamId, name, title: name, visibility: "team", type: "chat", messages }),
    );
  },
  v1: async (name, messages) => {
    let answer = await v1("POST", `/prompts/${encodeURIComponent(name)}/versions`, { messages });
    if (answer.status === 404) answer = await v1("POST", "/prompts", { name, title: name, visibility: "team", type: "chat", messages });
    return answer.status < 300 ? { ok: true } : { ok: false, message: v1Refusal(answer.body) };
  },
  langfuse: async (name, messages) => {
    const answer = await langfuseCaller(ks.server, () => write)("POST", "/v2/prompts", { body: { name, type: "chat", prompt: messages } });
    return answer.status === 201 ? { ok: true } : { ok: false, message: `${answer.body.message} | ${JSON.stringify(answer.body.error)}` };
  },
  mcp: async (name, messages) => {
    const result = await callTool(agent, "createChatPrompt", { name, prompt: messages });
    return result.isError ? { ok: false, message: toolText(result) } : { ok: true };
  },
  "import (Langfuse JSON)": async (name, messages) => {
    const listed = await ks.admin.prompts.list({ organizationId: ks.organizationId, teamId, q: name }).catch(() => ({ items: [] as { id: string; name: string }[] }));
    const existing = listed.items.find((item) => item.name === name);
    const version = existing ? (await ks.admin.prompts.get({ id: existing.id })).version.version + 1 : 1;
    const document = { name, version, type: "chat", prompt: messages, labels: [], tags: [] };
    return importProblems(document);
  },
  "import (library file)": async (name, messages) => {
    const document = {
      format: "promptly.library", version: 1, exportedAt: new Date(0).toISOString(), team: { name: "Core" },
      prompts: [{ name, title: name, versions: [{ version: 1, type: "chat", messages }] }],
    };
    return importProblems(document);
  },
};



describe.each(Object.entries(writePaths))("a chat version with a placeholder, written through %s", (path, save) => {
  const name = `ph-${path.replace(/[^a-z]+/g, "-")}`;

  it("is saved as written and every read answers the placeholder as Langfuse does, listed apart from the variables", async () => {
    expect(await save(name, withHistory("You help {{ customer }}."))).toEqual({ ok: true });
    const { app, rest, langfuse, tool } = await reads(name);
    const written = withHistory("You help {{ customer }}.");
    expect(app.messages).toEqual(written);
    expect(app.placeholders).toEqual(["history"]);
    expect(app.variables.map((v) => v.name)).toEqual(["customer"]);
    expect(rest).toMatchObject({ messages: written, placeholders: ["history"], variables: [{ name: "customer" }] });
    expect((rest.variables as unknown[]).length).toBe(1);
    expect(langfuse.prompt).toEqual(written);
    expect(tool).toMatchObject({ messages: written, prompt: written, placeholders: ["history"] });
  });

  it("refuses a name that is both a variable and a placeholder of one version, in Langfuse's words, saving nothing", async () => {
    const conflicting = `${name}-both`;
    const saved = await save(conflicting, withHistory("You remember {{ history }}."));
    expect(saved.ok).toBe(false);
    expect(saved.ok || saved.message).toMatch(/variables and placeholders must be unique, the following are not: history/);
    expect((await v1("GET", `/prompts/${conflicting}?label=latest`)).status).toBe(404);
  });

  it("refuses a placeholder whose name breaks the variable name rule", async () => {
    const saved = await save(`${name}-bad`, [{ role: "system", content: "Hi" }, { type: "placeholder", name: "2nd history" }]);
    expect(saved.ok).toBe(false);
    expect(saved.ok || saved.message).toContain(PROMPT_MSG.placeholderNameInvalid);
  });
});

describe("a name changes kind from one version to the next", () => {
  it("is a variable in one version and a placeholder in the next, through the Langfuse API as Langfuse allows", async () => {
    const name = "kind-change";
    expect(await writePaths["langfuse"]!(name, [{ role: "system", content: "Earlier: {{ history }}" }, { role: "user", content: "Go on" }])).toEqual({ ok: true });
    expect(await writePaths["langfuse"]!(name, withHistory("Context: {{ other }}"))).toEqual({ ok: true });
    const { rest } = await reads(name);
    expect(rest).toMatchObject({ version: 2, placeholders: ["history"], variables: [{ name: "other" }] });
  });
});

describe("compile with placeholders (/api/v1)", () => {
  it("fills each placeholder named with its messages, as given, and leaves one not named in place", async () => {
    const name = "ph-compile";
    expect(await writePaths["v1"]!(name, withHistory("You help {{ customer }}."))).toEqual({ ok: true });
    const history = [{ role: "user", content: "My {{ order }} is late" }, { role: "assistant", content: "Sorry to hear it" }];
    const filled = await v1("POST", `/prompts/${name}/compile`, { label: "latest", variables: { customer: "Ada" }, placeholders: { history } });
    expect(filled.body).toEqual({
      version: 1,
      messages: [{ role: "system", content: "You help Ada." }, ...history, { role: "user", content: "And now?" }],
    });
    const left = await v1("POST", `/prompts/${name}/compile`, { label: "latest", variables: { customer: "Ada" } });
    expect(left.body).toMatchObject({ messages: [{ role: "system", content: "You help Ada." }, { type: "placeholder", name: "history" }, { role: "user", content: "And now?" }] });
    const emptied = await v1("POST", `/prompts/${name}/compile`, { label: "latest", variables: { customer: "Ada" }, placeholders: { history: [] } });
    expect(emptied.body).toMatchObject({ messages: [{ role: "system", content: "You help Ada." }, { role: "user", content: "And now?" }] });
    const wrong = await v1("POST", `/prompts/${name}/compile`, { label: "latest", variables: { customer: "Ada" }, placeholders: { history: "hello" } });
    expect(wrong.status).toBe(400);
  });
});
