// API keys on the Teams page: a team admin creates a
// key bound to production, sees it once and copies it; the list shows only its first characters and,
// after a reload, the key is nowhere on the page; revoking marks the row and the database. A team
// editor sees no API keys at all, and a list that fails to load says so with Try again.
import { createHash } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { PROMPT_MSG } from "@promptly/shared";
import {
  addOrganizationMember, callMutation, createAccount, createOrganizationWith, createTeamWith, signIn, withDb,
} from "./support/accounts.ts";
import { seriousViolations } from "./support/axe.ts";
import { consoleErrors } from "./support/console.ts";
import { E2E } from "./support/env.ts";
import { createPromptWith } from "./support/prompts.ts";
import { recordSecret } from "./support/secrets.ts";

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });
const keyRow = (page: Page, name: string) => page.getByTestId("api-key-row").filter({ hasText: name });

async function keysOf(teamId: string) {
  return withDb(async (client) => {
    const { rows } = await client.query<{ name: string; key_hash: string; prefix: string; labels: string[]; scopes: string[]; revoked_at: Date | null; expires_at: Date | null }>(
      `SELECT name, key_hash, prefix, labels, scopes::text[] AS scopes, revoked_at, expires_at FROM api_keys WHERE team_id = $1 ORDER BY created_at`,
      [teamId],
    );
    return rows;
  });
}

/**
 * A team with an admin and an editor, both app administrators (who may open /teams) and plain
 * organization members: the team role alone decides who manages keys.
 */
async function world() {
  const admin = await createAccount({ fullName: "Kim Keymaker", role: "administrator" });
  const editor = await createAccount({ fullName: "Eddie Editor", role: "administrator" });
  const organization = await createOrganizationWith([{ userId: admin.id, role: "member" }]);
  await addOrganizationMember(organization.id, editor.id);
  const team = await createTeamWith(organization.id, [
    { userId: admin.id, role: "admin" },
    { userId: editor.id, role: "editor" },
  ]);
  return { admin, editor, organization, team };
}

