// Authentication end to end: sign-up with the emailed confirmation, password sign-in that
// returns to the page one came from, sign-out, magic links (single use), and password reset.
import { expect, test } from "@playwright/test";
import { MSG } from "@promptly/shared";
import { PASSWORD, callMutation, createAccount, signIn, uniqueEmail, withDb } from "./support/accounts.ts";
import { E2E } from "./support/env.ts";
import { SUBJECTS, linkIn, mailIds, signInWithForm, waitForMail } from "./support/auth.ts";
import { seriousViolations } from "./support/axe.ts";
import { consoleErrors } from "./support/console.ts";
import { visit } from "./support/visit.ts";

test("sign up, confirm the email from the mail catcher, sign in back to where one was ('Welcome!'), sign out, sign in again ('Welcome back!')", async ({ page }) => {
  const errors = consoleErrors(page, { allow4xx: true });
  const email = uniqueEmail("signup");

  await page.goto("/auth/signup");
  // Validation on submit, in the spec's words.
  await page.getByRole("button", { name: "Sign Up" }).click();
  await expect(page.getByText("Required")).toHaveCount(3);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("12345");
  await page.getByLabel("Confirm Password").fill("54321");
  await page.getByRole("button", { name: "Sign Up" }).click();
  await expect(page.getByText("Password must be at least 6 characters")).toBeVisible();
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  // Revalidated on change.
  await expect(page.getByText("Password must be at least 6 characters")).toHaveCount(0);
  await page.getByRole("button", { name: "Sign Up" }).click();
  await expect(page.getByText("Passwords do not match")).toBeVisible();
  await page.getByLabel("Confirm Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign Up" }).click();

  await expect(page.getByRole("heading", { name: "Registration successful!" })).toBeVisible();
  await expect(page.getByText("Account created")).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await expect(page.getByRole("button", { name: "Go to login page" })).toBeVisible();
  // The 3-second redirect to the sign-in screen.
  await expect(page).toHaveURL(/\/auth\/signin\?signup=success$/, { timeout: 6_000 });

  // Before confirming, sign-in is refused with the offer to resend.
  await signInWithForm(page, email, PASSWORD);
  await expect(page.getByRole("alert").filter({ hasText: "Email not confirmed" }).first()).toBeVisible();
  const seen = await mailIds(email);
  await page.getByRole("button", { name: "Resend confirmation email" }).click();
  await expect(page.getByText("Confirmation email sent")).toBeVisible();
  // The resent link (the first one is revoked by it).
  const mail = await waitForMail(email, SUBJECTS.verification, seen);

  // Opening the link only shows a page; the button confirms.
  await page.goto(linkIn(mail, "confirm-email"));
  await expect(page.getByRole("heading", { name: "Confirm your email" })).toBeVisible();
  await page.getByRole("button", { name: "Confirm email" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Email confirmed successfully!" })).toHaveClass(/bg-green-50/);
  await expect(page).toHaveURL(/\/auth\/signin$/);

  // A protected page sends us to sign-in, remembering it; signing in returns there.
  await page.goto("/settings/profile");
  await expect(page).toHaveURL(/\/auth\/signin\?redirect=%2Fsettings%2Fprofile$/);
  await signInWithForm(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/settings\/profile$/);
  await expect(page.getByText("Login successful")).toBeVisible();
  // The account's first sign-in is greeted as a first (the refused attempt above did not count).
  await expect(page.getByText("Welcome!", { exact: true })).toBeVisible();
  await expect(page.getByText("Welcome back!")).toHaveCount(0);

  // Signed in, the auth screens send us home.
  await page.goto("/auth/signin");
  await expect(page).toHaveURL(/\/$/);

  await page.getByRole("button", { name: "User menu" }).click();
  await page.getByRole("menuitem", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/auth\/signin/);
  await page.goto("/settings/profile");
  await expect(page).toHaveURL(/\/auth\/signin\?redirect=/);

  // The second sign-in is a return.
  await signInWithForm(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/settings\/profile$/);
  await expect(page.getByText("Welcome back!", { exact: true })).toBeVisible();
  await expect(page.getByText("Welcome!", { exact: true })).toHaveCount(0);
  expect(errors).toEqual([]);
});

test("an unknown address and a wrong password get the same inline message", async ({ page }) => {
  const errors = consoleErrors(page, { allow4xx: true });
  const account = await createAccount();
  await page.goto("/auth/signin");
  await signInWithForm(page, account.email, "wrong-password");
  await expect(page.getByRole("alert").filter({ hasText: "Login failed" })).toContainText("Invalid login credentials");
  // Told once, on the card: not also in a toast.
  await expect(page.getByText("Invalid login credentials")).toHaveCount(1);
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(0);
  await page.reload();
  await signInWithForm(page, uniqueEmail("nobody"), "wrong-password");
  await expect(page.getByRole("alert").filter({ hasText: "Login failed" })).toContainText("Invalid login credentials");
  await expect(page.getByText("Invalid login credentials")).toHaveCount(1);
  expect(errors).toEqual([]);
});

test("magic link sign-in through the mail catcher; the same link fails the second time", async ({ page, browser }) => {
  const errors = consoleErrors(page, { allow4xx: true });
  const account = await createAccount();
  await page.goto("/auth/signin");
  await page.getByRole("button", { name: "Use Magic Link" }).click();
  await expect(page.getByLabel("Password", { exact: true })).toHaveCount(0);
  await page.getByLabel("Email").fill(account.email);
  await page.getByRole("button", { name: "Send Magic Link" }).click();
  // A success, told once and looking like one.
  const sent = page.getByRole("status").filter({ hasText: "Magic link sent" });
  await expect(sent).toContainText("Check your email for the login link");
  await expect(sent).toHaveClass(/bg-green-50/);
  await expect(page.getByText("Magic link sent")).toHaveCount(1);
  await expect(page.getByRole("button", { name: "Use Password" })).toBeVisible();

  const link = linkIn(await waitForMail(account.email, SUBJECTS.magicLink), "magic-link");
  await page.goto(link);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText("Login successful")).toBeVisible();
  // The account had never signed in: the link's sign-in is its first.
  await expect(page.getByText("Welcome!", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "User menu" })).toBeVisible();

  // The same link, used again in another browser, fails.
  const other = await browser.newContext({ baseURL: E2E.appUrl });
  const second = await other.newPage();
  await second.goto(link);
  await second.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(second.getByRole("alert").filter({ hasText: "This link is invalid or has expired." }).first()).toBeVisible();
  await second.goto("/settings/profile");
  await expect(second).toHaveURL(/\/auth\/signin\?redirect=/);
  await other.close();
  expect(errors).toEqual([]);
});

