// teams.list and teamMembers.list written by PostgreSQL (@promptly/api's directAnswers) answer
// exactly as their procedures do: the same app with the tRPC fast path and through the adapter alone,
// asked the same requests by every kind of caller, gives the same status, headers and body. The
// direct answer counts what it answered itself, so each case also says whether it was the one that
// answered (a list the caller may read) or left the request to the procedure (every refusal).
import { request } from "node:http";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SignInRefusal } from "@promptly/api";
import { appProcess, createAccount, createHarness, createOrganization, createTeam, type AppProcess, type Harness } from "@promptly/api/testing";
import { createApp } from "../app.ts";
import { listenForTests, type TestServer } from "../../test/test-server.ts";
import { trpcBatchOfOne as batchOfOne, trpcQuery as query, withoutFraming } from "../../test/trpc-paths.ts";
import { fastPathAnswers } from "./answers.ts";

let harness: Harness;
let app: AppProcess;
let withFastPath: TestServer;
let adapterOnly: TestServer;
const cookies: Record<string, string> = {};
let organizationId: string;
let otherOrganizationId: string;
let teamId: string;
let emptyTeamId: string;
let apiKey: string;

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

/** Status, every header but the moment's (Date, Keep-Alive, Connection, the request id) and the body, gunzipped. */
function seen(base: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<Answer>((resolve, reject) => {
    const req = request(`${base}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const all = Object.fromEntries(Object.entries(res.headers).filter(([name]) => !["date", "keep-alive", "connection", "x-request-id"].includes(name)));
        const raw = Buffer.concat(chunks);
        resolve({ status: res.statusCode!, headers: all, body: (res.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw).toString() });
      });
    });
    req.on("error", reject);
    req.end();
  });
}

async function cookieOf(userId: string, options?: { twoFactorVerified?: boolean }) {
  const client = await harness.signedInClient(userId, options);
  return [...client.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
}

/** Names a JSON writer must escape, and text it must leave as it is. */
const AWKWARD_NAMES = ['Quote " and \\ backslash', "Tab\tand\u0001control", "Ünïcödé 名前 🚀", "</script><b>html</b>", "Line\u2028separator"];

beforeAll(async () => {
  harness = await createHarness();
  app = appProcess(harness);
  withFastPath = await listenForTests(createApp({ services: app.services, trpcFastPath: true }));
  adapterOnly = await listenForTests(createApp({ services: app.services, trpcFastPath: false }));
  const [orgAdmin, teamAdmin, editor, viewer, orgMember, outsider, superUser, pending, noRole] = await Promise.all([
    createAccount(harness, { fullName: "Olga Admin" }),
    createAccount(harness, { fullName: 'Tess "Admin" \\ Lead', avatarKey: "avatars/tess.png" }),
    createAccount(harness, { fullName: null }),
    createAccount(harness, { fullName: "Vic 🚀 Viewer", avatarKey: "" }),
    createAccount(harness),
    createAccount(harness),
    createAccount(harness, { superUser: true }),
    createAccount(harness),
    createAccount(harness),
  ]);
  await harness.database.db.userRole.delete({ where: { userId: noRole.id } });
  const organization = await createOrganization(harness, [
    { userId: orgAdmin.id, role: "admin" }, { userId: orgMember.id, role: "member" }, { userId: teamAdmin.id, role: "member" },
    { userId: editor.id, role: "member" }, { userId: viewer.id, role: "member" }, { userId: pending.id, role: "member" }, { userId: noRole.id, role: "member" },
  ]);
  organizationId = organization.id;
  otherOrganizationId = (await createOrganization(harness, [{ userId: outsider.id, role: "admin" }])).id;
  await createTeam(harness, otherOrganizationId, [{ userId: outsider.id, role: "admin" }], "Elsewhere");
  const team = await createTeam(harness, organizationId, [
    { userId: teamAdmin.id, role: "admin" }, { userId: editor.id, role: "editor" }, { userId: viewer.id, role: "viewer" },
    { userId: superUser.id, role: "viewer" }, { userId: pending.id, role: "viewer" }, { userId: noRole.id, role: "viewer" },
  ]);
  teamId = team.id;
  emptyTeamId = (await createTeam(harness, organizationId, [], "Nobody yet")).id;
  for (const name of AWKWARD_NAMES) await createTeam(harness, organizationId, [{ userId: viewer.id, role: "admin" }], name);
  // Settings the list carries: approvals, a pass rate, kept generation text, and a creator.
  await harness.database.db.team.update({ where: { id: teamId }, data: { requiredApprovals: 2, requiredPassRate: 85, keepGenerationText: true, createdById: orgAdmin.id } });
  // Two dates in the same millisecond but one, and a date of another year.
  await harness.database.db.team.update({ where: { id: emptyTeamId }, data: { createdAt: new Date("2024-02-29T23:59:59.001Z"), updatedAt: new Date("2026-01-01T00:00:00.000Z") } });
  apiKey = (await (await harness.signedInClient(teamAdmin.id)).api.apiKeys.create({ teamId, name: "tool" })).key;
  const people = { orgAdmin, teamAdmin, editor, viewer, orgMember, outsider, superUser, noRole };
  for (const [kind, account] of Object.entries(people)) cookies[kind] = await cookieOf(account.id);
  cookies["pending"] = await cookieOf(pending.id, { twoFactorVerified: false });
});
afterAll(async () => {
  await Promise.all([withFastPath, adapterOnly].map((server) => server?.close()));
  await app?.close();
  await harness.close();
});

describe("direct answers", () => {
  type Case = [name: string, request: () => [path: string, headers: Record<string, string>], status: number, direct: boolean];
  const as = (kind: string) => ({ cookie: cookies[kind]! });
  /**
   * A caller for each of signedInDecision's refusals (a new refusal does not compile until it has one
   * here), with the status signedInPerson answers: the direct answers share the decision, so each is the
   * procedure's to answer on both lists.
   */
  const refusedCallers: Record<SignInRefusal, [caller: string, headers: () => Record<string, string>, status: number]> = {
    anonymous: ["no session: UNAUTHORIZED", () => ({}), 401],
    apiKey: ["a team API key of the team: FORBIDDEN", () => ({ authorization: `Bearer ${apiKey}` }), 403],
    secondFactorPending: ["a second factor still to give: UNAUTHORIZED", () => as("pending"), 401],
  };
  const bothLists: [list: string, path: () => string][] = [["teams.list", () => query("teams.list")], ["teamMembers.list", () => query("teamMembers.list", { teamId })]];
  const refusedByBoth = Object.values(refusedCallers).flatMap(([caller, headers, status]) =>
    bothLists.map(([list, path]): Case => [`${list}, ${caller}`, () => [path(), headers()], status, false]),
  );
  const cases: Case[] = [
    ["teams.list, an organization's admin (every team, awkward names, settings, dates)", () => [query("teams.list", { organizationId }), as("orgAdmin")], 200, true],
    ["teams.list without input, an organization's admin", () => [query("teams.list"), as("orgAdmin")], 200, true],
    ["teams.list, a team's admin (their role on it)", () => [query("teams.list", { organizationId }), as("teamAdmin")], 200, true],
    ["teams.list, a viewer of several teams", () => [query("teams.list"), as("viewer")], 200, true],
    ["teams.list, a super user (every organization's teams)", () => [query("teams.list"), as("superUser")], 200, true],
    ["teams.list, an organization member in no team (an empty list)", () => [query("teams.list", { organizationId }), as("orgMember")], 200, true],
    ["teams.list, another organization's admin asking this one (an empty list)", () => [query("teams.list", { organizationId }), as("outsider")], 200, true],
    ["teams.list, an unknown organization", () => [query("teams.list", { organizationId: "00000000-0000-4000-8000-000000000000" }), as("orgAdmin")], 200, true],
    ["teams.list as a batch of one", () => [batchOfOne("teams.list", { organizationId }), as("orgAdmin")], 200, true],
    ["teams.list, a malformed organization id: BAD_REQUEST", () => [query("teams.list", { organizationId: "nope" }), as("orgAdmin")], 400, false],
    ["teamMembers.list, the team's admin (names to escape, avatars, the last admin)", () => [query("teamMembers.list", { teamId }), as("teamAdmin")], 200, true],
    ["teamMembers.list, a viewer", () => [query("teamMembers.list", { teamId }), as("viewer")], 200, true],
    ["teamMembers.list, the organization's admin outside the team", () => [query("teamMembers.list", { teamId }), as("orgAdmin")], 200, true],
    ["teamMembers.list, a super user", () => [query("teamMembers.list", { teamId }), as("superUser")], 200, true],
    ["teamMembers.list, a team without members", () => [query("teamMembers.list", { teamId: emptyTeamId }), as("orgAdmin")], 200, true],
    ["teamMembers.list as a batch of one", () => [batchOfOne("teamMembers.list", { teamId }), as("editor")], 200, true],
    ["teamMembers.list, an organization member outside the team: NOT_FOUND", () => [query("teamMembers.list", { teamId }), as("orgMember")], 404, false],
    ["teamMembers.list, another organization's admin: NOT_FOUND", () => [query("teamMembers.list", { teamId }), as("outsider")], 404, false],
    ["teamMembers.list, an unknown team: NOT_FOUND", () => [query("teamMembers.list", { teamId: "00000000-0000-4000-8000-000000000000" }), as("orgAdmin")], 404, false],
    ["teamMembers.list, a batch of one refused: NOT_FOUND", () => [batchOfOne("teamMembers.list", { teamId }), as("outsider")], 404, false],
    ["teamMembers.list, a malformed team id: BAD_REQUEST", () => [query("teamMembers.list", { teamId: "nope" }), as("teamAdmin")], 400, false],
    ["teamMembers.list, no input: BAD_REQUEST", () => [query("teamMembers.list"), as("teamAdmin")], 400, false],
    ...refusedByBoth,
  ];
  // Each as a client that takes no encoding and as a browser that takes gzip (a 500-team list is compressed).
  const asked = cases.flatMap(([name, request, status, direct]) =>
    ([{}, { "accept-encoding": "gzip" }] as Record<string, string>[]).map((encoding, index): Case => [
      `${name}${index ? ", gzip" : ""}`,
      () => {
        const [path, headers] = request();
        return [path, { ...headers, ...encoding }];
      },
      status,
      direct,
    ]),
  );

  it.each(asked)("%s: answered as the procedure answers it", async (_name, request, status, direct) => {
    const [path, headers] = request();
    const before = fastPathAnswers.directAnswer;
    const fast = await seen(withFastPath.base, path, { ...headers });
    expect(fastPathAnswers.directAnswer - before).toBe(direct ? 1 : 0);
    const adapter = await seen(adapterOnly.base, path, { ...headers });
    expect(fast.status).toBe(status);
    expect(withoutFraming(fast)).toEqual(withoutFraming(adapter));
  });

  it("a person without a stored app role is the procedure's to answer (it stores the role)", async () => {
    const path = query("teams.list", { organizationId });
    const noRole = await harness.database.db.user.findFirstOrThrow({ where: { appRole: null }, select: { id: true } });
    const before = fastPathAnswers.directAnswer;
    const fast = await seen(withFastPath.base, path, as("noRole"));
    expect(fastPathAnswers.directAnswer).toBe(before);
    expect(await harness.database.db.userRole.findUnique({ where: { userId: noRole.id } })).not.toBeNull();
    await harness.database.db.userRole.delete({ where: { userId: noRole.id } });
    const adapter = await seen(adapterOnly.base, path, as("noRole"));
    expect(fast.status).toBe(200);
    expect(withoutFraming(fast)).toEqual(withoutFraming(adapter));
  });

  it("the lists carry what the page reads: every awkward name as stored, dates, roles and the member flags", async () => {
    const teams = JSON.parse((await seen(withFastPath.base, query("teams.list", { organizationId }), as("orgAdmin"))).body).result.data;
    const names = teams.json.map((team: { name: string }) => team.name);
    for (const name of AWKWARD_NAMES) expect(names).toContain(name);
    const empty = teams.json.findIndex((team: { id: string }) => team.id === emptyTeamId);
    expect(teams.json[empty]).toMatchObject({ createdAt: "2024-02-29T23:59:59.001Z", updatedAt: "2026-01-01T00:00:00.000Z", memberCount: 0, myRole: null });
    expect(teams.meta.values[`${empty}.createdAt`]).toEqual(["Date"]);
    const core = teams.json.find((team: { id: string }) => team.id === teamId);
    expect(core).toMatchObject({ requiredApprovals: 2, requiredPassRate: 85, keepGenerationText: true, memberCount: 6 });
    const members = JSON.parse((await seen(withFastPath.base, query("teamMembers.list", { teamId }), as("viewer"))).body).result.data.json;
    expect(members[0]).toMatchObject({ role: "admin", fullName: 'Tess "Admin" \\ Lead', avatarUrl: "/avatars/tess.png", isLastAdmin: true, isSuperUser: false });
    expect(members.map((member: { avatarUrl: string | null }) => member.avatarUrl).filter(Boolean)).toEqual(["/avatars/tess.png"]);
    expect(members.filter((member: { isSuperUser: boolean }) => member.isSuperUser)).toHaveLength(1);
  });
});
