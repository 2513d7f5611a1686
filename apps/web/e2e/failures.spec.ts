// Every main page with its API failing on purpose: the page says what could not
// be loaded and offers Try again, never 'Access Denied', an empty state or an endless 'Loading...'; once
// the API answers again, Try again brings the page back. The failures are real 500s from the server,
// asked for with the test-only cookie of TEST_FAULTS (apps/server/src/test-faults.ts).
import { expect, test, type Locator, type Page } from "@playwright/test";
import { addOrganizationMember, createAccount, createOrganizationWith, createTeamWith, signIn, withDb } from "./support/accounts.ts";
import { E2E } from "./support/env.ts";
import { createChangeRequestWith, createPromptWith } from "./support/prompts.ts";

const FAULTS = "promptly-test-faults";

async function failing(page: Page, procedures: string[]) {
  await page.context().addCookies([{ name: FAULTS, value: encodeURIComponent(procedures.join(",")), url: E2E.appUrl }]);
}
async function healed(page: Page) {
  await page.context().clearCookies({ name: FAULTS });
}

/**
 * Waits for `locator` through the queries' retries: three (1 s, 2 s, 4 s) before they give up (spec),
 * so a failure shows after about 7 s. The page's clock (installed before it loaded) runs those waits
 * at once, two seconds at a time; the requests themselves take their real time.
 */
async function throughRetries(page: Page, locator: Locator): Promise<void> {
  await expect(async () => {
    await page.clock.fastForward(2_000);
    await expect(locator).toBeVisible({ timeout: 250 });
  }).toPass({ timeout: 25_000, intervals: [50] });
}

/** An organization admin (a plain app role unless told) with a team, a colleague and a prompt. */
async function world(options: { superUser?: boolean; role?: "team_lead" } = {}) {
  const person = await createAccount({ fullName: "Fay Failure", superUser: options.superUser, role: options.role });
  const colleague = await createAccount({ fullName: "Cole League" });
  const organization = await createOrganizationWith([
    { userId: person.id, role: "admin" },
    { userId: colleague.id, role: "member" },
  ]);
  const team = await createTeamWith(organization.id, [
    { userId: person.id, role: "admin" },
    { userId: colleague.id, role: "editor" },
  ]);
  const prompt = await createPromptWith({ organizationId: organization.id, teamId: team.id, authorId: colleague.id, title: "Failing prompt", template: "Hi {{ name }}" });
  const changeRequest = await createChangeRequestWith({ promptId: prompt.id, authorId: colleague.id, version: 1 });
  return { person, organization, team, prompt, changeRequest };
}

interface Case {
  name: string;
  path: (ids: Awaited<ReturnType<typeof world>>) => string;
  fail: string[];
  /** What the failure says (each must show, each with Try again). */
  says: string[];
  /** What the page shows once it loads again. */
  recovered: (page: Page) => ReturnType<Page["getByRole"]>;
  superUser?: boolean;
  /** All Prompts and My Bookmarks are for team leads and up. */
  teamLead?: boolean;
}

