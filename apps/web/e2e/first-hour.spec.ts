// A newcomer's first hour: signing in with the keyboard alone, a server that cannot be reached on the
// first load, someone in no organization told how to get into one, saves that keep keyboard focus on
// the control that saved (a disabled one says why), a test case's variables in the template's order,
// and a notification read by opening where it leads.
import { expect, test } from "@playwright/test";
import { PASSWORD, callMutation, createAccount, createOrganizationWith, createTeamWith, signIn, withDb } from "./support/accounts.ts";
import { activateTeam } from "./support/organizations.ts";
import { createPromptWith } from "./support/prompts.ts";
import { recordSecret } from "./support/secrets.ts";

test("sign-in with the keyboard alone: type the email, Tab, type the password, Enter reaches the dashboard", async ({ page }) => {
  const person = await createAccount({ fullName: "Key Board" });
  const organization = await createOrganizationWith([{ userId: person.id, role: "member" }]);
  await createTeamWith(organization.id, [{ userId: person.id, role: "editor" }]);
  recordSecret("password", PASSWORD);
  await page.goto("/auth/signin");
  const email = page.getByLabel("Email");
  const password = page.getByLabel("Password");
  const forgot = page.getByRole("link", { name: "Forgot password?" });
  // 'Forgot password?' keeps its place beside the password's label, above the field.
  const [forgotBox, passwordBox] = [await forgot.boundingBox(), await password.boundingBox()];
  expect(forgotBox!.y + forgotBox!.height).toBeLessThanOrEqual(passwordBox!.y);

  await email.focus();
  await page.keyboard.type(person.email);
  await page.keyboard.press("Tab");
  await expect(password).toBeFocused();
  await page.keyboard.type(PASSWORD);
  // After the password, focus goes on to the link.
  await page.keyboard.press("Tab");
  await expect(forgot).toBeFocused();
  await page.keyboard.press("Shift+Tab");
  await expect(password).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
});

