// Organizations end to end: the switcher, the Create Organization dialog with the spec's
// messages, the organizations list and the members page, and who may see them.
import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { MSG } from "@promptly/shared";
import { createAccount, createOrganizationWith, signIn, withDb } from "./support/accounts.ts";
import { consoleErrors } from "./support/console.ts";
import { waitForMail } from "./support/teams.ts";
import {
  findOrganization,
  memberRow,
  membershipsOf,
  openSwitcher,
  organizationRow,
  switcher,
  switchTo,
  uniqueOrganization,
} from "./support/organizations.ts";

/** Fault injection: organizations.list answers as a failing server would (a real 500 of tRPC's shape). */
function failOrganizationList(page: Page) {
  return page.route(/\/trpc\/[^?]*organizations\.list/, (route) =>
    route.fulfill({
      status: 500,
      contentType: "application/json",
      body: JSON.stringify([{ error: { json: { message: "Internal server error", code: -32603, data: { code: "INTERNAL_SERVER_ERROR", httpStatus: 500 } } } }]),
    }),
  );
}

test.describe("a super user", () => {
  test("creates an organization, switches to it, manages its members, renames and deletes it", async ({ page }) => {
    test.setTimeout(120_000); // the whole journey in one test: about 15 s on an idle machine
    const errors = consoleErrors(page, { allow4xx: true });
    const superUser = await createAccount({ superUser: true, fullName: "Sam Super" });
    const colleague = await createAccount({ fullName: "Colin Colleague" });
    const other = await createOrganizationWith([{ userId: superUser.id, role: "admin" }], uniqueOrganization("Other Org").name);
    const organization = uniqueOrganization();
    await signIn(page, superUser.email);
    await page.goto("/");

    // Create it from the switcher.
    let popover = await openSwitcher(page);
    await popover.getByRole("option", { name: "Create New Organization" }).click();
    const dialog = page.getByRole("dialog", { name: "Create Organization" });
    await dialog.getByLabel("Organization Name").fill(organization.name);
    await expect(dialog.getByLabel("Organization Slug")).toHaveAttribute("placeholder", "my-organization");
    await dialog.getByLabel("Organization Slug").fill(organization.slug);
    await dialog.getByRole("button", { name: "Create Organization" }).click();
    const toast = page.locator("[data-sonner-toast]").filter({ hasText: "Organization created" });
    await expect(toast).toContainText(`The organization "${organization.name}" has been created successfully.`);
    await expect(dialog).toBeHidden();
    const created = await findOrganization(organization.slug);
    expect(created).toMatchObject({ name: organization.name, slug: organization.slug });
    expect(await membershipsOf(created!.id)).toEqual([{ email: superUser.email, role: "admin" }]);
    // The new organization became the active one.
    await expect(switcher(page)).toContainText(organization.name);

    // Switch away and back through the searchable list; the choice is remembered.
    await switchTo(page, other.name);
    popover = await openSwitcher(page);
    await popover.getByPlaceholder("Search organizations...").fill("no such organization zzz");
    await expect(popover.getByText("No organization found.")).toBeVisible();
    await page.keyboard.press("Escape");
    await switchTo(page, organization.name);
    popover = await openSwitcher(page);
    await expect(popover.getByRole("option", { name: organization.name }).locator("svg")).toHaveCSS("opacity", "1");
    await expect(popover.getByRole("option", { name: other.name }).locator("svg")).toHaveCSS("opacity", "0");
    await page.keyboard.press("Escape");
    await page.reload();
    await expect(switcher(page)).toContainText(organization.name);
    expect(await page.evaluate(() => localStorage.getItem("promptly.activeOrganizationId"))).toBe(created!.id);

    // Manage Organizations leads to the list with name, slug, member count and date.
    popover = await openSwitcher(page);
    await popover.getByRole("option", { name: "Manage Organizations" }).click();
    await expect(page).toHaveURL(/\/organizations$/);
    const row = organizationRow(page, organization.name);
    await expect(row).toContainText(organization.slug);
    await expect(row).toContainText("1 member");
    await row.getByRole("link", { name: `Members of ${organization.name}` }).click();
    await expect(page).toHaveURL(new RegExp(`/organizations/${created!.id}/members$`));
    await expect(page.getByRole("heading", { name: organization.name })).toBeVisible();

    // The creator is the last admin: role and removal are locked.
    const me = memberRow(page, superUser.email);
    await expect(me).toContainText("Last admin");
    await expect(me.getByRole("combobox", { name: "Role of Sam Super" })).toBeDisabled();

    // Add a member by email: they are invited (nobody joins without consent) and accept the emailed link.
    const addForm = page.getByRole("form", { name: "Add a member" });
    await addForm.getByLabel("Email").fill(colleague.email);
    await addForm.getByRole("button", { name: "Add" }).click();
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Invitation sent" })).toBeVisible();
    await expect(page.getByTestId("organization-invite-row").filter({ hasText: colleague.email })).toContainText("Member");
    expect(await membershipsOf(created!.id)).not.toContainEqual({ email: colleague.email, role: "member" });
    const invitation = await waitForMail(colleague.email, new RegExp(`invited to join ${organization.name}`));
    const colleagueContext = await page.context().browser()!.newContext();
    const colleaguePage = await colleagueContext.newPage();
    await signIn(colleaguePage, colleague.email);
    await colleaguePage.goto(invitation.text.match(/https?:\/\/\S+\/auth\/accept-invite\?id=[0-9a-f-]+/)![0]);
    await expect(colleaguePage.getByTestId("accept-invite")).toContainText(`You have been invited to join the organization ${organization.name} as Member`);
    await colleaguePage.getByRole("button", { name: "Accept Invitation" }).click();
    await expect(colleaguePage.locator("[data-sonner-toast]").filter({ hasText: "Invitation accepted" })).toBeVisible();
    await colleagueContext.close();
    await page.reload();
    await expect(page.getByText("No pending invitations.")).toBeVisible();
    const colleagueRow = memberRow(page, colleague.email);
    await expect(colleagueRow).toContainText("Colin Colleague");
    expect(await membershipsOf(created!.id)).toContainEqual({ email: colleague.email, role: "member" });

    // Promote: two admins, nobody is the last one.
    await colleagueRow.getByRole("combobox", { name: "Role of Colin Colleague" }).click();
    await page.getByRole("option", { name: "Admin" }).click();
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Role updated" })).toBeVisible();
    await expect(me).not.toContainText("Last admin");
    await expect(me.getByRole("combobox", { name: "Role of Sam Super" })).toBeEnabled();
    expect(await membershipsOf(created!.id)).toContainEqual({ email: colleague.email, role: "admin" });

    // Demote again: the super user is the last admin once more.
    await colleagueRow.getByRole("combobox", { name: "Role of Colin Colleague" }).click();
    await page.getByRole("option", { name: "Member" }).click();
    await expect(me).toContainText("Last admin");
    expect(await membershipsOf(created!.id)).toContainEqual({ email: colleague.email, role: "member" });
    await me.getByRole("button", { name: "Actions for Sam Super" }).click();
    await expect(page.getByRole("menuitem", { name: /Remove/ })).toHaveAttribute("aria-disabled", "true");
    await page.keyboard.press("Escape");

    // Remove the member, after a confirmation naming them.
    await colleagueRow.getByRole("button", { name: "Actions for Colin Colleague" }).click();
    await page.getByRole("menuitem", { name: "Remove" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Remove Colin Colleague?" });
    await confirm.getByRole("button", { name: "Remove Member" }).click();
    await expect(colleagueRow).toHaveCount(0);
    expect(await membershipsOf(created!.id)).toEqual([{ email: superUser.email, role: "admin" }]);

    // Rename, then delete from the list.
    const renamed = `${organization.name} Renamed`;
    await page.getByRole("link", { name: "Back to Organizations" }).click();
    await organizationRow(page, organization.name).getByRole("button", { name: `Actions for ${organization.name}` }).click();
    await page.getByRole("menuitem", { name: "Rename" }).click();
    const edit = page.getByRole("dialog", { name: "Edit Organization" });
    await edit.getByLabel("Organization Name").fill(renamed);
    await edit.getByRole("button", { name: "Save Changes" }).click();
    await expect(edit).toBeHidden();
    await expect(organizationRow(page, renamed)).toBeVisible();
    expect((await findOrganization(organization.slug))?.name).toBe(renamed);

    await organizationRow(page, renamed).getByRole("button", { name: `Actions for ${renamed}` }).click();
    await page.getByRole("menuitem", { name: "Delete" }).click();
    const confirmDelete = page.getByRole("alertdialog", { name: `Delete ${renamed}?` });
    await expect(confirmDelete).toContainText(`This permanently deletes the organization "${renamed}"`);
    await confirmDelete.getByRole("button", { name: "Delete Organization" }).click();
    await expect(confirmDelete).toBeHidden();
    await expect(organizationRow(page, renamed)).toHaveCount(0);
    expect(await findOrganization(organization.slug)).toBeNull();
    expect(await membershipsOf(created!.id)).toEqual([]);

    expect(errors).toEqual([]);
  });

  test("the Create Organization dialog shows the validation messages", async ({ page }) => {
    const errors = consoleErrors(page, { allow4xx: true });
    const superUser = await createAccount({ superUser: true });
    const taken = uniqueOrganization("Taken");
    await createOrganizationWith([], taken.name, taken.slug);
    await signIn(page, superUser.email);
    await page.goto("/organizations");
    await page.getByRole("button", { name: "New Organization" }).click();
    const dialog = page.getByRole("dialog", { name: "Create Organization" });
    const name = dialog.getByLabel("Organization Name");
    const slug = dialog.getByLabel("Organization Slug");
    const submit = dialog.getByRole("button", { name: "Create Organization" });

    const cases: [string, string, string][] = [
      ["ab", "", MSG.organizationNameMin],
      ["n".repeat(51), "", MSG.organizationNameMax],
      ["Valid Name", "ab", MSG.organizationSlugMin],
      ["Valid Name", "s".repeat(51), MSG.organizationSlugMax],
      ["Valid Name", "Not Valid", MSG.organizationSlugPattern],
    ];
    for (const [nameValue, slugValue, message] of cases) {
      await name.fill(nameValue);
      await slug.fill(slugValue);
      await submit.click();
      await expect(dialog.getByRole("alert").filter({ hasText: message })).toBeVisible();
    }
    // Nothing reached the server: no organization was created.
    expect(await findOrganization("Valid Name")).toBeNull();

    // A taken slug: the server's CONFLICT shows once, on the field, not also in a toast.
    await name.fill("Wants That Slug");
    await slug.fill(taken.slug);
    await submit.click();
    await expect(dialog.getByRole("alert").filter({ hasText: MSG.organizationSlugTaken })).toBeVisible();
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: MSG.organizationSlugTaken })).toHaveCount(0);
    await expect(submit).toHaveText("Create Organization");
    expect(await findOrganization("Wants That Slug")).toBeNull();
    expect(errors).toEqual([]);
  });

  test("sees 'Error loading organizations' when the list cannot be loaded: on the page where it shows organizations, else as a toast", async ({ page }) => {
    const superUser = await createAccount({ superUser: true });
    await signIn(page, superUser.email);
    await failOrganizationList(page);
    await page.goto("/");
    const onPage = page.getByRole("main").getByRole("alert").filter({ hasText: "Error loading organizations" });
    await expect(onPage).toContainText("Could not load your organizations. Please try again later.", { timeout: 30_000 });
    await expect(onPage.getByRole("button", { name: "Try again" })).toBeVisible();
    // A failed list is not an empty one.
    await expect(switcher(page)).toContainText("Organizations unavailable");
    // One message: the page says it, no toast repeats it.
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Error loading organizations" })).toHaveCount(0);
    await expect(page.getByRole("main").getByRole("alert")).toHaveCount(1);
  });

  test("a plain user, whose header has no switcher, also sees 'Error loading organizations' on a page that does not show it", async ({ page }) => {
    const person = await createAccount();
    await signIn(page, person.email);
    await failOrganizationList(page);
    await page.goto(`/prompts/${randomUUID()}`);
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Error loading organizations" })).toContainText(
      "Could not load your organizations. Please try again later.",
      { timeout: 30_000 },
    );
    await expect(switcher(page)).toHaveCount(0);
  });
});

