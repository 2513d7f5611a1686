// Teams end to end: the team selector, the Create New Team dialog, the Teams page with its
// member table and invite panel, and accepting an invitation from the emailed link.
import { expect, test } from "@playwright/test";
import { MSG, TEAM_MSG } from "@promptly/shared";
import {
  addOrganizationMember, createAccount, createOrganizationWith, createTeamWith, PASSWORD, signIn, uniqueEmail, uniqueName,
} from "./support/accounts.ts";
import { consoleErrors } from "./support/console.ts";
import { E2E } from "./support/env.ts";
import {
  findTeam, inviteRow, invitesOf, memberRow, openTeamSelector, organizationRoleOf, teamCard, teamMembersOf, teamSelector, waitForMail, inviteLinkIn,
} from "./support/teams.ts";

const toast = (page: import("@playwright/test").Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });

test("an admin creates a team and invites a new address; the invitee accepts from the emailed link; the admin changes the role and removes them", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000); // sign-up and two browser contexts
  const errors = consoleErrors(page, { allow4xx: true });
  const admin = await createAccount({ role: "administrator", fullName: "Adam Administrator" });
  const organization = await createOrganizationWith([{ userId: admin.id, role: "member" }]);
  const teamName = uniqueName("Research");
  const inviteeEmail = uniqueEmail("invitee");
  await signIn(page, admin.email);
  await page.goto("/teams");

  // No teams yet: create the first one.
  await expect(page.getByRole("heading", { name: "Teams", level: 1 })).toBeVisible();
  await expect(page.getByTestId("teams-organization")).toHaveText(organization.name);
  await expect(page.getByText("No Teams Created Yet")).toBeVisible();
  await page.getByRole("button", { name: "Create First Team" }).click();
  const dialog = page.getByRole("dialog", { name: "Create New Team" });
  await expect(dialog.getByText("Creating team in organization")).toContainText(organization.name);
  await expect(dialog.getByTestId("create-team-context")).toContainText("Adam Administrator");
  await expect(dialog.getByTestId("create-team-context")).toContainText("Administrator");
  await expect(dialog.getByLabel("Team Name")).toHaveAttribute("placeholder", "Enter team name");
  const createButton = dialog.getByRole("button", { name: "Create Team" });
  await expect(createButton).toBeDisabled();
  await dialog.getByLabel("Team Name").fill("   ");
  await expect(createButton).toBeDisabled();
  await dialog.getByLabel("Team Name").fill(teamName);
  await createButton.click();
  await expect(toast(page, "Team created")).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(teamCard(page, teamName)).toContainText("1 member");
  await expect(teamCard(page, teamName)).toHaveAttribute("aria-pressed", "true");
  await expect(teamSelector(page)).toContainText(teamName);
  const team = await findTeam(organization.id, teamName);
  expect(await teamMembersOf(team!.id)).toEqual([[admin.email, "admin"]]);
  // The only admin is locked.
  const adminRow = memberRow(page, admin.email);
  await expect(adminRow).toContainText("Last admin");
  await expect(adminRow.getByRole("combobox", { name: /Role of/ })).toBeDisabled();

  // Invite an address that has no account.
  await page.getByRole("button", { name: "Invite Member" }).click();
  const panel = page.getByTestId("invite-panel");
  await expect(panel.getByText("Invite a new team member", { exact: true }).first()).toBeVisible();
  await expect(panel).toContainText(TEAM_MSG.inviteHelp);
  const addButton = panel.getByRole("button", { name: "Add" });
  await expect(addButton).toBeDisabled();
  await panel.getByLabel("Email").fill(inviteeEmail);
  await panel.getByRole("combobox", { name: "Role" }).click();
  await page.getByRole("option", { name: "Editor" }).click();
  await addButton.click();
  await expect(toast(page, "Invitation sent")).toBeVisible();
  await expect(inviteRow(page, inviteeEmail)).toContainText("Editor");
  expect(await invitesOf(team!.id)).toEqual([{ email: inviteeEmail, role: "editor", status: "pending" }]);

  // The email arrives with the accept link.
  const mail = await waitForMail(inviteeEmail, new RegExp(`invited to join ${teamName}`));
  expect(mail.text).toContain(`${E2E.appUrl}/auth/accept-invite?id=`);
  const link = `${E2E.appUrl}${inviteLinkIn(mail)}`;

  // The invitee opens it signed out: team, organization and role, and the way to sign in or up.
  const inviteeContext = await browser.newContext();
  const invitee = await inviteeContext.newPage();
  const inviteeErrors = consoleErrors(invitee, { allow4xx: true });
  await invitee.goto(link);
  const card = invitee.getByTestId("accept-invite");
  await expect(card.getByTestId("invite-team")).toHaveText(teamName);
  await expect(card.getByTestId("invite-organization")).toHaveText(organization.name);
  await expect(card.getByTestId("invite-role")).toHaveText("Editor");
  const back = encodeURIComponent(new URL(link).pathname + new URL(link).search);
  await expect(card.getByRole("link", { name: "Sign In" })).toHaveAttribute("href", `/auth/signin?redirect=${back}`);
  await expect(card.getByRole("link", { name: "Sign Up" })).toHaveAttribute("href", `/auth/signup${new URL(link).search.replace("?id=", "?invite=")}`);

  // They sign up from the link in one step. The invited address is filled in, the link
  // counts as its confirmation (no confirmation mail), and the invitation is accepted at once.
  await card.getByRole("link", { name: "Sign Up" }).click();
  await expect(invitee.getByLabel("Email")).toHaveValue(inviteeEmail);
  await invitee.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await invitee.getByLabel("Confirm Password").fill(PASSWORD);
  await invitee.getByRole("button", { name: "Sign Up and Join" }).click();
  await expect(toast(invitee, "Invitation accepted")).toBeVisible();
  await invitee.getByRole("button", { name: "User menu" }).click();
  await expect(invitee.getByRole("menu")).toContainText(organization.name);
  await invitee.keyboard.press("Escape");
  await expect(invitee).toHaveURL(`${E2E.appUrl}/`);
  expect(await organizationRoleOf(organization.id, inviteeEmail)).toBe("member");
  expect(await teamMembersOf(team!.id)).toEqual([[admin.email, "admin"], [inviteeEmail, "editor"]].sort((a, b) => a[0]!.localeCompare(b[0]!)));
  await expect(invitee.getByTestId("team-selector")).toContainText(teamName);
  expect(inviteeErrors).toEqual([]);
  await inviteeContext.close();

  // The admin sees them in the table with the invited role; the invitation is no longer pending.
  await page.getByRole("button", { name: "Refresh teams" }).click();
  const row = memberRow(page, inviteeEmail);
  // No name given at sign-up: named by the address's local part, never 'Unnamed User'.
  const shownName = inviteeEmail.split("@")[0]!;
  await expect(row).toContainText(shownName);
  await expect(row).not.toContainText("Unnamed User");
  await expect(row.getByRole("combobox", { name: `Role of ${shownName}` })).toHaveText("Editor");
  await expect(inviteRow(page, inviteeEmail)).toHaveCount(0);
  await expect(page.getByText("No pending invitations.")).toBeVisible();
  await expect(teamCard(page, teamName)).toContainText("2 members");

  // Change the role.
  await row.getByRole("combobox", { name: `Role of ${shownName}` }).click();
  await page.getByRole("option", { name: "Viewer" }).click();
  await expect(toast(page, "Role updated")).toBeVisible();
  await expect(row.getByRole("combobox", { name: `Role of ${shownName}` })).toHaveText("Viewer");
  await expect.poll(() => teamMembersOf(team!.id)).toContainEqual([inviteeEmail, "viewer"]);

  // Remove them.
  await row.getByRole("button", { name: `Actions for ${shownName}` }).click();
  await page.getByRole("menuitem", { name: "Remove" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Remove Member" }).click();
  await expect(toast(page, "Member removed")).toBeVisible();
  await expect(memberRow(page, inviteeEmail)).toHaveCount(0);
  expect(await teamMembersOf(team!.id)).toEqual([[admin.email, "admin"]]);
  await expect(teamCard(page, teamName)).toContainText("1 member");
  expect(errors).toEqual([]);
});

