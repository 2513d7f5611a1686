// Versions side by side in the playground end to end: an editor puts one column on version 1 and
// another on version 2 of a prompt (same connection and model, a fake provider on the loopback
// address); one Run answers each with its own version. The variables are shared by name and kept when a
// column's version changes (a value the version does not use is set aside, not lost); the columns,
// variables and answers come back after a reload, until Reset. At 1400x900 the first answer is in view.
// Compare opens on what changed last (the latest against production) and marks the changed words.
import { randomBytes } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { fakeAnswerText } from "../../../packages/api/testing/fake-provider.ts";
import { callMutation, createAccount, createTeamInNewOrganization, signedInPage, signIn, uniqueName } from "./support/accounts.ts";
import { consoleErrors } from "./support/console.ts";
import { fakeProviderForFile, playgroundColumn as column, testedConnection } from "./support/providers.ts";

const provider = fakeProviderForFile();

const chooseVersion = async (page: Page, number: number, option: string) => {
  await column(page, number).getByRole("combobox", { name: "Version" }).click();
  await page.getByRole("option", { name: option, exact: true }).click();
};

test("two columns on versions 1 and 2 answer each with its version after one Run; variables survive a version change and a reload", async ({ browser }) => {
  test.setTimeout(90_000);
  const admin = await createAccount({ fullName: "Vera Versionadmin" });
  const editor = await createAccount({ fullName: "Victor Versioneditor" });
  const { organization, team } = await createTeamInNewOrganization([
    { userId: admin.id, role: "admin" },
    { userId: editor.id, role: "editor" },
  ]);
  // The connection and the versions through the API: they are not under test here.
  const adminPage = await signedInPage(browser, admin.email);
  await testedConnection(adminPage.request, organization.id, provider());
  await adminPage.context().close();
  const page = await signedInPage(browser, editor.email);
  await page.setViewportSize({ width: 1400, height: 900 });
  const errors = consoleErrors(page);
  const prompt = (await callMutation(page.request, "prompts.create", {
    teamId: team.id, name: `e2e/${randomBytes(5).toString("hex")}`, title: uniqueName("Poem"), visibility: "team", type: "text",
    template: "Write about {{ topic }}.", model: "gpt-4o-mini",
  })) as { id: string };
  await callMutation(page.request, "promptVersions.create", { promptId: prompt.id, type: "text", template: "Write a poem about {{ topic }} in {{ style }}.", model: "gpt-4o-mini" });

  await page.goto(`/prompts/${prompt.id}?tab=playground`);
  const topic = page.getByLabel("topic", { exact: true });
  const style = page.getByLabel("style", { exact: true });
  await topic.fill("tides");
  await style.fill("haiku");

  // Version 1 does not use style: its value is set aside, not lost; topic stays.
  await chooseVersion(page, 1, "v1");
  await expect(style).toBeHidden();
  const aside = page.getByTestId("variables-aside");
  await expect(aside).toContainText("Not used by this version");
  await expect(aside).toContainText("style");
  await expect(aside).toContainText("haiku");
  await expect(topic).toHaveValue("tides");

  // A second column on version 2: style is asked for again, with its value.
  await page.getByRole("button", { name: "Add model" }).click();
  await chooseVersion(page, 2, "v2 · latest");
  await expect(style).toHaveValue("haiku");
  await expect(aside).toBeHidden();

  await page.getByRole("button", { name: "Run", exact: true }).click();
  const first = column(page, 1).getByTestId("column-output");
  const second = column(page, 2).getByTestId("column-output");
  await expect(first).toContainText(fakeAnswerText("Write about tides."));
  await expect(second).toContainText(fakeAnswerText("Write a poem about tides in haiku."));

  // Beside the inputs at 1400 px: the first answer is in view without scrolling.
  await page.evaluate(() => window.scrollTo(0, 0));
  const box = await first.boundingBox();
  expect(box).not.toBeNull();
  expect(box!.y).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height).toBeLessThanOrEqual(900);
  expect(box!.x + box!.width).toBeLessThanOrEqual(1400);

  // A reload finds the columns, their versions, the variables and the answers as they were.
  await page.reload();
  await expect(column(page, 1).getByRole("combobox", { name: "Version" })).toHaveText("v1");
  await expect(column(page, 2).getByRole("combobox", { name: "Version" })).toHaveText("v2 · latest");
  await expect(topic).toHaveValue("tides");
  await expect(style).toHaveValue("haiku");
  await expect(first).toContainText(fakeAnswerText("Write about tides."));
  await expect(second).toContainText(fakeAnswerText("Write a poem about tides in haiku."));

  // Reset starts over, and a reload does not bring the old playground back.
  await page.getByRole("button", { name: "Reset", exact: true }).click();
  await expect(column(page, 2)).toHaveCount(0);
  await expect(topic).toHaveValue("");
  await page.reload();
  await expect(column(page, 1).getByRole("combobox", { name: "Version" })).toHaveText("Edited");
  await expect(topic).toHaveValue("");
  await expect(first).toContainText("The answer shows here.");
  expect(errors).toEqual([]);
});