const CASES: Case[] = [
  {
    name: "the dashboard's figures and prompt tabs",
    path: () => "/",
    fail: ["dashboard.stats", "prompts.list"],
    says: ["The figures could not be loaded", "These prompts could not be loaded"],
    recovered: (page) => page.getByRole("link", { name: /Failing prompt/ }),
  },
  {
    name: "Analytics without its organizations",
    path: () => "/analytics",
    fail: ["organizations.list"],
    says: ["Error loading organizations"],
    recovered: (page) => page.getByRole("heading", { level: 2, name: "Prompts" }),
  },
  {
    name: "Analytics without its figures",
    path: () => "/analytics",
    fail: ["analytics.overview"],
    says: ["The analytics could not be loaded"],
    recovered: (page) => page.getByRole("heading", { level: 2, name: "Prompts" }),
  },
  {
    name: "a prompt's usage",
    path: ({ prompt }) => `/prompts/${prompt.id}?tab=usage`,
    fail: ["analytics.prompt"],
    says: ["The usage could not be loaded"],
    recovered: (page) => page.getByText("No runtime fetches of this prompt", { exact: false }),
  },
  {
    name: "All Prompts",
    path: () => "/prompts",
    fail: ["prompts.list", "prompts.facets"],
    says: ["The prompts could not be loaded", "Tags and folders could not be loaded"],
    recovered: (page) => page.getByRole("link", { name: /Failing prompt/ }),
    teamLead: true,
  },
  {
    name: "My Bookmarks",
    path: () => "/bookmarks",
    fail: ["organizations.list"],
    says: ["Error loading organizations"],
    recovered: (page) => page.getByText("You have no bookmarks yet", { exact: false }),
    teamLead: true,
  },
  {
    name: "a prompt's page",
    path: ({ prompt }) => `/prompts/${prompt.id}`,
    fail: ["prompts.get"],
    says: ["The prompt could not be loaded"],
    recovered: (page) => page.getByRole("heading", { level: 1, name: "Failing prompt" }),
  },
  {
    name: "a prompt's comments",
    path: ({ prompt }) => `/prompts/${prompt.id}?tab=comments`,
    fail: ["comments.list"],
    says: ["The comments could not be loaded"],
    recovered: (page) => page.getByText("No comments yet."),
  },
  {
    name: "a prompt's activity",
    path: ({ prompt }) => `/prompts/${prompt.id}?tab=activity`,
    fail: ["auditLog.forPrompt"],
    says: ["The activity could not be loaded"],
    recovered: (page) => page.getByRole("tab", { name: "Activity", selected: true }),
  },
  {
    name: "a prompt's history",
    path: ({ prompt }) => `/prompts/${prompt.id}?tab=history`,
    fail: ["promptVersions.list"],
    says: ["The history could not be loaded"],
    recovered: (page) => page.getByRole("tab", { name: "History", selected: true }),
  },
  {
    name: "Teams without the organizations (an organization admin's right is unknown, not denied)",
    path: () => "/teams",
    fail: ["organizations.list"],
    says: ["Error loading organizations"],
    recovered: (page) => page.getByRole("heading", { level: 1, name: "Teams" }),
  },
  {
    name: "Teams without its team list",
    path: () => "/teams",
    fail: ["teams.list"],
    says: ["The teams could not be loaded"],
    recovered: (page) => page.getByRole("heading", { level: 2, name: /^Team / }),
  },
  {
    name: "Teams without members and invitations",
    path: () => "/teams",
    fail: ["teamMembers.list", "invites.listPending"],
    says: ["Failed to fetch team members", "Failed to fetch pending invites"],
    recovered: (page) => page.getByRole("cell", { name: /Cole League user-/ }),
  },
  {
    name: "Teams without its open change requests",
    path: () => "/teams",
    fail: ["changeRequests.list"],
    says: ["The change requests could not be loaded"],
    recovered: (page) => page.getByRole("link", { name: "Failing prompt: v1 to production" }),
  },
  {
    name: "a change request's page",
    path: ({ changeRequest }) => `/reviews/${changeRequest.id}`,
    fail: ["changeRequests.get"],
    says: ["The change request could not be loaded"],
    recovered: (page) => page.getByRole("heading", { level: 1, name: "v1 to production" }),
  },
  {
    name: "Organizations",
    path: () => "/organizations",
    fail: ["organizations.list"],
    says: ["Error loading organizations"],
    recovered: (page) => page.getByRole("table", { name: "Organizations" }),
    superUser: true,
  },
  {
    name: "an organization's members",
    path: ({ organization }) => `/organizations/${organization.id}/members`,
    fail: ["organizations.get"],
    says: ["The organization could not be loaded"],
    recovered: (page) => page.getByText("Organization members"),
    superUser: true,
  },
  {
    name: "Profile settings",
    path: () => "/settings/profile",
    fail: ["profile.get"],
    says: ["This page could not be loaded"],
    recovered: (page) => page.getByLabel("Full Name"),
  },
  {
    name: "Notification settings",
    path: () => "/settings/notifications",
    fail: ["profile.notificationPreferences"],
    says: ["This page could not be loaded"],
    recovered: (page) => page.getByRole("switch").first(),
  },
  {
    name: "Security settings",
    path: () => "/settings/security",
    fail: ["security.overview"],
    says: ["This page could not be loaded"],
    recovered: (page) => page.getByText("Two-Factor Authentication").first(),
  },
];