test("forgot password, reset from the mail: old password refused, new accepted, old sessions gone", async ({ page, browser }) => {
  const errors = consoleErrors(page, { allow4xx: true });
  const account = await createAccount();
  const NEW_PASSWORD = "a-brand-new-password";

  // A session elsewhere that the reset must end.
  const elsewhere = await browser.newContext({ baseURL: E2E.appUrl });
  const elsewherePage = await elsewhere.newPage();
  await signIn(elsewherePage, account.email);
  await elsewherePage.goto("/settings/profile");
  await expect(elsewherePage).toHaveURL(/\/settings\/profile$/);

  await page.goto("/auth/signin");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page).toHaveURL(/\/auth\/forgot-password$/);
  await page.getByRole("button", { name: "Send Reset Link" }).click();
  await expect(page.getByText("Required")).toBeVisible();
  await page.getByLabel("Email").fill("not-an-email");
  await expect(page.getByText("Invalid email address")).toBeVisible();
  await page.getByLabel("Email").fill(account.email);
  await page.getByRole("button", { name: "Send Reset Link" }).click();
  const resetSent = page.getByRole("status").filter({ hasText: "Password reset email sent" });
  await expect(resetSent).toContainText("Check your email for a link to reset your password.");
  await expect(resetSent).toHaveClass(/bg-green-50/);
  await expect(page.getByText("Check your email for a link to reset your password.")).toHaveCount(1);
  // The success look keeps its text readable (contrast) for axe.
  expect(await seriousViolations(page)).toEqual([]);

  await page.goto(linkIn(await waitForMail(account.email, SUBJECTS.passwordReset), "reset-password"));
  await page.getByLabel("New Password").fill(NEW_PASSWORD);
  await page.getByLabel("Confirm Password").fill("something-else");
  await page.getByRole("button", { name: "Reset Password" }).click();
  await expect(page.getByText("Passwords do not match")).toBeVisible();
  await page.getByLabel("Confirm Password").fill(NEW_PASSWORD);
  await page.getByRole("button", { name: "Reset Password" }).click();
  await expect(page.getByText("Your password has been updated.")).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/signin$/);

  // The other browser's session is gone.
  await elsewherePage.reload();
  await expect(elsewherePage).toHaveURL(/\/auth\/signin\?redirect=/);
  await elsewhere.close();

  await signInWithForm(page, account.email, PASSWORD);
  await expect(page.getByRole("alert").filter({ hasText: "Invalid login credentials" }).first()).toBeVisible();
  await page.reload();
  await signInWithForm(page, account.email, NEW_PASSWORD);
  await expect(page).toHaveURL(/\/$/);
  expect(errors).toEqual([]);
});

