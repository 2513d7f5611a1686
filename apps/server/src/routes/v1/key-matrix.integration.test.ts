// One decision for a key, whichever door it comes through: the same key asking the same thing over
// /trpc (the real client) and over /api/v1 is allowed or refused alike, with the same error code. Read
// and write keys, a label-bound key, a key of another team and one of another organization, each
// against a team prompt, a private one, an organization-wide one, another team's, another
// organization's and an archived one. The decision is one function (authorize, packages/api): what
// the key alone decides (a read-only key never writes, no key moves production, a label-bound key
// fetches only its labels) comes first, before any lookup; then the prompt: unseen is NOT_FOUND.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "@promptly/client";
import { appProcess, createAccount, createHarness, createOrganization, createTeam, type AppProcess, type Harness } from "@promptly/api/testing";
import { createApp } from "../../app.ts";
import { listenForTests, type TestServer } from "../../../test/test-server.ts";

const KEYS = ["read", "write", "bound", "otherTeam", "otherOrganization"] as const;
const PROMPTS = ["reply", "secret", "shared", "theirs", "foreign", "archived"] as const;
const ACTIONS = ["read", "list", "createVersion", "setLabel", "setProduction"] as const;
type KeyName = (typeof KEYS)[number];
type PromptName = (typeof PROMPTS)[number];
type Action = (typeof ACTIONS)[number];
/** "ok", or the refusal's error code (tRPC's code, REST's `error.code`: the same names). */
type Decision = string;

/** The prompts each key may see (and, with the write scope, write). */
const SEES: Record<KeyName, PromptName[]> = {
  read: ["reply", "shared"],
  write: ["reply", "shared"],
  bound: ["reply", "shared"],
  otherTeam: ["theirs"],
  otherOrganization: ["foreign"],
};
const WRITES: Record<KeyName, boolean> = { read: false, write: true, bound: false, otherTeam: true, otherOrganization: true };

function expected(key: KeyName, prompt: PromptName, action: Action): Decision {
  // The key alone decides first: a read-only key never writes, no key moves production, a label-bound
  // key (bound to production here) never fetches `latest`; all without looking the prompt up.
  if ((action === "createVersion" || action === "setLabel" || action === "setProduction") && !WRITES[key]) return "FORBIDDEN";
  if (action === "setProduction") return "FORBIDDEN";
  if (key === "bound" && action === "read") return "FORBIDDEN";
  return SEES[key].includes(prompt) ? "ok" : "NOT_FOUND";
}

let h: Harness;
let app: AppProcess;
let server: TestServer;
const keys = {} as Record<KeyName, string>;
const prompts = {} as Record<PromptName, { id: string; name: string; organizationId: string }>;
const organizationOf = {} as Record<KeyName, string>;

