// `production` is what read keys serve, so it moves only under one rule, on every prompt and through
// every door: its mover holds prompt.label.protected, and when the team requires reviews only an
// approved change request moves it. A private prompt is no way around it: the attack below (an editor
// hides their prompt, moves `production` to an unreviewed version, shares the prompt again) is tried
// through a label move, an import and a bulk action, and a read key on /api/v1 still serves the
// reviewed text. Sharing a private prompt that carries an unreviewed `production` is refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIBRARY_MSG, PROMPT_MSG, REVIEW_MSG, type LibraryDocument } from "@promptly/shared";
import { appProcess, createAccount, createHarness, createOrganization, createTeam, outcome, type AppProcess, type Harness } from "@promptly/api/testing";
import { createApp } from "../../app.ts";
import { listenForTests, type TestServer } from "../../../test/test-server.ts";

let h: Harness;
let app: AppProcess;
let server: TestServer;
let organizationId: string;
let adminId: string;
let otherAdminId: string;
let editorId: string;
let superUserId: string;
type Api = Awaited<ReturnType<Harness["signedInClient"]>>["api"];
let admin: Api;
let otherAdmin: Api;
let editor: Api;
let superUser: Api;

beforeAll(async () => {
  h = await createHarness();
  app = appProcess(h);
  server = await listenForTests(createApp({ services: app.services }));
  adminId = (await createAccount(h, { fullName: "Ada Admin" })).id;
  otherAdminId = (await createAccount(h, { fullName: "Otto Admin" })).id;
  editorId = (await createAccount(h, { fullName: "Eve Editor" })).id;
  superUserId = (await createAccount(h, { fullName: "Sue Super", superUser: true })).id;
  organizationId = (await createOrganization(h, [adminId, otherAdminId, editorId].map((userId) => ({ userId, role: "member" as const })), "Acme")).id;
  admin = (await h.signedInClient(adminId)).api;
  otherAdmin = (await h.signedInClient(otherAdminId)).api;
  editor = (await h.signedInClient(editorId)).api;
  superUser = (await h.signedInClient(superUserId)).api;
});
afterAll(async () => {
  await server.close();
  await app.close();
  await h.close();
});

let teams = 0;

/**
 * A team requiring `requiredApprovals`, with the editor's team prompt: v1 in production (through an
 * approved change request when reviews are required, else moved by a team admin) and v2 that nobody
 * reviewed; and a read key of the team.
 */
async function world(requiredApprovals: number) {
  teams += 1;
  const teamId = (await createTeam(h, organizationId, [
    { userId: adminId, role: "admin" }, { userId: otherAdminId, role: "admin" }, { userId: editorId, role: "editor" },
  ], `Team ${teams}`)).id;
  await h.database.db.team.update({ where: { id: teamId }, data: { requiredApprovals } });
  const name = `support/reply-${teams}`;
  const prompt = await editor.prompts.create({ teamId, name, title: "Reply", visibility: "team", type: "text", template: "Reviewed text" });
  if (requiredApprovals > 0) {
    const { id } = await editor.changeRequests.create({ promptId: prompt.id, label: "production", version: 1, message: "Ship v1" });
    await admin.changeRequests.approve({ id, comment: "Fine" });
    if (requiredApprovals > 1) await otherAdmin.changeRequests.approve({ id, comment: "Fine" });
  } else {
    await admin.promptLabels.set({ promptId: prompt.id, label: "production", version: 1 });
  }
  await editor.promptVersions.create({ promptId: prompt.id, template: "UNREVIEWED text" });
  const key = (await admin.apiKeys.create({ teamId, name: `read ${teams}` })).key;
  return { teamId, promptId: prompt.id, name, key };
}

/** What a read key is served for `production` over REST. */
async function served(w: { name: string; key: string }) {
  const response = await fetch(`${server.base}/api/v1/prompts/${w.name}?label=production`, { headers: { authorization: `Bearer ${w.key}` } });
  const body = (await response.json()) as { version?: number; template?: string };
  return { status: response.status, version: body.version, template: body.template };
}

const production = async (promptId: string) =>
  (await h.database.db.promptLabel.findUnique({ where: { promptId_name: { promptId, name: "production" } }, select: { version: true } }))?.version ?? null;

/** The editor's document of the team's library, with `production` of the prompt pointed at `version`. */
async function documentWithProduction(teamId: string, name: string, version: number) {
  const document = JSON.parse((await editor.library.export({ teamId, format: "json" })).data) as LibraryDocument;
  const entry = document.prompts.find((prompt) => prompt.name === name)!;
  entry.labels = { ...entry.labels, production: version };
  return document;
}

const DOORS = {
  "a label move": async (w: { promptId: string }) => outcome(editor.promptLabels.set({ promptId: w.promptId, label: "production", version: 2 }), { reason: true }),
  "an import": async (w: { teamId: string; name: string }) =>
    (await editor.library.applyImport({ teamId: w.teamId, document: await documentWithProduction(w.teamId, w.name, 2) })).items.flatMap((item) => item.notes),
  "a bulk action": async (w: { promptId: string }) =>
    (await editor.prompts.bulk({ promptIds: [w.promptId], action: { kind: "setLabel", label: "production" } })).refused.map((refused) => refused.reason),
};

