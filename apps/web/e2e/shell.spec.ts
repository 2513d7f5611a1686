// The app shell: route table and sidebar per role, sidebar state, not-found and error pages,
// header and user menu. Everyone here signs in through the API and starts on a fresh account.
import { expect, test, type Page, type Request } from "@playwright/test";
import { PAGE_REQUIREMENTS, type PageAction } from "@promptly/shared";
import { addOrganizationMember, createAccount, createOrganizationWith, createTeamWith, signIn, withDb } from "./support/accounts.ts";
import { createPromptWith } from "./support/prompts.ts";
import { consoleErrors } from "./support/console.ts";
import { E2E } from "./support/env.ts";
import { signInAs, type ShellPersona } from "./support/shell.ts";

const ALL_ITEMS = ["Dashboard", "All Prompts", "My Bookmarks", "Teams", "Organizations", "Analytics", "Audit Log", "Model Providers"] as const;
type Outcome = "opens" | "redirected";

interface Row {
  persona: ShellPersona;
  sidebar: (typeof ALL_ITEMS)[number][];
  routes: Record<"/" | "/prompts" | "/bookmarks" | "/analytics" | "/teams" | "/organizations" | "/organizations/:id/members", Outcome>;
  footer: RegExp;
}

// Which sidebar links each person sees, which routes open or send them to / with 'Access Denied', and
// the footer: for the four app roles and an organization admin.
const TABLE: Row[] = [
  {
    persona: "administrator",
    sidebar: ["Dashboard", "All Prompts", "My Bookmarks", "Teams", "Analytics"],
    routes: { "/": "opens", "/prompts": "opens", "/bookmarks": "opens", "/analytics": "opens", "/teams": "opens", "/organizations": "redirected", "/organizations/:id/members": "redirected" },
    footer: /Role: Administrator$/,
  },
  {
    persona: "team_lead",
    sidebar: ["Dashboard", "All Prompts", "My Bookmarks", "Analytics"],
    routes: { "/": "opens", "/prompts": "opens", "/bookmarks": "opens", "/analytics": "opens", "/teams": "redirected", "/organizations": "redirected", "/organizations/:id/members": "redirected" },
    footer: /Role: Team Lead$/,
  },
  {
    persona: "user",
    sidebar: ["Dashboard", "Analytics"],
    routes: { "/": "opens", "/prompts": "redirected", "/bookmarks": "redirected", "/analytics": "opens", "/teams": "redirected", "/organizations": "redirected", "/organizations/:id/members": "redirected" },
    footer: /Role: User$/,
  },
  {
    persona: "super-user",
    sidebar: [...ALL_ITEMS],
    routes: { "/": "opens", "/prompts": "opens", "/bookmarks": "opens", "/analytics": "opens", "/teams": "opens", "/organizations": "opens", "/organizations/:id/members": "opens" },
    footer: /Role: Super User$/,
  },
  {
    persona: "org-admin",
    // The audit log is the organization admins' and super users'.
    sidebar: ["Dashboard", "Teams", "Analytics", "Audit Log", "Model Providers"],
    // Both organization screens are super-user screens; the API lets them manage their members.
    routes: { "/": "opens", "/prompts": "redirected", "/bookmarks": "redirected", "/analytics": "opens", "/teams": "opens", "/organizations": "redirected", "/organizations/:id/members": "redirected" },
    footer: /Role: User \(Org Admin\)$/,
  },
];

const sidebar = (page: Page) => page.getByTestId("sidebar");

/** The guarded routes' actions in the permission table, for what their refusal says. */
const GUARDED: Partial<Record<keyof Row["routes"], PageAction>> = {
  "/prompts": "page.prompts",
  "/bookmarks": "page.bookmarks",
  "/teams": "page.teams",
  "/organizations": "page.organizations",
  "/organizations/:id/members": "page.organizations",
};