for (const failure of CASES) {
  test(`failing API: ${failure.name} says so and recovers with Try again`, async ({ page }) => {
    test.setTimeout(90_000);
    const ids = await world({ superUser: failure.superUser, role: failure.teamLead ? "team_lead" : undefined });
    await signIn(page, ids.person.email);
    await failing(page, failure.fail);
    await page.clock.install();
    await page.goto(failure.path(ids));

    for (const text of failure.says) {
      const alert = page.getByRole("alert").filter({ hasText: text });
      await throughRetries(page, alert);
      await expect(alert.getByRole("button", { name: "Try again" })).toBeVisible();
      // One message per failure: no toast repeats what the page says.
      await expect(page.locator("[data-sonner-toast]").filter({ hasText: text })).toHaveCount(0);
    }
    // Still on the page, still in the layout, and no claim it was not given.
    await expect(page).toHaveURL(new URL(failure.path(ids), E2E.appUrl).href);
    await expect(page.getByText("Access Denied")).toHaveCount(0);
    await expect(page.getByText(/not in an organization yet|No Teams Created Yet|^Loading\.\.\.$/)).toHaveCount(0);
    if (failure.path(ids) === "/teams") await expect(page.getByRole("navigation").getByRole("link", { name: "Teams" })).toBeVisible();

    await healed(page);
    for (const text of failure.says) {
      const retry = page.getByRole("alert").filter({ hasText: text }).getByRole("button", { name: "Try again" });
      if (await retry.isVisible()) await retry.click();
    }
    await throughRetries(page, failure.recovered(page));
    await expect(page.getByRole("alert").filter({ hasText: /could not be loaded|Failed to fetch|Error loading/ })).toHaveCount(0);
  });
}

test("someone in no organization is told what to do next and sees the invitations waiting for them", async ({ page }) => {
  const person = await createAccount({ fullName: "New Comer" });
  const inviter = await createAccount();
  const organization = await createOrganizationWith([{ userId: inviter.id, role: "admin" }], "Waiting Room Inc");
  const team = await createTeamWith(organization.id, [{ userId: inviter.id, role: "admin" }], "Greeters");
  const { rows } = await withDb((client) =>
    client.query<{ id: string }>(
      `INSERT INTO pending_invites (team_id, email, role, invited_by, expires_at) VALUES ($1, $2, 'editor', $3, now() + interval '7 days') RETURNING id`,
      [team.id, person.email, inviter.id],
    ),
  );
  await signIn(page, person.email);
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "You are not in an organization yet" })).toBeVisible();
  await expect(page.getByTestId("team-selector")).toContainText("No organization");
  await page.getByRole("link", { name: "Open the invitation to Greeters" }).click();
  await expect(page).toHaveURL(`/auth/accept-invite?id=${rows[0]!.id}`);
  await expect(page.getByText("Waiting Room Inc").first()).toBeVisible();
  // Nobody else's invitation, and the organization admin never sees this panel.
  await addOrganizationMember(organization.id, person.id, "member");
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "You are not in an organization yet" })).toHaveCount(0);
});

test("a page load asks for the current user once, and a page one may not open sends them away saying why", async ({ page }) => {
  const { person } = await world();
  await signIn(page, person.email);
  const asked: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith("/trpc/")) asked.push(...url.pathname.slice("/trpc/".length).split(","));
  });
  await page.goto("/teams");
  await expect(page.getByRole("cell", { name: /Cole League user-/ })).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(asked.filter((path) => path === "auth.me")).toEqual(["auth.me"]);
  // Each list once: the loaders read it, the components show what they read.
  for (const path of ["organizations.list", "teams.list", "teamMembers.list", "invites.listPending"]) {
    expect(asked.filter((asked) => asked === path), path).toHaveLength(1);
  }

  // A plain user (no role in a team, no organization admin right) at All Prompts goes to the dashboard, told why.
  const plain = await createAccount();
  await signIn(page, plain.email);
  await page.goto("/prompts");
  await expect(page).toHaveURL("/");
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Access Denied" })).toContainText("You don't have permission to access this page.");
});
