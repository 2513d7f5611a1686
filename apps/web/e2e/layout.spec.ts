// Layout at every width: no route scrolls sideways at 375 or 768 px, the header's controls never
// overlap and stay on screen at 375, 768, 1024 and 1400 px, and names cut short can still be read in
// full (on hover and focus, in the switchers' lists, with the organization's slug).
import { randomBytes } from "node:crypto";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { addOrganizationMember, callMutation, createAccount, createOrganizationWith, createTeamWith, signIn, uniqueEmail, withDb } from "./support/accounts.ts";
import { createChangeRequestWith, createPromptWith } from "./support/prompts.ts";
import { networkSettled, watchTraffic } from "./support/network.ts";
import { everyRoute } from "./support/routes.ts";
import { visit } from "./support/visit.ts";

const suffix = () => randomBytes(2).toString("hex");

/**
 * A super user in two organizations with the same long name (told apart by their slugs), with a team of a
 * long name, a colleague with a long name and address, and a prompt with a long title.
 */
async function crowdedWorld() {
  const person = await createAccount({ fullName: "Layout Super Person With A Long Name", superUser: true });
  const colleague = await createAccount({ fullName: "Colleague With An Unusually Long Full Name", email: uniqueEmail("colleague-with-a-long-address") });
  const name = `Acme Research and Development Laboratory ${suffix()}`;
  const slug = `acme-research-${suffix()}`;
  const organization = await createOrganizationWith(
    [
      { userId: person.id, role: "admin" },
      { userId: colleague.id, role: "member" },
    ],
    name,
    slug,
  );
  const twinSlug = `acme-research-twin-${suffix()}`;
  const twin = await createOrganizationWith([{ userId: person.id, role: "admin" }], name, twinSlug);
  const team = await createTeamWith(
    organization.id,
    [
      { userId: person.id, role: "admin" },
      { userId: colleague.id, role: "editor" },
    ],
    `Platform Reliability and Developer Experience Guild ${suffix()}`,
  );
  const prompt = await createPromptWith({
    organizationId: organization.id,
    teamId: team.id,
    authorId: person.id,
    title: `A prompt whose title is long enough to wrap on a narrow screen, even ${"Unbroken".repeat(4)} ${suffix()}`,
    tags: ["layout", "narrow-screens"],
  });
  // Production on version 1 and a second version with a line that has no place to break (a long URL),
  // proposed for production: the review page shows their difference.
  await withDb(async (client) => {
    await client.query(`INSERT INTO prompt_versions (prompt_id, version, type, template, author_id) VALUES ($1, 2, 'text', $2, $3)`, [
      prompt.id,
      `Write about {{ topic }} and cite https://example.test/${"a-very-long-path-segment-".repeat(8)}end as the source.`,
      colleague.id,
    ]);
    await client.query(`UPDATE prompts SET latest_version = 2 WHERE id = $1`, [prompt.id]);
    await client.query(`INSERT INTO prompt_labels (prompt_id, name, version) VALUES ($1, 'production', 1)`, [prompt.id]);
  });
  const changeRequest = await createChangeRequestWith({ promptId: prompt.id, authorId: colleague.id, version: 2, message: "A message long enough to wrap on a narrow screen, as reviewers write them." });
  return { person, organization: { ...organization, slug }, twin: { ...twin, slug: twinSlug }, team, prompt, changeRequest };
}

/** Signs in and makes `organizationId` the active organization (a super user sees every organization). */
async function signInTo(page: Page, email: string, organizationId: string) {
  await signIn(page, email);
  watchTraffic(page);
  await page.goto("/");
  await page.evaluate((id) => localStorage.setItem("promptly.activeOrganizationId", id), organizationId);
}

/** The header's controls that are on screen, by name. */
async function headerControls(page: Page): Promise<Record<string, Locator>> {
  const header = page.getByRole("banner");
  const candidates: Record<string, Locator> = {
    "sidebar toggle": header.getByRole("button", { name: "Toggle sidebar" }),
    "organization switcher": header.getByTestId("organization-switcher"),
    "team selector": header.getByTestId("team-selector"),
    search: header.getByRole("combobox", { name: "Search prompts" }).or(header.getByRole("button", { name: "Search prompts" })),
    "New Prompt": header.getByRole("link", { name: "New Prompt" }),
    notifications: header.getByRole("button", { name: /^Notifications/ }),
    "user menu": header.getByRole("button", { name: /user menu/ }),
  };
  const visible: Record<string, Locator> = {};
  for (const [name, locator] of Object.entries(candidates)) {
    if (await locator.isVisible()) visible[name] = locator;
  }
  return visible;
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const intersects = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Every overlap between two of the header's controls, and every control that leaves the viewport. */
async function headerProblems(page: Page, width: number): Promise<string[]> {
  const controls = await headerControls(page);
  const boxes: [string, Box][] = [];
  for (const [name, locator] of Object.entries(controls)) boxes.push([name, (await locator.boundingBox())!]);
  const problems: string[] = [];
  const viewport = page.viewportSize()!;
  for (const [name, box] of boxes) {
    if (box.x < 0 || box.y < 0 || box.x + box.width > viewport.width || box.y + box.height > viewport.height) {
      problems.push(`${width} px: ${name} leaves the viewport (${JSON.stringify(box)})`);
    }
  }
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      if (intersects(boxes[i]![1], boxes[j]![1])) problems.push(`${width} px: ${boxes[i]![0]} overlaps ${boxes[j]![0]}`);
    }
  }
  return problems;
}