/**
 * A route someone may not open sends them to the dashboard with one toast: 'Access Denied', the spec's
 * sentence (team management has its own), then who may open the page and whom to ask.
 */
async function expectRedirectedWithToast(page: Page, route: keyof Row["routes"], label: string) {
  await expect(page, label).toHaveURL("/");
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  const toast = page.locator("[data-sonner-toast]").filter({ hasText: "Access Denied" });
  await expect(toast, label).toHaveCount(1);
  await expect(toast.locator("[data-title]")).toHaveText("Access Denied");
  const lines = toast.locator("[data-description] > span");
  await expect(lines, label).toHaveText([
    route === "/teams" ? "You don't have permission to access team management." : "You don't have permission to access this page.",
    PAGE_REQUIREMENTS[GUARDED[route]!],
  ]);
  await expect(page.getByTestId("access-denied")).toHaveCount(0);
}

/** What a page that opened shows, per route. */
async function expectOpened(page: Page, route: keyof Row["routes"], path: string) {
  await expect(page).toHaveURL(path);
  if (route === "/teams") await expect(page.getByRole("heading", { level: 1, name: "Teams", exact: true })).toBeVisible();
  else if (route === "/organizations") await expect(page.getByRole("heading", { level: 1, name: "Organizations" })).toBeVisible();
  else if (route === "/organizations/:id/members") await expect(page.getByRole("main").getByRole("heading", { level: 1 })).toBeVisible();
  else if (route === "/prompts") await expect(page.getByRole("heading", { level: 1, name: "All Prompts" })).toBeVisible();
  else if (route === "/bookmarks") await expect(page.getByRole("heading", { level: 1, name: "My Bookmarks" })).toBeVisible();
  else if (route === "/analytics") await expect(page.getByRole("heading", { level: 1, name: "Analytics" })).toBeVisible();
  else await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  await expect(page.getByText("Access Denied")).toHaveCount(0);
}

for (const row of TABLE) {
  test(`route table and sidebar: ${row.persona}`, async ({ page }) => {
    const errors = consoleErrors(page);
    const person = await signInAs(page, row.persona);
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();

    const nav = sidebar(page).getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link")).toHaveText(row.sidebar);
    await expect(page.getByTestId("sidebar-footer")).toContainText(/Promptly v\d+\.\d+\.\d+/);
    await expect(page.getByTestId("sidebar-footer").locator("p").last()).toHaveText(row.footer);

    for (const [route, outcome] of Object.entries(row.routes) as [keyof Row["routes"], Outcome][]) {
      const path = route.replace(":id", person.organization.id);
      await page.goto(path);
      if (outcome === "opens") {
        await expectOpened(page, route, path);
      } else {
        await expectRedirectedWithToast(page, route, `${row.persona} at ${path}`);
      }
    }
    // Sidebar links navigate without reloading.
    await page.goto("/");
    await nav.getByRole("link", { name: "Analytics" }).click();
    await expect(page).toHaveURL("/analytics");
    expect(errors).toEqual([]);
  });
}

test("a signed-out visitor is sent to sign-in, remembering where they were going", async ({ page }) => {
  await page.goto("/analytics?tab=recent");
  await expect(page).toHaveURL(/\/auth\/signin\?redirect=/);
  expect(new URL(page.url()).searchParams.get("redirect")).toBe("/analytics?tab=recent");
  await page.goto("/settings/profile");
  await expect(page).toHaveURL(/\/auth\/signin\?redirect=%2Fsettings%2Fprofile/);
});