test("a team admin creates a key bound to production, copies it once, never sees it again, and revokes it", async ({ page, context }) => {
  const errors = consoleErrors(page, { allow4xx: true });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: E2E.appUrl });
  const { admin, organization, team } = await world();
  await signIn(page, admin.email);
  await page.goto("/teams");

  const card = page.getByTestId("api-keys-card");
  await expect(card.getByRole("heading", { name: "API keys" })).toBeVisible();
  await expect(card).toContainText("No API keys yet.");

  // The form refuses what the server refuses, in the same words, under the field.
  const opener = card.getByRole("button", { name: "Create API key" });
  await opener.click();
  const dialog = page.getByRole("dialog", { name: "Create API key" });
  await expect(dialog.getByRole("combobox", { name: "Expires" })).toHaveText("90 days");
  await expect(dialog.getByRole("checkbox", { name: /^Write/ })).not.toBeChecked();
  await expect(dialog.getByRole("checkbox", { name: /^Write/ })).toHaveAccessibleDescription(/never moves the production label/);
  await expect(dialog.getByRole("checkbox", { name: /^Run/ })).not.toBeChecked();
  await expect(dialog.getByRole("checkbox", { name: /^Run/ })).toHaveAccessibleDescription(/costs money; Write does not include it/);
  await expect(dialog.getByRole("checkbox", { name: /^Delete/ })).not.toBeChecked();
  await expect(dialog.getByRole("checkbox", { name: /^Delete/ })).toHaveAccessibleDescription(/Never the version production points to/);
  await expect(dialog.getByRole("checkbox", { name: /^Ingest/ })).not.toBeChecked();
  await expect(dialog.getByRole("checkbox", { name: /^Ingest/ })).toHaveAccessibleDescription(/into this team only/);
  await dialog.getByRole("textbox", { name: "Name" }).fill("Checkout service");
  await dialog.getByRole("textbox", { name: "Labels" }).fill("Production");
  await dialog.getByRole("button", { name: "Create key" }).click();
  await expect(dialog.getByRole("textbox", { name: "Labels" })).toHaveAccessibleDescription(new RegExp(PROMPT_MSG.labelInvalid.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
  expect(await keysOf(team.id)).toEqual([]);

  await dialog.getByRole("textbox", { name: "Labels" }).fill("production");
  await dialog.getByRole("combobox", { name: "Expires" }).click();
  await page.getByRole("option", { name: "Never" }).click();
  await dialog.getByRole("button", { name: "Create key" }).click();

  // Shown once: read-only, monospace, with Copy and the warning.
  const shown = page.getByRole("dialog", { name: "API key created" });
  await expect(shown).toContainText("Copy this key now. You will not see it again.");
  const field = shown.getByRole("textbox", { name: "API key" });
  await expect(field).toHaveAttribute("readonly", "");
  const key = await field.inputValue();
  recordSecret("API key", key);
  expect(key).toMatch(/^promptly_[0-9A-Za-z]{43}$/);
  await shown.getByRole("button", { name: "Copy API key" }).click();
  await expect(toast(page, "Copied")).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied.startsWith("promptly_")).toBe(true);
  expect(copied).toBe(key);
  // Its public half for the Langfuse SDKs, beside it with its own Copy.
  const publicKey = await shown.getByRole("textbox", { name: "Public key (Langfuse SDKs)" }).inputValue();
  expect(publicKey).toMatch(/^pk-lf-[0-9a-f-]{36}$/);
  const [stored] = await keysOf(team.id);
  expect(stored).toMatchObject({ name: "Checkout service", labels: ["production"], scopes: ["read"], revoked_at: null, expires_at: null });
  expect(stored!.key_hash).toBe(createHash("sha256").update(key).digest("hex"));

  // Done forgets the key; focus is back on the opener.
  await shown.getByRole("button", { name: "Done" }).click();
  await expect(shown).toBeHidden();
  await expect(opener).toBeFocused();
  const row = keyRow(page, "Checkout service");
  await expect(row).toContainText(`${stored!.prefix}…`);
  for (const text of ["production", "read", "Kim Keymaker", "Never"]) await expect(row).toContainText(text);
  // The list keeps showing the public key (it is not secret), with Copy.
  await expect(row).toContainText(publicKey);
  await row.getByRole("button", { name: "Copy the public key of Checkout service" }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(publicKey);
  expect(await page.locator("body").innerHTML()).not.toContain(key);

  // After a reload the key is nowhere on the page, only its first characters.
  await page.reload();
  await expect(keyRow(page, "Checkout service")).toContainText(`${stored!.prefix}…`);
  expect(await page.content()).not.toContain(key.slice(stored!.prefix.length));

  // A program with the copied key (no browser, no cookie, as curl) gets the production version.
  const prompt = await createPromptWith({ organizationId: organization.id, teamId: team.id, authorId: admin.id, name: "checkout/greeting", template: "Hello {{ name }}" });
  await withDb(async (client) => {
    await client.query(`INSERT INTO prompt_versions (prompt_id, version, type, template, author_id) VALUES ($1, 2, 'text', 'Hi {{ name }}!', $2)`, [prompt.id, admin.id]);
    await client.query(`UPDATE prompts SET latest_version = 2 WHERE id = $1`, [prompt.id]);
    await client.query(`INSERT INTO prompt_labels (prompt_id, name, version) VALUES ($1, 'production', 1)`, [prompt.id]);
  });
  const fetchProduction = () => fetch(`${E2E.appUrl}/api/v1/prompts/checkout/greeting`, { headers: { authorization: `Bearer ${copied}` } });
  const served = await fetchProduction();
  expect(served.status).toBe(200);
  expect(await served.json()).toMatchObject({ name: "checkout/greeting", version: 1, type: "text", template: "Hello {{ name }}", labels: ["production"] });
  // The copied pair is what a Langfuse SDK sends (HTTP Basic publicKey:secretKey).
  const langfuse = await fetch(`${E2E.appUrl}/api/public/v2/prompts/checkout%2Fgreeting`, {
    headers: { authorization: `Basic ${Buffer.from(`${publicKey}:${copied}`).toString("base64")}` },
  });
  expect(langfuse.status).toBe(200);
  expect(await langfuse.json()).toMatchObject({ name: "checkout/greeting", version: 1, type: "text", prompt: "Hello {{ name }}", labels: ["production"] });

  // Revoke asks first, then the row says Revoked and offers no Revoke; the database keeps when.
  const revokeButton = keyRow(page, "Checkout service").getByRole("button", { name: "Revoke Checkout service" });
  await revokeButton.click();
  const confirm = page.getByRole("alertdialog", { name: "Revoke API key" });
  await expect(confirm).toContainText("Programs using Checkout service stop working at once.");
  await confirm.getByRole("button", { name: "Revoke key" }).click();
  await expect(confirm).toBeHidden();
  await expect(toast(page, "API key revoked")).toBeVisible();
  await expect(keyRow(page, "Checkout service")).toContainText("Revoked");
  await expect(revokeButton).toHaveCount(0);
  await expect(page.getByTestId("api-keys-card").getByRole("button", { name: "Create API key" })).toBeFocused();
  expect((await keysOf(team.id))[0]!.revoked_at).toBeInstanceOf(Date);
  // The next call with the revoked key is refused.
  const refused = await fetchProduction();
  expect(refused.status).toBe(401);
  expect(await refused.json()).toMatchObject({ error: { code: "UNAUTHORIZED" } });
  expect(errors).toEqual([]);
});

