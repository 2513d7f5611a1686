// The compiled prompt's limit over HTTP: a saved template whose variable is repeated past it is
// refused with a 400 naming the variable and the limit, as every contract problem is.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMPILED_TEXT_MAX, COMPILE_MSG, RUNTIME_MSG } from "@promptly/shared";
import { appProcess, createAccount, createHarness, createOrganization, createTeam, type AppProcess, type Harness } from "@promptly/api/testing";
import { createApp } from "../../app.ts";
import { listenForTests, type TestServer } from "../../../test/test-server.ts";

let h: Harness;
let app: AppProcess;
let server: TestServer;
let key: string;
/** How many times the saved template says {{x}}. */
const REPEATS = 20_000;

beforeAll(async () => {
  h = await createHarness();
  app = appProcess(h);
  server = await listenForTests(createApp({ services: app.services }));
  const person = await createAccount(h, { fullName: "Ada Admin" });
  const organization = await createOrganization(h, [{ userId: person.id, role: "member" }], "Acme");
  const teamId = (await createTeam(h, organization.id, [{ userId: person.id, role: "admin" }], "Core")).id;
  const { api } = await h.signedInClient(person.id);
  // 100,000 characters, the longest template a version may have.
  const repeated = await api.prompts.create({ teamId, name: "repeated", title: "Repeated", visibility: "team", type: "text", template: "{{x}}".repeat(REPEATS) });
  await api.promptLabels.set({ promptId: repeated.id, label: "production", version: 1 });
  key = (await api.apiKeys.create({ teamId, name: "read" })).key;
});
afterAll(async () => {
  await server.close();
  await app.close();
  await h.close();
});

const compileRepeated = (x: string) =>
  fetch(`${server.base}/api/v1/prompts/repeated/compile`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ variables: { x } }),
  });

describe("POST /api/v1/prompts/{name}/compile past the compiled prompt's limit", () => {
  it("20,000 '{{x}}' of one character more than the limit's share: a 400 naming x and the limit", async () => {
    const answer = await compileRepeated("a".repeat(COMPILED_TEXT_MAX / REPEATS + 1));
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: unknown }).error).toMatchObject({
      code: "BAD_REQUEST",
      message: `${RUNTIME_MSG.compileFailed}'x' ${COMPILE_MSG.tooLong}`,
      details: [{ variable: "x", message: COMPILE_MSG.tooLong }],
    });
  });

  it("the same template with a short value compiles", async () => {
    const answer = await compileRepeated("ab");
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ version: 1, text: "ab".repeat(REPEATS) });
  });
});
