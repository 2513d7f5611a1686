// Every screen for three kinds of people at a wide and a narrow width, checked by axe-core (WCAG 2.2
// AA rules): no critical and no serious violation (issue 14). Each test reports every finding at once.
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { addOrganizationMember, createAccount, createOrganizationWith, createTeamWith, signIn } from "./support/accounts.ts";
import { createPromptWith } from "./support/prompts.ts";

const WIDTHS = [1400, 375] as const;
type Persona = "super user" | "organization admin" | "team viewer";
const PERSONAS: Persona[] = ["super user", "organization admin", "team viewer"];

/** An organization with a team and a prompt; the persona's place in it decides what they see. */
async function world(persona: Persona) {
  const person = await createAccount({ fullName: "Axe Person", superUser: persona === "super user", role: persona === "organization admin" ? "administrator" : "user" });
  const author = await createAccount({ fullName: "Axe Author" });
  const organization = await createOrganizationWith([
    { userId: author.id, role: "member" },
    ...(persona === "super user" ? [] : [{ userId: person.id, role: persona === "organization admin" ? ("admin" as const) : ("member" as const) }]),
  ]);
  const team = await createTeamWith(organization.id, [
    { userId: author.id, role: "editor" },
    ...(persona === "team viewer" ? [{ userId: person.id, role: "viewer" as const }] : []),
  ]);
  if (persona === "super user") await addOrganizationMember(organization.id, person.id, "admin");
  const prompt = await createPromptWith({ organizationId: organization.id, teamId: team.id, authorId: author.id, title: "Axe prompt", tags: ["a11y"], template: "Hello {{ name }}" });
  return { person, organization, prompt };
}

async function violations(page: Page, where: string): Promise<string[]> {
  // Colours are judged as they end up, not halfway through a toast's or a dialog's fade-in.
  await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))));
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
  return result.violations
    .filter((violation) => violation.impact === "critical" || violation.impact === "serious")
    .map((violation) => `${where}: ${violation.id} (${violation.impact}) x${violation.nodes.length}: ${violation.nodes.slice(0, 2).map((node) => `${node.target.join(" ")} ${node.failureSummary?.split("\n")[1] ?? ""}`).join(" | ")}`);
}

for (const persona of PERSONAS) {
  for (const width of WIDTHS) {
    test(`axe: every route as ${persona} at ${width} px`, async ({ page }) => {
      test.setTimeout(180_000);
      await page.setViewportSize({ width, height: 900 });
      const { person, organization, prompt } = await world(persona);
      await signIn(page, person.email);
      const routes = [
        "/", "/prompts", "/bookmarks", "/analytics", "/teams", "/organizations", `/organizations/${organization.id}/members`,
        `/prompts/${prompt.id}`, `/prompts/${prompt.id}?tab=try`, `/prompts/${prompt.id}?tab=history`, `/prompts/${prompt.id}?tab=compare`,
        "/prompts/new", "/settings/profile", "/settings/password", "/settings/notifications", "/settings/security",
      ];
      const found: string[] = [];
      for (const route of routes) {
        await page.goto(route);
        await page.getByRole("heading", { level: 1 }).first().waitFor();
        await page.waitForLoadState("networkidle");
        found.push(...(await violations(page, route)));
      }
      expect(found, found.join("\n")).toEqual([]);
    });
  }
}
