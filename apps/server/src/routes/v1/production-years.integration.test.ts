// REST production reads with a span or cursor in a year PostgreSQL holds no instant of (year 0, a
// negative year): 400 with the reason, not the database's out-of-range error as a 500.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PRODUCTION_MSG } from "@promptly/shared";
import { createAccount, createHarness, createOrganization, createTeam, type Harness } from "@promptly/api/testing";
import { createApp } from "../../app.ts";
import { listenForTests, type TestServer } from "../../../test/test-server.ts";

let h: Harness;
let server: TestServer;
let key: string;

const get = (path: string) => fetch(`${server.base}/api/v1${path}`, { headers: { authorization: `Bearer ${key}` } });
const cursorOf = (startedAt: string) => Buffer.from(JSON.stringify([startedAt, "00000000-0000-4000-8000-000000000000"])).toString("base64url");

beforeAll(async () => {
  h = await createHarness();
  server = await listenForTests(createApp({ services: h.services }));
  const person = await createAccount(h);
  const organization = await createOrganization(h, [{ userId: person.id, role: "admin" }]);
  const teamId = (await createTeam(h, organization.id, [{ userId: person.id, role: "admin" }], "Core")).id;
  const api = (await h.signedInClient(person.id)).api;
  await api.prompts.create({ teamId, name: "support/reply", title: "Reply", visibility: "team", type: "text", template: "One" });
  key = (await api.apiKeys.create({ teamId, name: "backend" })).key;
});

afterAll(async () => {
  await server?.close();
  await h?.close();
});

describe("GET /api/v1/prompts/{name}/metrics and /generations in a year out of range", () => {
  for (const [name, query] of [
    ["year 0", "from=0000-01-01T00:00:00Z&to=0000-02-01T00:00:00Z"],
    ["year 0, with an offset", "from=0000-01-01T00:00:00%2B01:00&to=0000-02-01T00:00:00Z"],
    ["only 'to', in year 1 (the default 'from' falls in year 0)", "to=0001-01-02T00:00:00Z"],
  ] as const) {
    it(`answer 400 in ${name}`, async () => {
      for (const path of ["metrics", "generations", "generations?format=csv"]) {
        const response = await get(`/prompts/support/reply/${path}${path.includes("?") ? "&" : "?"}${query}`);
        expect(response.status, path).toBe(400);
        expect(JSON.stringify(await response.json())).toContain(PRODUCTION_MSG.rangeYears);
      }
    });
  }

  it("answer 400 for a negative year (not an ISO instant the query takes)", async () => {
    const response = await get(`/prompts/support/reply/generations?from=-000001-01-01T00:00:00Z&to=-000001-02-01T00:00:00Z`);
    expect(response.status).toBe(400);
  });

  it("answer 400 for a cursor starting in year 0", async () => {
    const response = await get(`/prompts/support/reply/generations?cursor=${cursorOf("0000-06-01T00:00:00.000Z")}`);
    expect(response.status).toBe(400);
  });
});
