// FAST_PATHS=off turns both fast paths of createApp off: a single tRPC query then goes through the
// adapter (a list PostgreSQL would write too) and a runtime fetch the process holds through the whole stack. Their answers are the same
// either way (their own tests show it), so who answered is read from the fast paths' own count. The
// suite's second run sets it off for every test that goes through the host; this shows it is obeyed.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { appProcess, createAccount, createHarness, createOrganization, createTeam, type AppProcess, type Harness } from "@promptly/api/testing";
import { createApp } from "../app.ts";
import { listenForTests } from "../../test/test-server.ts";
import { fastPathAnswers } from "./answers.ts";

let h: Harness;
let app: AppProcess;
let newKey: () => Promise<string>;
let cookie: string;

beforeAll(async () => {
  h = await createHarness();
  app = appProcess(h);
  const person = await createAccount(h);
  const organization = await createOrganization(h, [{ userId: person.id, role: "member" }]);
  const teamId = (await createTeam(h, organization.id, [{ userId: person.id, role: "admin" }])).id;
  const { api, cookies } = await h.signedInClient(person.id, { services: app.services });
  cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  const prompt = await api.prompts.create({ teamId, name: "reply", title: "Reply", visibility: "team", type: "text", template: "Hello" });
  await api.promptLabels.set({ promptId: prompt.id, label: "production", version: 1 });
  newKey = async () => (await api.apiKeys.create({ teamId, name: "tool" })).key;
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await app?.close();
  await h?.close();
});

describe("FAST_PATHS", () => {
  it.each([
    ["unset: each fast path answers what it can", undefined, 1],
    ["on: each fast path answers what it can", "on", 1],
    ["off: neither answers anything, the full stack answers all", "off", 0],
  ] as const)("%s", async (_name, value, answered) => {
    vi.stubEnv("FAST_PATHS", value);
    const server = await listenForTests(createApp({ services: app.services }));
    try {
      const before = { ...fastPathAnswers };
      const trpc = await fetch(`${server.base}/trpc/auth.me`);
      expect(trpc.status).toBe(200);
      // A list whose data PostgreSQL writes on the tRPC fast path (directAnswers).
      expect((await fetch(`${server.base}/trpc/teams.list`, { headers: { cookie } })).status).toBe(200);
      // A new key's first fetch is the stack's (the process keeps the key and the version); the
      // second is the fast path's, when it is on. The runtime cache keeps them only while it listens.
      await vi.waitUntil(() => app.services.runtime.mayBeApiKey("promptly_x") !== null, { timeout: 15_000 });
      const key = await newKey();
      for (let i = 0; i < 2; i++) {
        const fetched = await fetch(`${server.base}/api/v1/prompts/reply`, { headers: { authorization: `Bearer ${key}` } });
        expect(fetched.status).toBe(200);
      }
      expect(fastPathAnswers).toEqual({
        trpcQuery: before.trpcQuery + 2 * answered, runtimeFetch: before.runtimeFetch + answered, directAnswer: before.directAnswer + answered,
      });
    } finally {
      vi.unstubAllEnvs();
      await server.close();
    }
  });

  it("a value it does not know stops the app from being made, naming the variable", () => {
    vi.stubEnv("FAST_PATHS", "sometimes");
    try {
      expect(() => createApp({ services: app.services })).toThrow("Invalid configuration: FAST_PATHS must be on or off");
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
