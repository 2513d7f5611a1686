// The header follows the page: opening a prompt of another organization puts the header's organization
// and team on the prompt's (for a person in two organizations, and for a super user whose header was on
// an organization without teams); switched away while on the prompt, the page says where the prompt
// belongs, and one click puts the header back.
import { expect, test, type Page } from "@playwright/test";
import { createAccount, createOrganizationWith, createTeamWith, signIn, uniqueName } from "./support/accounts.ts";
import { seriousViolations } from "./support/axe.ts";
import { switchTo } from "./support/organizations.ts";
import { createPromptWith } from "./support/prompts.ts";
import { visit } from "./support/visit.ts";

const organizationSwitcher = (page: Page) => page.getByTestId("organization-switcher");
const teamSelector = (page: Page) => page.getByTestId("team-selector");

/** Saves the header's organization and team as the switchers do (once: a reload keeps what the app wrote since). */
async function putHeaderOn(page: Page, organizationId: string, teamId?: string) {
  await page.evaluate(
    ({ organizationId, teamId }) => {
      localStorage.setItem("promptly.activeOrganizationId", organizationId);
      if (teamId) localStorage.setItem("promptly.activeTeamId", teamId);
      else localStorage.removeItem("promptly.activeTeamId");
    },
    { organizationId, teamId },
  );
}

/**
 * A second organization whose teams the person sees: one named to sort first (the header's pick when
 * nothing else decides) and "Support Bots", which holds the prompt.
 */
async function secondOrganization(members: { userId: string; role: "admin" | "member" }[], teamMembers: { userId: string; role: "admin" | "editor" | "viewer" }[], authorId: string) {
  const organization = await createOrganizationWith(members, uniqueName("Second Org"));
  await createTeamWith(organization.id, teamMembers, uniqueName("Aardvarks"));
  const supportBots = await createTeamWith(organization.id, teamMembers, uniqueName("Support Bots"));
  const prompt = await createPromptWith({ organizationId: organization.id, teamId: supportBots.id, authorId, title: uniqueName("Refund replies") });
  return { organization, supportBots, prompt };
}

test("a person in two organizations opens a prompt of the second: the header goes to its organization and team, and comes back to it in one click", async ({ page }) => {
  const person = await createAccount({ fullName: "Two Orgs Person" });
  const first = await createOrganizationWith([{ userId: person.id, role: "member" }], uniqueName("First Org"));
  const writers = await createTeamWith(first.id, [{ userId: person.id, role: "editor" }], uniqueName("Writers"));
  const { organization, supportBots, prompt } = await secondOrganization([{ userId: person.id, role: "member" }], [{ userId: person.id, role: "editor" }], person.id);

  await signIn(page, person.email);
  await page.goto("/");
  await putHeaderOn(page, first.id, writers.id);
  await page.reload();
  await expect(organizationSwitcher(page)).toContainText(first.name);

  // A link hovered preloads the prompt: the header stays where it is until the prompt is opened.
  await page.evaluate(async (href) => {
    const router = (window as unknown as { __TSR_ROUTER__: { preloadRoute(options: { href: string }): Promise<unknown> } }).__TSR_ROUTER__;
    await router.preloadRoute({ href });
  }, `/prompts/${prompt.id}`);
  expect(await page.evaluate(() => localStorage.getItem("promptly.activeOrganizationId"))).toBe(first.id);
  await expect(organizationSwitcher(page)).toContainText(first.name);
  await expect(teamSelector(page)).toContainText(writers.name);

  await page.goto(`/prompts/${prompt.id}`);
  await expect(page.getByRole("heading", { level: 1, name: prompt.title })).toBeVisible();
  await expect(organizationSwitcher(page)).toContainText(organization.name);
  await expect(teamSelector(page)).toContainText(supportBots.name);
  await expect(page.getByTestId("prompt-place-notice")).toBeHidden();

  // Switched away while on the prompt: the page says plainly where the prompt belongs.
  await switchTo(page, first.name);
  await expect(teamSelector(page)).toContainText(writers.name);
  const notice = page.getByTestId("prompt-place-notice");
  await expect(notice).toContainText(`This prompt belongs to ${supportBots.name} in ${organization.name}.`);
  await expect(notice).toContainText(`The header is on ${first.name}.`);
  expect(await seriousViolations(page)).toEqual([]);
  await notice.getByRole("button", { name: `Switch to ${organization.name}` }).click();
  await expect(organizationSwitcher(page)).toContainText(organization.name);
  await expect(teamSelector(page)).toContainText(supportBots.name);
  await expect(notice).toBeHidden();
});

test("a super user whose header is on an organization without teams opens a prompt of another: the header shows its organization and team, never 'No teams'", async ({ page }) => {
  const superUser = await createAccount({ fullName: "Super Follower", superUser: true });
  const author = await createAccount({ fullName: "Bot Author" });
  const empty = await createOrganizationWith([{ userId: superUser.id, role: "admin" }], uniqueName("Empty Org"));
  const { organization, supportBots, prompt } = await secondOrganization([{ userId: author.id, role: "member" }], [{ userId: author.id, role: "editor" }], author.id);

  await signIn(page, superUser.email);
  await page.goto("/");
  await putHeaderOn(page, empty.id);
  await page.reload();
  await expect(organizationSwitcher(page)).toContainText(empty.name);
  await expect(teamSelector(page)).toContainText("No teams");

  // Reached as the app's own links go (its router), not by loading the page.
  await visit(page, `/prompts/${prompt.id}`, "in the app");
  await expect(page.getByRole("heading", { level: 1, name: prompt.title })).toBeVisible();
  await expect(organizationSwitcher(page)).toContainText(organization.name);
  await expect(teamSelector(page)).toContainText(supportBots.name);
  await expect(teamSelector(page)).not.toContainText("No teams");
  await expect(page.getByTestId("prompt-place-notice")).toBeHidden();
});
