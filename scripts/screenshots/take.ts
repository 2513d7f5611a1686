// The dashboard, a prompt page and the Teams page at 375 and 1400 px, for people reading the docs.
import { test, type Page } from "@playwright/test";
import { addOrganizationMember, createAccount, createOrganizationWith, createTeamWith, signIn } from "../../apps/web/e2e/support/accounts.ts";
import { createPromptWith } from "../../apps/web/e2e/support/prompts.ts";

const OUT = new URL("../../docs/screenshots/", import.meta.url).pathname;

async function world(width: number) {
  const person = await createAccount({ fullName: "Ada Lovelace", role: "administrator" });
  const grace = await createAccount({ fullName: "Grace Hopper" });
  const alan = await createAccount({ fullName: "Alan Turing" });
  const organization = await createOrganizationWith([{ userId: person.id, role: "admin" }], "Acme Research", `acme-research-${width}`);
  await addOrganizationMember(organization.id, grace.id, "member");
  await addOrganizationMember(organization.id, alan.id, "member");
  const team = await createTeamWith(organization.id, [
    { userId: person.id, role: "admin" },
    { userId: grace.id, role: "editor" },
    { userId: alan.id, role: "viewer" },
  ], "Customer Support");
  await createTeamWith(organization.id, [{ userId: person.id, role: "admin" }], "Research");
  const prompts = [
    { title: "Support reply", name: "support/reply", tags: ["support", "email"], template: "You are a friendly support agent for {{ product }}.\n\nCustomer message:\n{{ message }}\n\nWrite a short, warm reply that solves the problem." },
    { title: "Summarise a ticket", name: "support/summarise-ticket", tags: ["support"], template: "Summarise this ticket in three bullet points:\n{{ ticket }}" },
    { title: "Release notes", name: "writing/release-notes", tags: ["writing"], template: "Turn these merged pull requests into release notes for {{ audience }}:\n{{ changes }}" },
  ];
  const created = [];
  for (const prompt of prompts) {
    created.push(await createPromptWith({ organizationId: organization.id, teamId: team.id, authorId: grace.id, ...prompt }));
  }
  return { person, prompt: created[0]! };
}

async function shoot(page: Page, name: string) {
  await page.waitForLoadState("networkidle");
  // As a string: this folder is type-checked without the DOM's types.
  await page.evaluate("Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined)))");
  await page.screenshot({ path: `${OUT}${name}.png`, fullPage: true });
}

for (const width of [1400, 375]) {
  test(`screenshots at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: width > 1000 ? 900 : 812 });
    const { person, prompt } = await world(width);
    await signIn(page, person.email);
    await page.goto("/");
    await page.getByText("Total Prompts").waitFor();
    await shoot(page, `dashboard-${width}`);
    await page.goto(`/prompts/${prompt.id}`);
    await page.getByRole("heading", { level: 1, name: "Support reply" }).waitFor();
    await shoot(page, `prompt-${width}`);
    await page.goto("/teams");
    await page.getByRole("heading", { level: 2, name: "Customer Support" }).waitFor();
    await shoot(page, `teams-${width}`);
  });
}