test("inviting a colleague of the organization adds them at once, with no pending invite", async ({ page }) => {
  const errors = consoleErrors(page, { allow4xx: true });
  const orgAdmin = await createAccount({ fullName: "Olga Orgadmin" });
  const existing = await createAccount({ fullName: "Eric Existing" });
  const organization = await createOrganizationWith([
    { userId: orgAdmin.id, role: "admin" },
    { userId: existing.id, role: "member" },
  ]);
  const team = await createTeamWith(organization.id, [{ userId: orgAdmin.id, role: "admin" }]);
  await signIn(page, orgAdmin.email);
  await page.goto("/teams");
  await teamCard(page, team.name).click();

  await page.getByRole("button", { name: "Invite Member" }).click();
  const panel = page.getByTestId("invite-panel");
  await panel.getByLabel("Email").fill(existing.email.toUpperCase());
  await panel.getByRole("button", { name: "Add" }).click();
  await expect(toast(page, "Member added")).toBeVisible();
  const row = memberRow(page, existing.email);
  await expect(row).toContainText("Eric Existing");
  await expect(row.getByRole("combobox", { name: "Role of Eric Existing" })).toHaveText("Viewer");
  await expect(page.getByText("No pending invitations.")).toBeVisible();
  expect(await invitesOf(team.id)).toEqual([]);
  expect(await organizationRoleOf(organization.id, existing.email)).toBe("member");

  // Adding the same person again is refused and changes nothing.
  await panel.getByLabel("Email").fill(existing.email);
  await panel.getByRole("button", { name: "Add" }).click();
  // Told once, under the email (' with the reason), not also in a toast.
  await expect(panel.getByRole("alert").filter({ hasText: `${TEAM_MSG.failedToAddTeamMember}${TEAM_MSG.alreadyTeamMember}` })).toBeVisible();
  await expect(toast(page, TEAM_MSG.alreadyTeamMember)).toHaveCount(0);
  expect(await teamMembersOf(team.id)).toHaveLength(2);

  // An account outside the organization is invited, not added: it joins by accepting.
  const stranger = await createAccount({ fullName: "Sam Stranger" });
  await panel.getByLabel("Email").fill(stranger.email);
  await panel.getByRole("button", { name: "Add" }).click();
  await expect(toast(page, "Invitation sent")).toBeVisible();
  await expect(inviteRow(page, stranger.email)).toBeVisible();
  await expect(memberRow(page, stranger.email)).toHaveCount(0);
  expect(await organizationRoleOf(organization.id, stranger.email)).toBeNull();

  // Cancel closes the panel.
  await panel.getByRole("button", { name: "Cancel" }).click();
  await expect(panel).toBeHidden();
  expect(errors).toEqual([]);
});