test("a key with write, run, delete and an expiry: the list shows them; Create key waits for a name; Escape forgets the key", async ({ page }) => {
  const { admin, team } = await world();
  await signIn(page, admin.email);
  await page.goto("/teams");
  await page.getByTestId("api-keys-card").getByRole("button", { name: "Create API key" }).click();
  const dialog = page.getByRole("dialog", { name: "Create API key" });
  await expect(dialog.getByRole("button", { name: "Create key" })).toBeDisabled();
  await dialog.getByRole("textbox", { name: "Name" }).fill("   ");
  await expect(dialog.getByRole("button", { name: "Create key" })).toBeDisabled();
  await dialog.getByRole("textbox", { name: "Name" }).fill("Prompt sync");
  await dialog.getByRole("checkbox", { name: /^Write/ }).check();
  await dialog.getByRole("checkbox", { name: /^Run/ }).check();
  await dialog.getByRole("checkbox", { name: /^Delete/ }).check();
  await dialog.getByRole("combobox", { name: "Expires" }).click();
  await page.getByRole("option", { name: "30 days" }).click();
  await dialog.getByRole("button", { name: "Create key" }).click();
  const shown = page.getByRole("dialog", { name: "API key created" });
  await expect(shown.getByRole("textbox", { name: "API key" })).toHaveValue(/^promptly_/);
  // Escape closes it too, and the key is gone with it.
  await page.keyboard.press("Escape");
  await expect(shown).toBeHidden();

  const [stored] = await keysOf(team.id);
  expect(stored).toMatchObject({ name: "Prompt sync", labels: [], scopes: ["read", "write", "run", "delete"] });
  expect(stored!.expires_at).toBeInstanceOf(Date);
  const row = keyRow(page, "Prompt sync");
  await expect(row).toContainText("Any label");
  await expect(row).toContainText("read, write, run, delete");
  // Expires shows a date, last used still Never.
  await expect(row.getByRole("cell").nth(8)).not.toHaveText("Never");
  await expect(row.getByRole("cell").nth(7)).toHaveText("Never");

  // Opening the dialog again starts empty: nothing of the last key is left.
  await page.getByTestId("api-keys-card").getByRole("button", { name: "Create API key" }).click();
  await expect(page.getByRole("dialog", { name: "Create API key" }).getByRole("textbox", { name: "Name" })).toHaveValue("");
});