/**
 * How far the page scrolls sideways (its width against the viewport's, scroll bar excluded), what
 * sticks out past its right edge (to name in a failure), and whether anything hides that (overflow
 * hidden on the page's outer boxes).
 */
async function sidewaysScroll(page: Page) {
  return page.evaluate(() => {
    const clientWidth = document.documentElement.clientWidth;
    const describe = (element: Element) =>
      `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ""}${element.getAttribute("data-testid") ? `[data-testid=${element.getAttribute("data-testid")}]` : ""}.${[...element.classList].slice(0, 4).join(".")}`;
    // The outermost elements past the edge: their children need not be named as well.
    const sticking = [...document.querySelectorAll("body *")]
      .filter((element) => element.getBoundingClientRect().right > clientWidth + 0.5)
      .filter((element) => !(element.parentElement && element.parentElement.getBoundingClientRect().right > clientWidth + 0.5))
      .slice(0, 5)
      .map(describe);
    return {
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth,
      sticking,
      clipped: [document.documentElement, document.body, document.getElementById("main-content")]
        .filter((element): element is HTMLElement => !!element)
        .filter((element) => ["hidden", "clip"].includes(getComputedStyle(element).overflowX))
        .map((element) => element.tagName.toLowerCase()),
    };
  });
}

async function settle(page: Page) {
  await page.getByRole("heading", { level: 1 }).first().waitFor();
  await networkSettled(page);
}

for (const width of [375, 768]) {
  test(`no route scrolls sideways at ${width} px for a super user`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: 800 });
    const { person, organization, team, prompt, changeRequest } = await crowdedWorld();
    await signInTo(page, person.email, organization.id);
    // Pending invitations of the team and of the organization, so every table on the way has rows.
    await callMutation(page.request, "invites.create", { teamId: team.id, email: uniqueEmail("team-invitee-with-a-long-address"), role: "viewer" });
    await callMutation(page.request, "organizationMembers.add", { organizationId: organization.id, email: uniqueEmail("organization-invitee-with-a-long-address"), role: "member" });
    const found: string[] = [];
    for (const [index, route] of everyRoute({ organizationId: organization.id, promptId: prompt.id, changeRequestId: changeRequest.id }).entries()) {
      await visit(page, route, index === 0 ? "load" : "in the app");
      const { scrollWidth, clientWidth, clipped, sticking } = await sidewaysScroll(page);
      if (scrollWidth > clientWidth) found.push(`${route}: ${scrollWidth} px wide (${sticking.join("; ")})`);
      if (clipped.length) found.push(`${route}: overflow-x hidden on ${clipped.join(", ")}`);
    }
    expect(found, found.join("\n")).toEqual([]);
  });
}

test("an organization admin's /teams with members and a pending invitation fits 375 px; the tables show they scroll", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  const admin = await createAccount({ fullName: "Organization Admin With A Long Name" });
  const member = await createAccount({ fullName: "Member With A Long Name", email: uniqueEmail("member-with-a-long-address") });
  const organization = await createOrganizationWith([{ userId: admin.id, role: "admin" }], `Northwind Traders Worldwide Holdings ${suffix()}`);
  await addOrganizationMember(organization.id, member.id);
  const team = await createTeamWith(organization.id, [{ userId: member.id, role: "editor" }], `Customer Success and Support Operations ${suffix()}`);
  await signIn(page, admin.email);
  const invitee = uniqueEmail("invitee-with-a-long-address");
  await callMutation(page.request, "invites.create", { teamId: team.id, email: invitee, role: "viewer" });

  await visit(page, "/teams", "load");
  await expect(page.getByTestId("team-member-row").filter({ hasText: member.email })).toBeVisible();
  await expect(page.getByTestId("pending-invite-row").filter({ hasText: invitee })).toBeAttached();
  const { scrollWidth, clientWidth: innerWidth } = await sidewaysScroll(page);
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);

  // The team's own controls are all on screen.
  for (const name of ["Rename", "Delete", "Invite Member"]) {
    const box = (await page.getByRole("main").getByRole("button", { name, exact: true }).boundingBox())!;
    expect(box.x + box.width, name).toBeLessThanOrEqual(innerWidth);
  }
  // A table wider than the screen scrolls in its frame, which says so and takes focus.
  const frame = page.getByRole("region", { name: "Team members" });
  await expect(frame).toHaveAttribute("tabindex", "0");
  await expect(frame).toHaveAccessibleDescription("Scroll sideways for more");
  const hint = page.locator(`[id="${await frame.getAttribute("aria-describedby")}"]`);
  await expect(hint).toBeVisible();
  expect((await hint.boundingBox())!.y).toBeGreaterThan((await frame.boundingBox())!.y);
  await frame.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
  const actions = page.getByRole("button", { name: "Actions for Member With A Long Name" });
  await expect(actions).toBeInViewport();
  await expect(page.getByRole("combobox", { name: "Role of Member With A Long Name" })).toBeInViewport();
});