test("the dashboard: stat cards, prompt cards with every part, bookmark tooltips, tabs", async ({ page }) => {
  const errors = consoleErrors(page);
  const person = await signInAs(page, "administrator");
  const author = await createAccount({ fullName: "Noor Haddad" });
  const rater = await createAccount();
  await addOrganizationMember(person.organization.id, author.id);
  const team = await createTeamWith(person.organization.id, [
    { userId: person.id, role: "viewer" },
    { userId: author.id, role: "editor" },
  ]);
  const place = { organizationId: person.organization.id, teamId: team.id, authorId: author.id };
  await createPromptWith({ ...place, title: "Changelog Drafter", tags: ["engineering"] });
  await createPromptWith({ ...place, title: "Refund Answer", tags: ["support", "email"], ratings: [{ userId: rater.id, stars: 5 }] });
  await page.goto("/");
  for (const title of ["Total Prompts", "Team Members", "Bookmarked Prompts", "Average Rating"]) {
    await expect(page.getByTestId("stat-card").filter({ hasText: title })).toBeVisible();
  }
  await expect(page.getByTestId("stat-card").filter({ hasText: "Total Prompts" })).toContainText("2+2 this month");
  await expect(page.getByTestId("stat-card").filter({ hasText: "Average Rating" })).toContainText("5.0From 1 rating");
  // Most recently updated first.
  const card = page.getByTestId("prompt-card").first();
  await expect(card.getByRole("heading")).toHaveText("Refund Answer");
  await expect(card.getByRole("list", { name: "Tags" })).toContainText("support");
  await expect(card).toContainText("Noor Haddad");
  await expect(card).toContainText("NH");
  await expect(card).toContainText("5.0"); // rating
  await expect(card).toContainText("v1"); // version

  // Bookmark toggle with its tooltips, by keyboard.
  const toggle = page.getByTestId("prompt-card").nth(1).getByRole("button", { name: /bookmarks/ });
  await expect(toggle).toHaveAccessibleName("Add to bookmarks");
  await toggle.focus();
  await expect(page.getByRole("tooltip")).toHaveText("Add to bookmarks");
  await page.keyboard.press("Enter");
  await expect(toggle).toHaveAccessibleName("Remove from bookmarks");
  await expect(toggle).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByTestId("stat-card").filter({ hasText: "Bookmarked Prompts" })).toContainText("1+1 this month");

  await page.getByRole("tab", { name: "Popular" }).click();
  await expect(page.getByRole("tabpanel").getByTestId("prompt-card").first()).toContainText("Changelog Drafter");
  await page.getByRole("tab", { name: "Bookmarked" }).click();
  await expect(page.getByRole("tabpanel").getByTestId("prompt-card")).toHaveCount(1);
  expect(errors).toEqual([]);
});

test("the dashboard's empty tabs say what will appear", async ({ page }) => {
  await signInAs(page, "user");
  await page.goto("/");
  await expect(page.getByText("Recently updated prompts will appear here.")).toBeVisible();
  await page.getByRole("tab", { name: "Popular" }).click();
  await expect(page.getByText("Popular prompts will appear here.")).toBeVisible();
  await page.getByRole("tab", { name: "Bookmarked" }).click();
  await expect(page.getByText("Your bookmarked prompts will appear here.")).toBeVisible();
});

test("Ctrl+B collapses the sidebar and the state survives a reload", async ({ page, context }) => {
  await signInAs(page, "user");
  await page.goto("/");
  await expect(sidebar(page)).toHaveAttribute("data-state", "expanded");
  await expect.poll(async () => (await sidebar(page).boundingBox())?.width).toBe(256);

  await page.keyboard.press("Control+b");
  await expect(sidebar(page)).toHaveAttribute("data-state", "collapsed");
  await expect.poll(async () => (await sidebar(page).boundingBox())?.width).toBe(48);
  const cookie = (await context.cookies()).find((c) => c.name === "sidebar_state");
  expect(cookie?.value).toBe("false");
  const days = (cookie!.expires - Date.now() / 1000) / 86_400;
  expect(days).toBeGreaterThan(6.9);
  expect(days).toBeLessThanOrEqual(7);

  await page.reload();
  await expect(sidebar(page)).toHaveAttribute("data-state", "collapsed");
  // Collapsed items keep their names for assistive technology.
  await expect(sidebar(page).getByRole("link", { name: "Dashboard" })).toBeVisible();

  await page.keyboard.press("Meta+b");
  await expect(sidebar(page)).toHaveAttribute("data-state", "expanded");
  await page.reload();
  await expect(sidebar(page)).toHaveAttribute("data-state", "expanded");
});