test("a team editor sees the team but no API keys", async ({ page }) => {
  const { editor } = await world();
  await signIn(page, editor.email);
  await page.goto("/teams");
  await expect(page.getByTestId("team-member-row").filter({ hasText: "Kim Keymaker" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "API keys" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Create API key" })).toHaveCount(0);
});

test("a list of keys that fails to load says so, and Try again brings it back", async ({ page }) => {
  test.setTimeout(60_000);
  const { admin } = await world();
  await signIn(page, admin.email);
  await page.context().addCookies([{ name: "promptly-test-faults", value: "apiKeys.list", url: E2E.appUrl }]);
  await page.goto("/teams");
  const card = page.getByTestId("api-keys-card");
  // Queries retry three times before they give up.
  await expect(card.getByText("The API keys could not be loaded")).toBeVisible({ timeout: 25_000 });
  await expect(card).not.toContainText("No API keys yet.");
  await page.context().clearCookies({ name: "promptly-test-faults" });
  await card.getByRole("button", { name: "Try again" }).click();
  await expect(card).toContainText("No API keys yet.");
});

test("at 375 px the keys table scrolls in its own frame, never the page, and the card and its dialogs pass axe", async ({ page }) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 375, height: 800 });
  const { admin, team } = await world();
  await signIn(page, admin.email);
  await callMutation(page.request, "apiKeys.create", { teamId: team.id, name: "Nightly evaluation runner", labels: ["production", "staging"], expiresInDays: 30 });
  const revoked = await callMutation(page.request, "apiKeys.create", { teamId: team.id, name: "Old importer", scopes: ["write"] });
  await callMutation(page.request, "apiKeys.revoke", { id: revoked.id });
  await page.goto("/teams");
  await expect(keyRow(page, "Old importer")).toContainText("Revoked");
  await expect(keyRow(page, "Old importer").getByRole("button", { name: /^Revoke/ })).toHaveCount(0);
  // Newest first.
  await expect(page.getByTestId("api-key-row").first()).toHaveAttribute("data-name", "Old importer");
  await page.waitForLoadState("networkidle");
  const widths = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(widths.scrollWidth).toBeLessThanOrEqual(widths.innerWidth);
  const frame = page.getByRole("region", { name: "API keys" });
  await expect(frame).toHaveAttribute("tabindex", "0");
  await expect(frame).toHaveAccessibleDescription("Scroll sideways for more");
  // The frame's far end holds the Revoke buttons: off screen until the frame, not the page, scrolls.
  await frame.scrollIntoViewIfNeeded();
  const revoke = page.getByRole("button", { name: "Revoke Nightly evaluation runner" });
  await expect(revoke).not.toBeInViewport();
  await frame.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
  await expect(revoke).toBeInViewport();
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByRole("button", { name: "Create API key" }).click();
  const dialog = page.getByRole("dialog", { name: "Create API key" });
  await dialog.getByRole("textbox", { name: "Name" }).fill("");
  await dialog.getByRole("textbox", { name: "Name" }).fill("Narrow screen key");
  await dialog.getByRole("textbox", { name: "Labels" }).fill("production, latest, production");
  expect(await seriousViolations(page)).toEqual([]);
  await dialog.getByRole("button", { name: "Create key" }).click();
  const shown = page.getByRole("dialog", { name: "API key created" });
  await expect(shown.getByRole("button", { name: "Copy API key" })).toBeFocused();
  await expect(shown.getByRole("button", { name: "Copy API key" })).toBeInViewport({ ratio: 1 });
  expect(await seriousViolations(page)).toEqual([]);
  // A click outside does not throw the key away; Done does.
  await page.mouse.click(5, 5);
  await expect(shown).toBeVisible();
  await shown.getByRole("button", { name: "Done" }).click();
  await expect(keyRow(page, "Narrow screen key")).toContainText("latest");
  expect((await keysOf(team.id)).find((key) => key.name === "Narrow screen key")?.labels).toEqual(["production", "latest"]);
});

test("a team admin lets the team's production generations keep their text; an editor reads the setting and has no switch", async ({ page }) => {
  const errors = consoleErrors(page);
  const { admin, editor, team } = await world();
  await signIn(page, admin.email);
  await page.goto("/teams");
  const card = page.getByTestId("production-text-card");
  await expect(card).toContainText("keep only their figures");
  const keep = card.getByRole("checkbox", { name: /^Keep generations' input and output text/ });
  await expect(keep).not.toBeChecked();
  await keep.check();
  await expect(toast(page, "Generations' text is kept from now on")).toBeVisible();
  await expect(card).toContainText("up to 32 KB each. Turning this off deletes the text kept so far.");
  const stored = () => withDb(async (client) => (await client.query<{ keep: boolean }>(`SELECT keep_generation_text AS keep FROM teams WHERE id = $1`, [team.id])).rows[0]!.keep);
  expect(await stored()).toBe(true);
  expect(errors).toEqual([]);

  await page.context().clearCookies();
  await signIn(page, editor.email);
  await page.goto("/teams");
  await expect(page.getByTestId("production-text-card")).toContainText("up to 32 KB each");
  await expect(page.getByTestId("production-text-card").getByRole("checkbox")).toHaveCount(0);
});