test("the header's controls never overlap and stay on screen at 375, 768, 1024 and 1400 px", async ({ page }) => {
  const { person, organization } = await crowdedWorld();
  await signInTo(page, person.email, organization.id);
  const problems: string[] = [];
  const seen: Record<number, string[]> = {};
  for (const width of [375, 768, 1024, 1400]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto("/");
    await settle(page);
    seen[width] = Object.keys(await headerControls(page));
    problems.push(...(await headerProblems(page, width)));
  }
  expect(problems, problems.join("\n")).toEqual([]);
  // A super user with a team sees every control at every width (collapsed, not dropped, below 1024 px).
  const all = ["sidebar toggle", "organization switcher", "team selector", "search", "New Prompt", "notifications", "user menu"];
  expect(seen).toEqual({ 375: all, 768: all, 1024: all, 1400: all });
});

test("below 1024 px search is behind an icon named 'Search prompts' that opens the same search", async ({ page }) => {
  const { person, organization, prompt } = await crowdedWorld();
  await signInTo(page, person.email, organization.id);
  await page.setViewportSize({ width: 768, height: 800 });
  await page.goto("/");
  await settle(page);
  const header = page.getByRole("banner");
  await expect(header.getByRole("combobox", { name: "Search prompts" })).toBeHidden();
  const icon = header.getByRole("button", { name: "Search prompts" });
  await icon.click();
  const box = header.getByRole("combobox", { name: "Search prompts" });
  await expect(box).toBeFocused();
  await box.fill(prompt.title);
  await expect(page.getByRole("option", { name: prompt.title })).toBeVisible();
  // Escape closes the results, a second Escape the search, and focus returns to the icon.
  await page.keyboard.press("Escape");
  await page.keyboard.press("Escape");
  await expect(box).toBeHidden();
  await expect(icon).toBeFocused();

  // The keyboard shortcut opens it too, and choosing a result goes to the prompt.
  await page.locator("main").click({ position: { x: 5, y: 5 } });
  await page.keyboard.press("/");
  await expect(box).toBeFocused();
  await box.fill(prompt.title);
  await page.getByRole("option", { name: prompt.title }).click();
  await expect(page).toHaveURL(`/prompts/${prompt.id}`);

  // From 1024 px the box itself is in the header, and the icon is gone.
  await page.setViewportSize({ width: 1024, height: 800 });
  await expect(header.getByRole("combobox", { name: "Search prompts" })).toBeVisible();
  await expect(icon).toBeHidden();
});

test("switchers widen with the space, show names cut short in full on hover and focus, and the organization's slug", async ({ page }) => {
  const { person, organization, twin, team } = await crowdedWorld();
  await signInTo(page, person.email, organization.id);
  await page.setViewportSize({ width: 1400, height: 800 });
  await page.goto("/");
  await settle(page);
  const organizationSwitcher = page.getByTestId("organization-switcher");
  const teamSelector = page.getByTestId("team-selector");
  expect((await teamSelector.boundingBox())!.width).toBeGreaterThan(240);
  expect((await organizationSwitcher.boundingBox())!.width).toBeGreaterThan(240);

  await page.setViewportSize({ width: 375, height: 800 });
  // Cut short on a phone, the team's name shows in full when the selector takes focus or the pointer.
  await expect(teamSelector).toHaveAccessibleName(`Team: ${team.name}`);
  await teamSelector.focus();
  await expect(page.getByRole("tooltip")).toHaveText(team.name);
  await teamSelector.blur();
  await expect(page.getByRole("tooltip")).toHaveCount(0);
  await organizationSwitcher.hover();
  await expect(page.getByRole("tooltip")).toContainText(organization.name);
  await expect(page.getByRole("tooltip")).toContainText(organization.slug);

  // Organizations of one name are told apart by their slugs in the list, whose names are never cut.
  await organizationSwitcher.click();
  const list = page.getByRole("dialog").filter({ has: page.getByPlaceholder("Search organizations...") });
  const first = list.getByRole("option", { name: organization.slug });
  const second = list.getByRole("option", { name: twin.slug });
  for (const option of [first, second]) {
    await expect(option).toContainText(organization.name);
    const fits = await option.evaluate((element) => [...element.querySelectorAll("span")].every((span) => span.scrollWidth <= span.clientWidth));
    expect(fits).toBe(true);
  }
  await page.keyboard.press("Escape");

  await teamSelector.click();
  const teamOption = page.getByRole("option", { name: team.name });
  await expect(teamOption).toBeVisible();
  const fits = await teamOption.evaluate((element) => [...element.querySelectorAll("span")].every((span) => span.scrollWidth <= span.clientWidth));
  expect(fits).toBe(true);
});
