// Fixtures for the teams, team-members and invites integration tests: accounts written straight into
// the test database with a real session cookie (the sign-in flow has tests of its own), and an
// organization with one person of every caller kind.
import { CALLER_KINDS, createAccount, createOrganization, createTeam, outcome as callOutcome, type CallerKind, type Harness, type TestClient } from "./harness.ts";

/** An account with a signed-in client of its own. */
export interface SignedInAccount {
  id: string;
  email: string;
  api: TestClient["api"];
}

export { uniqueEmail } from "./harness.ts";

export async function createSignedInAccount(
  h: Harness,
  options: { email?: string; role?: "administrator" | "team_lead" | "user"; superUser?: boolean; fullName?: string | null } = {},
): Promise<SignedInAccount> {
  const account = await createAccount(h, options);
  return { ...account, api: (await h.signedInClient(account.id)).api };
}

/** Moves the clock; sessions are marked active "now" so they do not end by the idle limit. */
export async function advanceClock(h: Harness, ms: number) {
  h.clock.advance(ms);
  await h.database.db.session.updateMany({ data: { lastActiveAt: h.clock.now() } });
}

export { CALLER_KINDS, createTeam, type CallerKind };

/** What each caller kind gets ("OK" or an error code) from a procedure at a team level. */
export type Expected = Record<CallerKind, string>;
const viewerLevel: Expected = {
  anonymous: "UNAUTHORIZED",
  outsider: "NOT_FOUND",
  orgMember: "NOT_FOUND",
  viewer: "OK",
  editor: "OK",
  admin: "OK",
  orgAdmin: "OK",
  superUser: "OK",
};
export const EXPECTED_AT_LEVEL = {
  viewer: viewerLevel,
  admin: { ...viewerLevel, viewer: "FORBIDDEN", editor: "FORBIDDEN" } as Expected,
};

/**
 * One organization and one person of each caller kind: an outsider (another organization's admin
 * and an app administrator, so app role alone grants nothing), a plain member of the organization,
 * the team's viewer, editor and admin, the organization's admin (in no team) and a super user (in
 * nothing). `team()` makes a fresh team with the viewer, editor and admin, so destructive calls
 * never share state.
 */
export async function createWorld(h: Harness) {
  const anonymous = h.client().api;
  const outsider = await createSignedInAccount(h, { role: "administrator", fullName: "Otto Outsider" });
  const orgMember = await createSignedInAccount(h, { fullName: "Mia Member" });
  const viewer = await createSignedInAccount(h, { fullName: "Vera Viewer" });
  const editor = await createSignedInAccount(h, { fullName: "Ed Editor" });
  const admin = await createSignedInAccount(h, { fullName: "Ada Admin" });
  const orgAdmin = await createSignedInAccount(h, { fullName: "Olga Orgadmin" });
  const superUser = await createSignedInAccount(h, { superUser: true, fullName: "Sue Super" });
  const organization = await createOrganization(h, [
    { userId: orgMember.id, role: "member" },
    { userId: viewer.id, role: "member" },
    { userId: editor.id, role: "member" },
    { userId: admin.id, role: "member" },
    { userId: orgAdmin.id, role: "admin" },
  ], "Acme");
  await createOrganization(h, [{ userId: outsider.id, role: "admin" }], "Elsewhere");
  const accounts = { outsider, orgMember, viewer, editor, admin, orgAdmin, superUser };
  const callers: Record<CallerKind, SignedInAccount["api"]> = {
    anonymous,
    ...(Object.fromEntries(Object.entries(accounts).map(([kind, account]) => [kind, account.api])) as Record<
      Exclude<CallerKind, "anonymous">,
      SignedInAccount["api"]
    >),
  };
  const team = (name = "Core") =>
    createTeam(
      h,
      organization.id,
      [
        { userId: admin.id, role: "admin" },
        { userId: editor.id, role: "editor" },
        { userId: viewer.id, role: "viewer" },
      ],
      name,
    );
  return { organization, accounts, callers, team };
}

/** The tRPC error code of a failed call, or "OK". */
export async function outcome(call: Promise<unknown>): Promise<string> {
  return (await callOutcome(call)).code;
}

/** `{ code, message }` of a call that must fail, the message as a client sees it. */
export async function failure(call: Promise<unknown>): Promise<{ code: string; message: string }> {
  const result = await callOutcome(call);
  if (result.code === "OK") throw new Error("expected the call to fail");
  return { code: result.code, message: result.message ?? "" };
}