test("the sign-up link is not followed for an existing address: same answer, no second account", async ({ request }) => {
  const account = await createAccount();
  expect(await callMutation(request, "auth.signUp", { email: account.email, password: PASSWORD })).toEqual({ ok: true });
  await waitForMail(account.email, /You already have a Promptly account/);
  const { rows } = await withDb((client) => client.query<{ n: number }>(`SELECT count(*)::int AS n FROM users WHERE email = $1`, [account.email]));
  expect(rows[0]!.n).toBe(1);
});

test("a session that ends while the app is open: 'Authentication Error', sign in again, back where one was going", async ({ page }) => {
  const account = await createAccount();
  await signIn(page, account.email);
  await visit(page, "/settings/profile", "load");
  await expect(page.getByRole("button", { name: "Save Changes" })).toBeVisible();

  await page.evaluate(() => localStorage.setItem("promptly.activeTeamId", "a-team-of-this-session"));
  // The session ends on the server (expired, or ended from another device); the page still shows the app.
  // The next request finds out. (Not a link: hovering one preloads its page, which would find out first.)
  // The page has had all it reads (visit waited for that): a read still on its way would find out first
  // and leave for sign-in before Save Changes is pressed (seen on a busy machine).
  await withDb((client) => client.query(`DELETE FROM sessions WHERE user_id = $1`, [account.id]));
  await page.getByLabel("Full Name").fill("Still Here");
  await page.getByRole("button", { name: "Save Changes" }).click();

  await expect(page.getByText("Authentication Error")).toBeVisible();
  await expect(page.getByText("Please log in again to continue.")).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/signin\?redirect=%2Fsettings%2Fprofile$/);
  // As on sign-out, the saved team goes (the next person at this browser may be someone else).
  expect(await page.evaluate(() => localStorage.getItem("promptly.activeTeamId"))).toBeNull();
  await signInWithForm(page, account.email, PASSWORD);
  await expect(page).toHaveURL("/settings/profile");
  await expect(page.getByText("Authentication Error")).toHaveCount(0);
});

test("a confirmation link opened in another browser asks for the account's password first", async ({ page, browser }) => {
  const email = uniqueEmail("elsewhere");
  // Signed up in this browser…
  await callMutation(page.request, "auth.signUp", { email, password: PASSWORD });
  const link = linkIn(await waitForMail(email, SUBJECTS.verification), "confirm-email");

  // …confirmed in another one (a phone's mail app, say).
  const other = await browser.newContext({ baseURL: E2E.appUrl });
  const phone = await other.newPage();
  const errors = consoleErrors(phone, { allow4xx: true });
  await phone.goto(link);
  await phone.getByRole("button", { name: "Confirm email" }).click();
  await expect(phone.getByText(MSG.confirmWithPassword)).toBeVisible();
  await expect(phone.getByRole("link", { name: "Forgot password?" })).toBeVisible();
  await phone.getByLabel("Password").fill("not-the-password");
  await phone.getByRole("button", { name: "Confirm email" }).click();
  await expect(phone.getByText(MSG.incorrectPassword)).toBeVisible();
  await phone.getByLabel("Password").fill(PASSWORD);
  await phone.getByRole("button", { name: "Confirm email" }).click();
  await expect(phone).toHaveURL(/\/auth\/signin/);
  await expect(phone.getByText("Email confirmed successfully!")).toBeVisible();
  await signInWithForm(phone, email, PASSWORD);
  await expect(phone.getByRole("button", { name: "User menu" })).toBeVisible();
  await other.close();
  expect(errors).toEqual([]);
});