test("a fresh load with every API request failing says within 3 s that Promptly cannot reach its server, retrying, and Try again brings the page", async ({ page }) => {
  const person = await createAccount({ fullName: "Off Line" });
  const organization = await createOrganizationWith([{ userId: person.id, role: "member" }]);
  await createTeamWith(organization.id, [{ userId: person.id, role: "editor" }]);
  await signIn(page, person.email);
  // Unreachable until the test says otherwise (a flag, so no request finds the route half removed).
  let online = false;
  await page.route("**/trpc/**", (route) => (online ? route.fallback() : route.abort("connectionrefused")));

  const started = Date.now();
  await page.goto("/");
  const failure = page.getByRole("alert").filter({ has: page.getByRole("heading", { name: "Promptly cannot reach its server" }) });
  await expect(failure).toBeVisible({ timeout: 3_000 });
  expect(Date.now() - started).toBeLessThan(3_000);
  await expect(failure).toContainText(/Retrying/);
  await expect(page.getByText("Unexpected Application Error!")).toHaveCount(0);
  await expect(page.getByText("Failed to fetch")).toHaveCount(0);

  // Still unreachable: Try again keeps the page, saying so, and each failed try waits longer before the
  // page tries on its own. Tried until that wait is 10 s or more, so the page's own try cannot come
  // between the server's return and the click below (it did once, and the click found no button).
  const retrying = failure.getByTestId("server-unreachable-retrying");
  for (let tries = 0; tries < 3; tries++) {
    await failure.getByRole("button", { name: "Try again" }).click();
    await expect(retrying).toHaveText(/^Retrying on its own in \d+ s\.$/);
  }
  await expect(retrying).toHaveText(/^Retrying on its own in [1-3]\d s\.$/, { timeout: 20_000 });
  await expect(page.getByRole("heading", { name: "Promptly cannot reach its server" })).toBeVisible();

  online = true;
  await failure.getByRole("button", { name: "Try again" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Promptly cannot reach its server" })).toHaveCount(0);
});

test("the page that cannot reach the server tries again on its own and comes back once it answers", async ({ page }) => {
  const person = await createAccount({ fullName: "Back Again" });
  const organization = await createOrganizationWith([{ userId: person.id, role: "member" }]);
  await createTeamWith(organization.id, [{ userId: person.id, role: "editor" }]);
  await signIn(page, person.email);
  await page.route("**/trpc/**", (route) => route.abort("connectionrefused"));
  await page.goto("/settings/profile");
  await expect(page.getByRole("heading", { name: "Promptly cannot reach its server" })).toBeVisible({ timeout: 3_000 });
  await page.unrouteAll({ behavior: "wait" });
  // The first automatic try is 2 s after the failure.
  await expect(page.getByRole("heading", { level: 1, name: "Account Settings" })).toBeVisible({ timeout: 6_000 });
  await expect(page.getByLabel("Full Name")).toHaveValue("Back Again");
});

test("someone who signed up and is in no organization is told who can invite them, with their address to copy", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const person = await createAccount({ fullName: "New Comer" });
  await signIn(page, person.email);
  await page.goto("/");
  const panel = page.getByRole("region", { name: "You are not in an organization yet" });
  await expect(panel).toContainText("Only a super user can create an organization.");
  await expect(panel).toContainText("ask an organization admin or a team admin of it (or a super user) to invite you");
  await expect(panel.getByTestId("own-address")).toHaveText(person.email);
  await panel.getByRole("button", { name: "Copy your address" }).click();
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Copied to clipboard" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(person.email);
  // Not the super user's way: no button to create an organization.
  await expect(panel.getByRole("button", { name: "Create an organization" })).toHaveCount(0);
});

test("after a save keyboard focus stays on the control that saved, and a disabled button says why", async ({ page }) => {
  test.setTimeout(90_000);
  const person = await createAccount({ fullName: "Focus Keeper" });
  const organization = await createOrganizationWith([{ userId: person.id, role: "admin" }]);
  const team = await createTeamWith(organization.id, [{ userId: person.id, role: "admin" }]);
  await signIn(page, person.email);
  await activateTeam(page, organization.id, team.id);

  // The profile: saved by the button with the keyboard, then by Enter in a field.
  await page.goto("/settings/profile");
  const save = page.getByRole("button", { name: "Save Changes" });
  await page.getByLabel("Full Name").fill("Focus Keeper Two");
  await save.focus();
  await page.keyboard.press("Enter");
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Profile updated" })).toBeVisible();
  await expect(save).toBeEnabled();
  await expect(save).toBeFocused();
  const fullName = page.getByLabel("Full Name");
  await fullName.fill("Focus Keeper Three");
  await fullName.press("Enter");
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Profile updated" })).toHaveCount(2);
  await expect(fullName).toBeEditable();
  await expect(fullName).toBeFocused();

  // Notification settings.
  await page.goto("/settings/notifications");
  const saveNotifications = page.getByRole("button", { name: "Save Changes" });
  await saveNotifications.click();
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Notification settings saved" })).toBeVisible();
  await expect(saveNotifications).toBeEnabled();
  await expect(saveNotifications).toBeFocused();

  // The Teams page's invitation: Add keeps focus once the address is sent (and then says why it waits).
  await page.goto("/teams");
  await page.getByRole("button", { name: "Invite Member" }).first().click();
  const invite = page.getByTestId("invite-panel");
  const add = invite.getByRole("button", { name: "Add" });
  await expect(add).toBeDisabled();
  await add.hover();
  await expect(page.getByRole("tooltip")).toHaveText("Enter the email address to invite first");
  await invite.getByLabel("Email").fill("someone-new@example.test");
  await add.click();
  await expect(invite.getByLabel("Email")).toHaveValue("");
  await expect(add).toBeFocused();
  await expect(add).toBeDisabled();
  await expect(page.getByRole("tooltip")).toHaveText("Enter the email address to invite first");
});

test("a test case's variables show in the template's order, not the database's", async ({ page }) => {
  const person = await createAccount({ fullName: "Case Writer" });
  const organization = await createOrganizationWith([{ userId: person.id, role: "member" }]);
  const team = await createTeamWith(organization.id, [{ userId: person.id, role: "editor" }]);
  // PostgreSQL keeps a JSON object's keys shortest first: tone, topic, audience.
  const prompt = await createPromptWith({ organizationId: organization.id, teamId: team.id, authorId: person.id, template: "Write about {{ topic }} for {{ audience }} in a {{ tone }} tone." });
  await signIn(page, person.email);
  await activateTeam(page, organization.id, team.id);
  await callMutation(page.request, "testCases.create", { promptId: prompt.id, variables: { tone: "warm", audience: "children", topic: "tides" } });
  await page.goto(`/prompts/${prompt.id}?tab=cases`);
  const testCase = page.getByTestId("test-case").first();
  await expect(testCase.locator("dt")).toHaveText(["topic", "audience", "tone"]);
  await expect(testCase.locator("dd")).toHaveText(["tides", "children", "warm"]);
});

test("opening the page a notification leads to reads it, however it was reached (here its mail's link, typed in)", async ({ page }) => {
  const person = await createAccount({ fullName: "Link Opener" });
  const author = await createAccount({ fullName: "Ann Author" });
  const organization = await createOrganizationWith([{ userId: person.id, role: "member" }, { userId: author.id, role: "member" }]);
  const team = await createTeamWith(organization.id, [{ userId: person.id, role: "viewer" }, { userId: author.id, role: "admin" }]);
  const prompt = await createPromptWith({ organizationId: organization.id, teamId: team.id, authorId: author.id, title: "Opened prompt" });
  await withDb(async (client) => {
    await client.query(`INSERT INTO notifications (user_id, kind, actor_id, prompt_id, data, created_at) VALUES ($1, 'production_moved', $2, $3, $4, now())`, [
      person.id, author.id, prompt.id, JSON.stringify({ actorName: "Ann Author", promptName: prompt.name, version: 1 }),
    ]);
    await client.query(`INSERT INTO notifications (user_id, kind, actor_id, team_id, data, created_at) VALUES ($1, 'team_added', $2, $3, $4, now())`, [
      person.id, author.id, team.id, JSON.stringify({ actorName: "Ann Author", teamName: team.name, organizationId: organization.id }),
    ]);
  });
  const bell = page.getByRole("banner").getByRole("button", { name: /^Notifications/ });
  await signIn(page, person.email);
  await page.goto("/settings/profile");
  await expect(bell).toHaveAccessibleName("Notifications, 2 unread");
  // The prompt's page without its history tab is not where the notification leads.
  await page.goto(`/prompts/${prompt.id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Opened prompt" })).toBeVisible();
  await page.goto(`/prompts/${prompt.id}?tab=history`);
  await expect(bell).toHaveAccessibleName("Notifications, 1 unread");
  // The team notification's link makes the team active and lands on the plain dashboard: it reads it too.
  await page.goto(`/?organizationId=${organization.id}&teamId=${team.id}`);
  await expect(page).toHaveURL(/\/$/);
  await expect(bell).toHaveAccessibleName("Notifications");
  // The bell reads the page's answer as it comes; the write behind it is waited for, not raced.
  const unread = async () => (await withDb((client) => client.query(`SELECT count(*)::int AS n FROM notifications WHERE user_id = $1 AND read_at IS NULL`, [person.id]))).rows[0].n;
  await expect.poll(unread).toBe(0);
});