test("an invited address that has joined the organization by now is added at once, from the panel or from Resend, and its pending row goes", async ({ page }) => {
  const errors = consoleErrors(page, { allow4xx: true });
  const orgAdmin = await createAccount({ fullName: "Olga Orgadmin" });
  const organization = await createOrganizationWith([{ userId: orgAdmin.id, role: "admin" }]);
  const team = await createTeamWith(organization.id, [{ userId: orgAdmin.id, role: "admin" }]);
  const [early, late] = [uniqueEmail("early"), uniqueEmail("late")];
  await signIn(page, orgAdmin.email);
  await page.goto("/teams");
  await teamCard(page, team.name).click();
  await page.getByRole("button", { name: "Invite Member" }).click();
  const panel = page.getByTestId("invite-panel");
  for (const email of [early, late]) {
    await panel.getByLabel("Email").fill(email);
    await panel.getByRole("button", { name: "Add" }).click();
    await expect(inviteRow(page, email)).toBeVisible();
  }

  // Both join the organization another way without accepting. Inviting the first again from the panel adds them.
  for (const [email, fullName] of [[early, "Early Bird"], [late, "Late Comer"]] as const) {
    const account = await createAccount({ email, fullName });
    await addOrganizationMember(organization.id, account.id);
  }
  await panel.getByLabel("Email").fill(early);
  await panel.getByRole("button", { name: "Add" }).click();
  await expect(toast(page, "Member added")).toBeVisible();
  await expect(memberRow(page, early)).toContainText("Early Bird");
  await expect(inviteRow(page, early)).toHaveCount(0);

  // Resend on the second one's row also adds them, and says so.
  await inviteRow(page, late).getByRole("button", { name: /Resend/ }).click();
  await expect(toast(page, `${late} has been added to ${team.name}.`)).toBeVisible();
  await expect(memberRow(page, late)).toContainText("Late Comer");
  await expect(page.getByText("No pending invitations.")).toBeVisible();
  await expect(teamCard(page, team.name)).toContainText("3 members");
  expect(await invitesOf(team.id)).toEqual([]);
  expect(errors).toEqual([]);
});