test("Compare opens on the latest version against production, marks the changed words inside a changed line, and shows both sides side by side", async ({ page }) => {
  const admin = await createAccount({ fullName: "Cora Compareadmin" });
  const { team } = await createTeamInNewOrganization([{ userId: admin.id, role: "admin" }]);
  await signIn(page, admin.email);
  const prompt = (await callMutation(page.request, "prompts.create", {
    teamId: team.id, name: `e2e/${randomBytes(5).toString("hex")}`, title: uniqueName("Greeting"), visibility: "team", type: "text",
    template: "Greet {{ name }} warmly.\nSign off.", model: "gpt-4o-mini",
  })) as { id: string };
  await callMutation(page.request, "promptLabels.set", { promptId: prompt.id, label: "production", version: 1 });
  for (const template of ["Greet {{ name }} kindly.\nSign off.", "Greet {{ name }} briefly.\nSign off."]) {
    await callMutation(page.request, "promptVersions.create", { promptId: prompt.id, type: "text", template, model: "gpt-4o-mini" });
  }

  await page.goto(`/prompts/${prompt.id}?tab=compare`);
  // Version 3 is not production (version 1 is): it is compared with production.
  await expect(page.getByRole("combobox", { name: "From" })).toHaveText("v1 · production");
  await expect(page.getByRole("combobox", { name: "To" })).toHaveText("v3 · latest");
  const diff = page.getByRole("region", { name: "Template diff" });
  await expect(diff.locator('[data-diff="removed"] [data-word-diff="removed"]')).toHaveText("warmly");
  await expect(diff.locator('[data-diff="added"] [data-word-diff="added"]')).toHaveText("briefly");
  await expect(diff.locator('[data-diff="same"]')).toContainText("Sign off.");

  // Side by side: the line before on the left, its replacement across from it on the right.
  await page.getByRole("button", { name: "Side by side" }).click();
  await expect(page.getByRole("button", { name: "Side by side" })).toHaveAttribute("aria-pressed", "true");
  await expect(diff.locator('[data-side="before"] [data-diff="removed"]')).toContainText("Greet {{ name }} warmly.");
  await expect(diff.locator('[data-side="after"] [data-diff="added"]')).toContainText("Greet {{ name }} briefly.");

  // Production on the latest: the latest is compared with the one before it.
  await callMutation(page.request, "promptLabels.set", { promptId: prompt.id, label: "production", version: 3 });
  await page.goto(`/prompts/${prompt.id}?tab=compare`);
  await expect(page.getByRole("combobox", { name: "From" })).toHaveText("v2");
  await expect(page.getByRole("region", { name: "Template diff" }).locator('[data-word-diff="removed"]')).toHaveText("kindly");
});

test("signing out forgets the playgrounds kept in this browser (a shared computer's next person finds none)", async ({ page }) => {
  const person = await createAccount({ fullName: "Shared Desk" });
  await signIn(page, person.email);
  await page.goto("/settings/profile");
  const kept = () => page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith("promptly.playground.")));
  await page.evaluate(() => {
    localStorage.setItem("promptly.playground.someone.some-prompt", "{}");
    localStorage.setItem("promptly.other-setting", "kept");
  });
  expect(await kept()).toHaveLength(1);
  await page.getByRole("button", { name: "User menu" }).click();
  await page.getByRole("menuitem", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/auth\/signin$/);
  expect(await kept()).toEqual([]);
  expect(await page.evaluate(() => localStorage.getItem("promptly.other-setting"))).toBe("kept");
});