test.describe("other people", () => {
  test("a plain user in two organizations can switch but not create or manage, and /organizations sends them to the dashboard saying why", async ({ page }) => {
    const person = await createAccount();
    const first = await createOrganizationWith([{ userId: person.id, role: "member" }], uniqueOrganization("Alpha").name);
    const second = await createOrganizationWith([{ userId: person.id, role: "member" }], uniqueOrganization("Beta").name);
    await signIn(page, person.email);
    await page.goto("/");
    const popover = await openSwitcher(page);
    await expect(popover.getByRole("option", { name: first.name })).toBeVisible();
    await expect(popover.getByRole("option", { name: "Create New Organization" })).toHaveCount(0);
    await expect(popover.getByRole("option", { name: "Manage Organizations" })).toHaveCount(0);
    await page.keyboard.press("Escape");
    await switchTo(page, second.name);

    for (const path of ["/organizations", `/organizations/${first.id}/members`]) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/$/);
      const denied = page.locator("[data-sonner-toast]").filter({ hasText: "Access Denied" });
      await expect(denied).toContainText("You don't have permission to access this page.");
      await expect(denied).toContainText("Organizations are managed by super users only.");
    }
  });

  test("the members page is for super users only, as /organizations is: an organization admin is sent to the dashboard and told so", async ({ page }) => {
    // The API lets organization admins manage their members (integration tests); the screen is the spec's.
    const admin = await createAccount({ fullName: "Olga Admin" });
    const mine = await createOrganizationWith([{ userId: admin.id, role: "admin" }]);
    await signIn(page, admin.email);
    await page.goto(`/organizations/${mine.id}/members`);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Access Denied" })).toContainText("Organizations are managed by super users only.");
    await expect(page.getByRole("heading", { name: mine.name })).toHaveCount(0);
  });

  test("the Create Organization dialog tells a non-super user why they cannot create", async ({ page }) => {
    // Reached only by a stale screen (the switcher offers it to super users): a user demoted meanwhile.
    const person = await createAccount({ superUser: true });
    await signIn(page, person.email);
    await page.goto("/organizations");
    await page.getByRole("button", { name: "New Organization" }).click();
    const dialog = page.getByRole("dialog", { name: "Create Organization" });
    await dialog.getByLabel("Organization Name").fill("Too Late Org");
    await withDb((client) => client.query(`UPDATE profiles SET super_user = false WHERE user_id = $1`, [person.id]));
    await dialog.getByRole("button", { name: "Create Organization" }).click();
    const toast = page.locator("[data-sonner-toast]").filter({ hasText: "Permission denied" });
    await expect(toast).toContainText(MSG.onlySuperUsersCreateOrganizations);
    // Who we are is reloaded: no longer a super user, they leave the super users' page, told why.
    await expect(page).toHaveURL(/\/$/);
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Access Denied" })).toContainText("Organizations are managed by super users only.");
    await expect(dialog).toHaveCount(0);
    expect(await findOrganization("Too Late Org")).toBeNull();
  });
});