test("the team selector lists, searches and switches teams; 'Create New Team' and 'Manage Teams' follow the rules", async ({ page }) => {
  const errors = consoleErrors(page, { allow4xx: true });
  const lead = await createAccount({ role: "team_lead" });
  const organization = await createOrganizationWith([{ userId: lead.id, role: "admin" }]);
  const alpha = await createTeamWith(organization.id, [{ userId: lead.id, role: "admin" }], uniqueName("Alpha"));
  const beta = await createTeamWith(organization.id, [{ userId: lead.id, role: "viewer" }], uniqueName("Beta"));
  await signIn(page, lead.email);
  await page.goto("/");
  await expect(teamSelector(page)).toContainText(alpha.name);

  let popover = await openTeamSelector(page);
  const box = await popover.boundingBox();
  expect(box!.width).toBeGreaterThan(200);
  expect(box!.width).toBeLessThan(216);
  await expect(popover.locator("[cmdk-list]")).toHaveCSS("max-height", "300px");
  await popover.getByPlaceholder("Search teams...").fill("zzz no such team");
  await expect(popover.getByText("No team found.")).toBeVisible();
  await popover.getByPlaceholder("Search teams...").fill(beta.name.slice(0, 6));
  await popover.getByRole("option", { name: beta.name }).click();
  await expect(teamSelector(page)).toContainText(beta.name);

  // An organization admin may create teams, from the selector too.
  popover = await openTeamSelector(page);
  await popover.getByRole("option", { name: "Create New Team" }).click();
  const dialog = page.getByRole("dialog", { name: "Create New Team" });
  const name = uniqueName("Gamma");
  await dialog.getByLabel("Team Name").fill(name);
  await dialog.getByRole("button", { name: "Create Team" }).click();
  await expect(dialog).toBeHidden();
  await expect(teamSelector(page)).toContainText(name);

  popover = await openTeamSelector(page);
  await popover.getByRole("option", { name: "Manage Teams" }).click();
  await expect(page).toHaveURL(`${E2E.appUrl}/teams`);
  await expect(page.getByRole("heading", { name: "Teams", level: 1 })).toBeVisible();
  expect(errors).toEqual([]);
});

test("a plain member sees neither 'Create New Team' nor 'Manage Teams'; someone signed in with another address cannot accept", async ({ page }) => {
  const owner = await createAccount();
  const member = await createAccount();
  const organization = await createOrganizationWith([
    { userId: owner.id, role: "admin" },
    { userId: member.id, role: "member" },
  ]);
  const team = await createTeamWith(organization.id, [
    { userId: owner.id, role: "admin" },
    { userId: member.id, role: "viewer" },
  ]);
  await signIn(page, member.email);
  await page.goto("/");
  const popover = await openTeamSelector(page);
  await expect(popover.getByRole("option", { name: team.name })).toBeVisible();
  await expect(popover.getByRole("option", { name: "Create New Team" })).toHaveCount(0);
  await expect(popover.getByRole("option", { name: "Manage Teams" })).toHaveCount(0);
  await page.keyboard.press("Escape");

  // An invitation for someone else, opened by this member.
  const inviteeEmail = uniqueEmail("someone-else");
  const ownerContext = await page.context().browser()!.newContext();
  const ownerPage = await ownerContext.newPage();
  await signIn(ownerPage, owner.email);
  const response = await ownerPage.request.post(`${E2E.appUrl}/trpc/invites.create`, {
    data: { json: { teamId: team.id, email: inviteeEmail, role: "viewer" } },
    headers: { "content-type": "application/json", origin: E2E.appUrl },
  });
  const inviteId = (await response.json()).result.data.json.invite.id as string;
  await ownerContext.close();

  await page.goto(`/auth/accept-invite?id=${inviteId}`);
  await expect(page.getByTestId("accept-invite")).toContainText(MSG.inviteWrongEmail);
  await expect(page.getByRole("button", { name: "Accept Invitation" })).toHaveCount(0);
  await expect(page.getByTestId("accept-invite")).toContainText(inviteeEmail);
  expect(await invitesOf(team.id)).toEqual([{ email: inviteeEmail, role: "viewer", status: "pending" }]);
});
