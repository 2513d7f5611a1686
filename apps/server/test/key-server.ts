// For the tests of what API keys call (/api/public, /api/mcp): the server on a fresh database, one
// organization with a signed-in person who is admin of every team made here, keys made as users make
// them, and Langfuse's HTTP calls with a key pair.
import { appProcess, createAccount, createHarness, createOrganization, createTeam, type AppProcess, type Harness } from "@promptly/api/testing";
import type { ApiKeyScope } from "@promptly/shared";
import { createApp } from "../src/app.ts";
import { listenForTests, type TestServer } from "./test-server.ts";

export type TeamAdmin = Awaited<ReturnType<Harness["signedInClient"]>>["api"];
/** A key as the Langfuse SDKs take it: the public half and the secret (the Promptly key). */
export type Pair = { publicKey: string; secretKey: string };

type PromptVersionSpec = { template: string; labels?: string[]; config?: Record<string, unknown> };

export interface KeyServer {
  h: Harness;
  app: AppProcess;
  server: TestServer;
  organizationId: string;
  /** The admin of every team made by `team`. */
  admin: TeamAdmin;
  /** A new team of the organization, the admin its admin. */
  team(name: string): Promise<string>;
  /**
   * A prompt made in the app by the admin (who may set production): one version per entry, a second
   * of the test clock apart, each with its labels.
   */
  prompt(teamId: string, name: string, versions: PromptVersionSpec[], tags?: string[]): Promise<{ id: string }>;
  /** A new key of `teamId` (read only unless scopes say more), with its public half. */
  key(teamId: string, options?: { scopes?: ApiKeyScope[]; labels?: string[] }): Promise<Pair & { id: string }>;
  /** A prompt whose production is split: version 1 its base, version 2 its candidate; `labels` on each version besides. */
  splitPrompt(teamId: string, name: string, labels: [string[], string[], string[]]): Promise<string>;
  /** Production's split as the database holds it, and how many moves of production the audit trail records. */
  production(promptId: string): Promise<{ label: { version: number; candidateVersion: number | null; candidateWeight: number | null }; moves: number }>;
  close(): Promise<void>;
}

export async function startKeyServer(): Promise<KeyServer> {
  const h = await createHarness();
  const app = appProcess(h);
  const server = await listenForTests(createApp({ services: app.services }));
  const person = await createAccount(h);
  const organizationId = (await createOrganization(h, [{ userId: person.id, role: "member" }], "Acme")).id;
  const admin = (await h.signedInClient(person.id)).api;
  let keys = 0;
  const prompt: KeyServer["prompt"] = async (teamId, name, versions, tags) => {
    const [first] = versions;
    const { id } = await admin.prompts.create({ teamId, name, title: name, visibility: "team", type: "text", template: first!.template, config: first!.config, tags });
    for (const [index, spec] of versions.entries()) {
      if (index > 0) {
        h.clock.advance(1000);
        await admin.promptVersions.create({ promptId: id, template: spec.template, config: spec.config });
      }
      for (const label of spec.labels ?? []) await admin.promptLabels.set({ promptId: id, label, version: index + 1 });
    }
    return { id };
  };
  return {
    h, app, server, organizationId, admin,
    team: async (name) => (await createTeam(h, organizationId, [{ userId: person.id, role: "admin" }], name)).id,
    prompt,
    key: async (teamId, options = {}) => {
      const { id, key, publicKey } = await admin.apiKeys.create({ teamId, name: `key ${++keys}`, ...options });
      return { id, publicKey, secretKey: key };
    },
    splitPrompt: async (teamId, name, labels) => {
      const { id } = await prompt(teamId, name, [
        { template: "One", labels: ["production", ...labels[0]] },
        { template: "Two", labels: labels[1] },
        { template: "Three", labels: labels[2] },
      ]);
      await admin.promptLabels.split({ promptId: id, label: "production", version: 2, weight: 50 });
      return id;
    },
    production: async (promptId) => ({
      label: await h.database.db.promptLabel.findFirstOrThrow({
        where: { promptId, name: "production" }, select: { version: true, candidateVersion: true, candidateWeight: true },
      }),
      moves: (await h.database.db.auditEvent.findMany({ where: { promptId, action: "prompt.label.set" }, select: { after: true } }))
        .filter((event) => (event.after as { label?: string } | null)?.label === "production").length,
    }),
    close: async () => {
      await server.close();
      await app.close();
      await h.close();
    },
  };
}

export const basicAuth = (pair: Pair) => `Basic ${Buffer.from(`${pair.publicKey}:${pair.secretKey}`).toString("base64")}`;

export type LangfuseAnswer = { status: number; body: Record<string, unknown> & { error: unknown; message: string } };

/** A call of /api/public with a key pair (or the Authorization given), answered as parsed JSON. */
export function langfuseCaller(server: TestServer, defaultPair: () => Pair) {
  return async (method: string, path: string, options: { pair?: Pair; auth?: string; body?: unknown } = {}): Promise<LangfuseAnswer> => {
    const authorization = options.auth ?? basicAuth(options.pair ?? defaultPair());
    const response = await fetch(`${server.base}/api/public${path}`, {
      method,
      headers: { authorization, ...(options.body === undefined ? {} : { "content-type": "application/json" }) },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as LangfuseAnswer["body"] };
  };
}