beforeAll(async () => {
  h = await createHarness();
  app = appProcess(h);
  server = await listenForTests(createApp({ services: app.services }));
  const person = await createAccount(h);
  const organizationId = (await createOrganization(h, [{ userId: person.id, role: "member" }], "Acme")).id;
  const foreignOrganizationId = (await createOrganization(h, [{ userId: person.id, role: "member" }], "Globex")).id;
  const teamId = (await createTeam(h, organizationId, [{ userId: person.id, role: "admin" }], "Core")).id;
  const otherTeamId = (await createTeam(h, organizationId, [{ userId: person.id, role: "admin" }], "Other")).id;
  const foreignTeamId = (await createTeam(h, foreignOrganizationId, [{ userId: person.id, role: "admin" }], "Far")).id;
  const admin = (await h.signedInClient(person.id)).api;

  const create = async (prompt: PromptName, team: string, organization: string, visibility: "private" | "team" | "organization") => {
    const { id } = await admin.prompts.create({ teamId: team, name: `p/${prompt}`, title: prompt, visibility, type: "text", template: "Hi {{ who }}" });
    prompts[prompt] = { id, name: `p/${prompt}`, organizationId: organization };
  };
  await create("reply", teamId, organizationId, "team");
  await create("secret", teamId, organizationId, "private");
  await create("shared", teamId, organizationId, "organization");
  await create("theirs", otherTeamId, organizationId, "team");
  await create("foreign", foreignTeamId, foreignOrganizationId, "team");
  await create("archived", teamId, organizationId, "team");
  await admin.prompts.archive({ id: prompts.archived.id });

  const key = async (name: KeyName, team: string, organization: string, settings: { labels?: string[]; scopes?: ("read" | "write")[] }) => {
    keys[name] = (await admin.apiKeys.create({ teamId: team, name, ...settings })).key;
    organizationOf[name] = organization;
  };
  await key("read", teamId, organizationId, {});
  await key("write", teamId, organizationId, { scopes: ["write"] });
  await key("bound", teamId, organizationId, { labels: ["production"] });
  await key("otherTeam", otherTeamId, organizationId, { scopes: ["write"] });
  await key("otherOrganization", foreignTeamId, foreignOrganizationId, { scopes: ["write"] });
});
afterAll(async () => {
  await server.close();
  await app.close();
  await h.close();
});

async function overTrpc(key: KeyName, prompt: PromptName, action: Action): Promise<Decision> {
  const client = createClient({ url: server.base, apiKey: keys[key] });
  const { id, name } = prompts[prompt];
  const calls: Record<Action, () => Promise<unknown>> = {
    read: () => client.prompts.get.query({ id, label: "latest" }),
    list: async () => {
      const page = await client.prompts.list.query({ organizationId: organizationOf[key] });
      if (!page.items.some((item) => item.name === name)) throw { data: { code: "NOT_FOUND" } };
    },
    createVersion: () => client.promptVersions.create.mutate({ promptId: id, template: "Hello {{ who }}" }),
    setLabel: () => client.promptLabels.set.mutate({ promptId: id, label: "staging", version: 1 }),
    setProduction: () => client.promptLabels.set.mutate({ promptId: id, label: "production", version: 1 }),
  };
  return calls[action]().then(
    () => "ok",
    (error: { data?: { code?: string } }) => error.data?.code ?? `unexpected: ${String(error)}`,
  );
}

async function overRest(key: KeyName, prompt: PromptName, action: Action): Promise<Decision> {
  const { name } = prompts[prompt];
  const request = (path: string, method = "GET", body?: unknown) =>
    fetch(`${server.base}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${keys[key]}`, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  const requests: Record<Action, () => Promise<Response>> = {
    read: () => request(`/prompts/${name}?label=latest`),
    list: () => request("/prompts"),
    createVersion: () => request(`/prompts/${name}/versions`, "POST", { template: "Hello {{ who }}" }),
    setLabel: () => request(`/prompts/${name}/labels/staging`, "PUT", { version: 1 }),
    setProduction: () => request(`/prompts/${name}/labels/production`, "PUT", { version: 1 }),
  };
  const response = await requests[action]();
  const body = (await response.json()) as { error?: { code: string }; items?: { name: string }[] };
  if (!response.ok) return body.error!.code;
  if (action === "list" && !body.items!.some((item) => item.name === name)) return "NOT_FOUND";
  return "ok";
}

describe("the same key gets the same decision over /trpc and /api/v1", () => {
  const rows = KEYS.flatMap((key) => PROMPTS.flatMap((prompt) => ACTIONS.map((action) => [key, prompt, action] as const)));
  for (const [key, prompt, action] of rows) {
    it(`${key} key, ${action}, ${prompt} prompt: ${expected(key, prompt, action)}`, async () => {
      const decisions = { trpc: await overTrpc(key, prompt, action), rest: await overRest(key, prompt, action) };
      expect(decisions).toEqual({ trpc: expected(key, prompt, action), rest: expected(key, prompt, action) });
    });
  }
});