describe("an editor hides their prompt, moves production, shares it again", () => {
  const refusals = {
    reviewed: {
      "a label move": { code: "PRECONDITION_FAILED", message: REVIEW_MSG.reviewRequired, reason: "REVIEW_REQUIRED" },
      "an import": [LIBRARY_MSG.productionNeedsReview],
      "a bulk action": [REVIEW_MSG.reviewRequired],
    },
    unreviewed: {
      "a label move": { code: "FORBIDDEN", message: PROMPT_MSG.protectedLabel, reason: null },
      "an import": [LIBRARY_MSG.productionNotAllowed],
      "a bulk action": [PROMPT_MSG.protectedLabel],
    },
  } as const;

  for (const [door, move] of Object.entries(DOORS) as [keyof typeof DOORS, (typeof DOORS)[keyof typeof DOORS]][]) {
    for (const requiredApprovals of [1, 0]) {
      it(`through ${door}, with ${requiredApprovals} approvals required: refused at the move, the key serves the reviewed text`, async () => {
        const w = await world(requiredApprovals);
        expect(await served(w)).toEqual({ status: 200, version: 1, template: "Reviewed text" });
        await editor.prompts.update({ id: w.promptId, visibility: "private" });
        expect(await move(w)).toEqual(refusals[requiredApprovals > 0 ? "reviewed" : "unreviewed"][door]);
        expect(await production(w.promptId)).toBe(1);
        // Sharing it again carries the production the team accepted.
        await editor.prompts.update({ id: w.promptId, visibility: "team" });
        expect(await served(w)).toEqual({ status: 200, version: 1, template: "Reviewed text" });
      });
    }
  }

  it("a private prompt has no change request to move its production (nobody else could review it)", async () => {
    const w = await world(1);
    await editor.prompts.update({ id: w.promptId, visibility: "private" });
    expect(await outcome(editor.changeRequests.create({ promptId: w.promptId, label: "production", version: 2, message: "" }), { reason: true })).toEqual({
      code: "PRECONDITION_FAILED", message: REVIEW_MSG.privatePrompt, reason: "PRIVATE_PROMPT",
    });
  });
});

describe("sharing a private prompt that carries production", () => {
  /** The editor's prompt made private, then `production` pointed at v2 by the editor, as the exemption once allowed. */
  async function hiddenUnreviewed(requiredApprovals: number) {
    const w = await world(requiredApprovals);
    await editor.prompts.update({ id: w.promptId, visibility: "private" });
    await h.database.db.promptLabel.update({ where: { promptId_name: { promptId: w.promptId, name: "production" } }, data: { version: 2, movedById: editorId } });
    return w;
  }

  it("with reviews required, is refused while production points at a version no change request approved, super users included", async () => {
    const w = await hiddenUnreviewed(1);
    for (const [api, visibility] of [[editor, "team"], [editor, "organization"], [superUser, "team"]] as const) {
      expect(await outcome(api.prompts.update({ id: w.promptId, visibility }), { reason: true })).toEqual({
        code: "PRECONDITION_FAILED", message: REVIEW_MSG.shareUnreviewed, reason: "REVIEW_REQUIRED",
      });
    }
    expect(await h.database.db.prompt.findUniqueOrThrow({ where: { id: w.promptId }, select: { visibility: true } })).toEqual({ visibility: "private" });
    // Back on the approved version, it may be shared; other edits of the private prompt are as before.
    await editor.prompts.update({ id: w.promptId, title: "Still mine" });
    await h.database.db.promptLabel.update({ where: { promptId_name: { promptId: w.promptId, name: "production" } }, data: { version: 1 } });
    expect((await outcome(editor.prompts.update({ id: w.promptId, visibility: "team" }))).code).toBe("OK");
    expect(await served(w)).toEqual({ status: 200, version: 1, template: "Reviewed text" });
  });

  it("without reviews, needs the right to move production: the editor is refused, a super user shares it", async () => {
    const w = await hiddenUnreviewed(0);
    expect(await outcome(editor.prompts.update({ id: w.promptId, visibility: "team" }))).toEqual({ code: "FORBIDDEN", message: PROMPT_MSG.shareProduction });
    expect(await served(w)).toMatchObject({ status: 404 });
    expect((await outcome(superUser.prompts.update({ id: w.promptId, visibility: "team" }))).code).toBe("OK");
    expect(await served(w)).toEqual({ status: 200, version: 2, template: "UNREVIEWED text" });
  });

  it("a private prompt without production is shared by its author as before", async () => {
    const w = await world(1);
    await editor.prompts.update({ id: w.promptId, visibility: "private" });
    await h.database.db.promptLabel.deleteMany({ where: { promptId: w.promptId, name: "production" } });
    expect((await outcome(editor.prompts.update({ id: w.promptId, visibility: "organization" }))).code).toBe("OK");
  });
});