test("at 375 px the sidebar opens as a sheet, and the search box waits behind its icon", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await signInAs(page, "administrator");
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  await expect(sidebar(page)).toHaveCount(0);
  await expect(page.getByPlaceholder("Search prompts...")).toBeHidden();
  await expect(page.getByRole("banner").getByRole("button", { name: "Search prompts" })).toBeVisible();

  await page.getByRole("button", { name: "Toggle sidebar" }).click();
  const sheet = page.getByRole("dialog", { name: "Sidebar" });
  await expect(sheet).toBeVisible();
  await expect.poll(async () => (await sheet.boundingBox())?.width).toBe(288);
  await sheet.getByRole("link", { name: "Analytics" }).click();
  await expect(page).toHaveURL("/analytics");
  await expect(sheet).toBeHidden();

  await page.keyboard.press("Control+b");
  await expect(sheet).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(sheet).toBeHidden();
});

test("an unknown URL shows the not-found page", async ({ page }) => {
  const errors = consoleErrors(page);
  await page.goto("/no/such/page");
  await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
  await page.getByRole("link", { name: "Return to Home" }).click();
  await expect(page).toHaveURL(/\/auth\/signin/);
  expect(errors).toEqual([]);

  await signInAs(page, "user");
  await page.goto("/settings/no-such-page");
  await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
  await page.getByRole("link", { name: "Return to Home" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
});

test("a thrown route error shows the error fallback with its message (no stack in production)", async ({ page }) => {
  await page.goto("/?__throw=1");
  await expect(page.getByRole("heading", { name: "Unexpected Application Error!" })).toBeVisible();
  await expect(page.getByTestId("error-message")).toHaveText("Test error requested with ?__throw=1");
  await expect(page.getByTestId("error-stack")).toHaveCount(0);
});

test("header: switcher visibility, New Prompt, search box, user menu and log out", async ({ page }) => {
  const errors = consoleErrors(page);
  // A user in two organizations, editor of a team in the first: switcher shown, may create prompts.
  const account = await createAccount({ role: "user", fullName: null });
  const first = await createOrganizationWith([{ userId: account.id, role: "member" }], `AAA Org ${Date.now()}`);
  await createOrganizationWith([{ userId: account.id, role: "member" }], `ZZZ Org ${Date.now()}`);
  const team = await createTeamWith(first.id, [{ userId: account.id, role: "editor" }]);
  await signIn(page, account.email);
  await page.goto("/");

  await expect(page.getByTestId("organization-switcher-slot")).toBeVisible();
  await expect(page.getByTestId("team-selector-slot")).toContainText(team.name);
  await expect(page.getByRole("combobox", { name: "Search prompts" })).toHaveAttribute("placeholder", "Search prompts...");
  await expect(page.getByRole("link", { name: "New Prompt" })).toBeVisible();

  // No full name: initials are the email's first two letters.
  await expect(page.getByRole("button", { name: "User menu" })).toContainText(account.email.slice(0, 2).toUpperCase());
  await page.getByRole("button", { name: "User menu" }).click();
  const menu = page.getByRole("menu");
  const localPart = account.email.split("@")[0]!;
  await expect(menu.getByTestId("user-menu-name")).toHaveText(localPart); // no full name: the email's local part
  await expect(menu.getByTestId("user-menu-email")).toHaveText(account.email);
  await expect(menu).toContainText(first.name);
  await expect(menu).toContainText(team.name);
  // The role badge for the active team (editor there).
  await expect(menu.getByTestId("user-menu-role")).toHaveText("Team Editor");

  await menu.getByRole("menuitem", { name: "Profile" }).click();
  await expect(page).toHaveURL("/settings/profile");
  await page.goto("/");

  await page.getByRole("button", { name: "User menu" }).click();
  await page.getByRole("menuitem", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/auth\/signin$/);
  await page.goto("/");
  await expect(page).toHaveURL(/\/auth\/signin\?redirect=/);
  expect(errors).toEqual([]);
});

test("logging out while the page's reads are still on their way: the session ends after them, no 401", async ({ page, context }) => {
  const errors = consoleErrors(page);
  const account = await createAccount({ role: "administrator" });
  const organization = await createOrganizationWith([{ userId: account.id, role: "member" }]);
  await createTeamWith(organization.id, [{ userId: account.id, role: "admin" }]);
  await signIn(page, account.email);
  let travelling = 0;
  const isApi = (request: Request) => request.url().includes("/trpc/");
  page.on("request", (request) => void (isApi(request) && travelling++));
  page.on("requestfinished", (request) => void (isApi(request) && travelling--));
  page.on("requestfailed", (request) => void (isApi(request) && travelling--));
  // A slow server: the dashboard's reads are held there for three seconds (TEST_FAULTS' delay
  // cookie), and are still running when Log out is clicked; the sign-out itself goes without delay.
  await context.addCookies([{ name: "promptly-test-delay", value: "3000", domain: new URL(E2E.appUrl).hostname, path: "/trpc" }]);
  await page.goto("/");
  await expect(page.getByRole("button", { name: "User menu" })).toBeVisible({ timeout: 30_000 });
  await context.clearCookies({ name: "promptly-test-delay" });
  await page.getByRole("button", { name: "User menu" }).click();
  await page.getByRole("menuitem", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/auth\/signin$/);
  // Whatever was still on its way has arrived and been answered.
  await expect.poll(() => travelling).toBe(0);
  await page.goto("/");
  await expect(page).toHaveURL(/\/auth\/signin\?redirect=/);
  expect(errors).toEqual([]);
});

test("header for a plain user with one organization and no team: no switcher, no New Prompt", async ({ page }) => {
  await signInAs(page, "user", { fullName: "Ada Lovelace" });
  await page.goto("/");
  await expect(page.getByTestId("team-selector-slot")).toBeVisible();
  await expect(page.getByTestId("organization-switcher-slot")).toHaveCount(0);
  await expect(page.getByRole("link", { name: "New Prompt" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "User menu" })).toContainText("AL");
});

test("a super user sees the organization switcher and New Prompt even with one organization and no team", async ({ page }) => {
  await signInAs(page, "super-user");
  await page.goto("/");
  await expect(page.getByTestId("organization-switcher-slot")).toBeVisible();
  await expect(page.getByRole("link", { name: "New Prompt" })).toBeVisible();
});

test("a person given a role at first sign-in is told so", async ({ page }) => {
  const account = await createAccount({ role: "user" });
  await withDb((client) => client.query(`DELETE FROM user_roles WHERE user_id = $1`, [account.id]));
  await signIn(page, account.email);
  await page.goto("/");
  const toast = page.locator("[data-sonner-toast]").filter({ hasText: "Access level set" });
  await expect(toast).toContainText("You've been assigned the user role");
  await expect(toast).toHaveCount(1);
});

test("logging out from a guarded page goes straight to sign-in, without an 'Access Denied' detour", async ({ page }) => {
  const errors = consoleErrors(page);
  await signInAs(page, "administrator");
  await page.goto("/teams");
  await expect(page).toHaveURL("/teams");
  await page.getByRole("button", { name: "User menu" }).click();
  await page.getByRole("menuitem", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/auth\/signin$/);
  await expect(page.getByText("Access Denied")).toHaveCount(0);
  expect(errors).toEqual([]);
});
