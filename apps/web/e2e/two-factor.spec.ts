// Real two-factor authentication in a real browser: enable it with a code
// computed from the shown secret, sign out, sign in needs the code, a wrong code is refused, a
// recovery code works once.
import { expect, test, type Page } from "@playwright/test";
import { PASSWORD, createAccount, signIn } from "./support/accounts.ts";
import { consoleErrors } from "./support/console.ts";
import { totpCode, wrongTotpCode } from "./support/settings.ts";
import { recordSecret } from "./support/secrets.ts";


async function logOut(page: Page) {
  await page.getByRole("button", { name: "User menu" }).click();
  await page.getByRole("menuitem", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/auth\/signin/);
}

async function signInWithPassword(page: Page, email: string) {
  await page.goto("/auth/signin");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
}

test("enable two-factor, then sign-in needs the code; a wrong code is refused; a recovery code works once", async ({ page }) => {
  const errors = consoleErrors(page, { allow4xx: true });
  const account = await createAccount({ fullName: "Grace Hopper" });
  await signIn(page, account.email);
  await page.goto("/settings/security");
  await expect(page.getByTestId("security-score")).toHaveText("50");

  // Setup: the QR code and the secret to type; the code box takes at most 6 characters.
  await page.getByRole("switch", { name: "Two-factor authentication" }).click();
  await expect(page.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  const secret = (await page.getByTestId("two-factor-secret").textContent())!.replace(/\s+/g, "");
  recordSecret("TOTP secret", secret);
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  const codeBox = page.getByLabel("Verification code");
  await expect(codeBox).toHaveAttribute("maxlength", "6");
  await codeBox.fill("123");
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByText("Please enter a 6-digit verification code.")).toBeVisible();
  await codeBox.fill(totpCode(secret));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByText("Two-factor authentication enabled", { exact: true })).toBeVisible();
  await expect(page.getByText("Your account is now more secure.")).toBeVisible();
  const recoveryCodes = await page.getByTestId("recovery-codes").getByRole("listitem").allTextContents();
  expect(recoveryCodes).toHaveLength(10);
  for (const code of recoveryCodes) recordSecret("recovery code", code);
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByTestId("two-factor-status")).toContainText("Enabled");
  await expect(page.getByTestId("security-score")).toHaveText("90");

  // Sign out; signing in now asks for the code.
  await logOut(page);
  await signInWithPassword(page, account.email);
  await expect(page).toHaveURL(/\/auth\/two-factor/);
  await expect(page.getByRole("heading", { name: "Two-factor authentication" })).toBeVisible();
  // The pending session can reach nothing else.
  const me = await page.request.get("/trpc/auth.me");
  expect((await me.json()).result.data.json).toBeNull();

  await page.getByLabel("Verification code").fill(wrongTotpCode(secret));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Invalid verification code" })).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/two-factor/);

  // The enabling code's step is spent: the authenticator's next code (one step ahead) is accepted.
  await page.getByLabel("Verification code").fill(totpCode(secret, 1));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByText("Login successful", { exact: true })).toBeVisible();
  // The code step tells the greeting too: this account signed in before.
  await expect(page.getByText("Welcome back!", { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("button", { name: "User menu" })).toBeVisible();

  // A recovery code instead of the app: works once.
  await logOut(page);
  await signInWithPassword(page, account.email);
  await page.getByRole("button", { name: "Use a recovery code instead" }).click();
  await page.getByLabel("Recovery code").fill(recoveryCodes[0]!);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("button", { name: "User menu" })).toBeVisible();

  await logOut(page);
  await signInWithPassword(page, account.email);
  await page.getByRole("button", { name: "Use a recovery code instead" }).click();
  await page.getByLabel("Recovery code").fill(recoveryCodes[0]!);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Invalid recovery code" })).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/two-factor/);
  await page.getByLabel("Recovery code").fill(recoveryCodes[1]!);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/$/);

  // The Security page counts what is left.
  await page.goto("/settings/security");
  await expect(page.getByTestId("two-factor-status")).toContainText("8 recovery codes left");
  expect(errors).toEqual([]);
});

test("turning two-factor off needs a current code", async ({ page }) => {
  const errors = consoleErrors(page, { allow4xx: true });
  const account = await createAccount();
  await signIn(page, account.email);
  await page.goto("/settings/security");
  await page.getByRole("switch", { name: "Two-factor authentication" }).click();
  const secret = (await page.getByTestId("two-factor-secret").textContent())!.replace(/\s+/g, "");
  recordSecret("TOTP secret", secret);
  await page.getByLabel("Verification code").fill(totpCode(secret));
  await page.getByRole("button", { name: "Verify" }).click();
  await page.getByRole("button", { name: "Done" }).click();

  await page.getByRole("switch", { name: "Two-factor authentication" }).click();
  await expect(page.getByTestId("two-factor-disable")).toBeVisible();
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByTestId("two-factor-disable")).toHaveCount(0);
  await expect(page.getByRole("switch", { name: "Two-factor authentication" })).toBeChecked();

  await page.getByRole("switch", { name: "Two-factor authentication" }).click();
  await page.getByLabel("Verification code").fill(wrongTotpCode(secret));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Invalid verification code" })).toBeVisible();
  await page.getByLabel("Verification code").fill(totpCode(secret, 1));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByText("Two-factor authentication disabled", { exact: true })).toBeVisible();
  await expect(page.getByText("Your account is now less secure.")).toBeVisible();
  await expect(page.getByTestId("two-factor-status")).toHaveText("Disabled");
  expect(errors).toEqual([]);
});
