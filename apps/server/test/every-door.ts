// What the tests that write and read one version through every door share: a key server with a team
// "Core" and a write key, /api/v1 and an MCP agent with that key, the import of a document, and the
// version as each reader answers it (the app, /api/v1, the Langfuse API and MCP).
import { afterAll, beforeAll } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { langfuseCaller, startKeyServer, type KeyServer, type Pair } from "./key-server.ts";
import { callTool, mcpClients, toolText } from "./mcp-client.ts";

/** A write's outcome: saved, or refused with the door's message. */
export type Saved = { ok: true } | { ok: false; message: string };

type AppVersion = Awaited<ReturnType<KeyServer["admin"]["prompts"]["get"]>>["version"];
type V1Answer = { status: number; body: Record<string, unknown> & { error?: { message: string; details?: { message: string }[] } } };

export interface EveryDoor {
  ks: KeyServer;
  teamId: string;
  write: Pair & { id: string };
  agent: Client;
  /** /api/v1 with the write key. */
  v1(method: string, path: string, body?: unknown): Promise<V1Answer>;
  /** A library document imported into the team, or the problems its preview names. */
  importProblems(document: unknown): Promise<Saved>;
  /** The version labelled `latest` as the app, /api/v1, the Langfuse API and MCP answer it. */
  reads(name: string): Promise<{ app: AppVersion; rest: Record<string, unknown>; langfuse: Record<string, unknown>; tool: Record<string, unknown> }>;
}

/** The fixture, started before the file's tests and closed after them; its fields are set inside tests. */
export function everyDoor(): EveryDoor {
  let mcp: ReturnType<typeof mcpClients>;
  const door = {
    async v1(method, path, body) {
      const response = await fetch(`${door.ks.server.base}/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${door.write.secretKey}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as V1Answer["body"] };
    },
    async importProblems(document) {
      const preview = await door.ks.admin.library.previewImport({ teamId: door.teamId, document });
      const problems = preview.items.flatMap((item) => item.problems);
      if (problems.length) return { ok: false, message: problems.join(" | ") };
      await door.ks.admin.library.applyImport({ teamId: door.teamId, document });
      return { ok: true };
    },
    async reads(name) {
      const { ks, teamId, write, agent } = door;
      const listed = await ks.admin.prompts.list({ organizationId: ks.organizationId, teamId, q: name });
      const id = listed.items.find((item) => item.name === name)!.id;
      const app = (await ks.admin.prompts.get({ id, label: "latest" })).version;
      const rest = (await door.v1("GET", `/prompts/${encodeURIComponent(name)}?label=latest`)).body;
      const langfuse = (await langfuseCaller(ks.server, () => write)("GET", `/v2/prompts/${encodeURIComponent(name)}?label=latest`)).body;
      const tool = JSON.parse(toolText(await callTool(agent, "getPrompt", { name, label: "latest" }))) as Record<string, unknown>;
      return { app, rest, langfuse, tool };
    },
  } as Partial<EveryDoor> as EveryDoor;
  beforeAll(async () => {
    door.ks = await startKeyServer();
    door.teamId = await door.ks.team("Core");
    door.write = await door.ks.key(door.teamId, { scopes: ["write"] });
    mcp = mcpClients(door.ks.server);
    door.agent = await mcp.connect(door.write.secretKey);
  });
  afterAll(async () => {
    await mcp.close();
    await door.ks.close();
  });
  return door;
}

/** /api/v1's refusal as one line: its message and each problem's. */
export const v1Refusal = (body: V1Answer["body"]) => [body.error?.message, ...(body.error?.details ?? []).map((d) => d.message)].join(" | ");

/** A write through the app's API as a Saved: its error's message when it throws. */
export const refused = async (promise: Promise<unknown>): Promise<Saved> => {
  try {
    await promise;
    return { ok: true };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
};
