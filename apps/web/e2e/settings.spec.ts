// Account settings in a real browser: the avatar upload seen in the header's user menu,
// a refused fake image, password change, notifications, session timeout, layout and debug page.
import { expect, test, type Page } from "@playwright/test";
import { PASSWORD, callMutation, createAccount, signIn, withDb } from "./support/accounts.ts";
import { consoleErrors } from "./support/console.ts";

const AVATAR_FIXTURE = new URL("./fixtures/avatar.png", import.meta.url).pathname;
/** Failed requests the test provokes on purpose show up as console errors in Chromium. */

async function signedInAt(page: Page, path: string, fullName = "Ada Lovelace") {
  const account = await createAccount({ fullName });
  await signIn(page, account.email);
  await page.goto(path);
  return account;
}

/** The avatar image inside the header's user menu button. */
const headerAvatar = (page: Page) => page.getByRole("button", { name: "User menu" }).locator("img");

test("an uploaded PNG avatar shows in the header's user menu after a reload; a renamed text file is refused and the old avatar stays", async ({ page }) => {
  const errors = consoleErrors(page, { allow4xx: true });
  const account = await signedInAt(page, "/settings/profile");
  await expect(page.getByRole("heading", { name: "Account Settings" })).toBeVisible();
  await expect(page.getByRole("button", { name: "User menu" })).toContainText("AL");

  await page.getByLabel("Change avatar").setInputFiles(AVATAR_FIXTURE);
  await expect(page.getByTestId("profile-avatar-image")).toHaveAttribute("src", /^blob:/);
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText("Profile updated", { exact: true })).toBeVisible();
  await expect(page.getByText("Your profile has been successfully updated.")).toBeVisible();

  await page.reload();
  await page.goto("/");
  const avatar = headerAvatar(page);
  await expect(avatar).toHaveAttribute("src", new RegExp(`^/avatars/${account.id}-\\d{13}\\.png$`));
  await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(64);
  const uploadedSrc = await avatar.getAttribute("src");
  const served = await page.request.get(uploadedSrc!);
  expect(served.headers()["content-type"]).toBe("image/png");
  expect(served.headers()["cache-control"]).toContain("immutable");

  // The page names the problem as soon as the file is picked, and keeps showing the old avatar.
  await page.goto("/settings/profile");
  const textFile = Buffer.from("This is a text file, renamed.\n");
  await page.getByLabel("Change avatar").setInputFiles({ name: "holiday.png", mimeType: "image/png", buffer: textFile });
  await expect(page.getByText("Error uploading avatar", { exact: true })).toBeVisible();
  await expect(page.getByText("The avatar must be a PNG, JPEG, GIF or WebP image.")).toBeVisible();
  await expect(page.getByTestId("profile-avatar-image")).toHaveAttribute("src", uploadedSrc!);
  // The server refuses it on its own too (the page only mirrors the rule).
  const refused = callMutation(page.request, "profile.update", {
    fullName: "Ada Changed",
    username: "",
    avatar: { fileName: "holiday.png", contentType: "image/png", dataBase64: textFile.toString("base64") },
  });
  await expect(refused).rejects.toThrow("The avatar must be a PNG, JPEG, GIF or WebP image.");

  await page.reload();
  await expect(page.getByLabel("Full Name")).toHaveValue("Ada Lovelace");
  await page.goto("/");
  await expect(headerAvatar(page)).toHaveAttribute("src", uploadedSrc!);
  expect(errors).toEqual([]);
});

test("the settings layout: title, side menu, profile fields and 'Back to Dashboard'", async ({ page }) => {
  const errors = consoleErrors(page);
  await signedInAt(page, "/");
  await page.goto("/settings");
  const menu = page.getByRole("navigation", { name: "Settings" });
  for (const item of ["Profile", "Password", "Notifications", "Security", "Debug"]) await expect(menu.getByRole("link", { name: item })).toBeVisible();
  await expect(page.getByLabel("Full Name")).toHaveValue("Ada Lovelace");
  await expect(page.getByLabel("Email")).toHaveAttribute("readonly", "");
  await menu.getByRole("link", { name: "Password" }).click();
  await expect(page).toHaveURL(/\/settings\/password$/);
  await page.getByRole("button", { name: "Back to Dashboard" }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await page.getByRole("button", { name: "Back to Dashboard" }).click();
  await expect(page).toHaveURL(/\/$/);

  // Opened on its own (no history to go back to): to /.
  const fresh = await page.context().newPage();
  await fresh.goto("/settings/notifications");
  await fresh.getByRole("button", { name: "Back to Dashboard" }).click();
  await expect(fresh).toHaveURL(/\/$/);
  expect(errors).toEqual([]);
});

test("password: wrong current password refused, strength feedback, then updated", async ({ page }) => {
  const errors = consoleErrors(page, { allow4xx: true });
  await signedInAt(page, "/settings/password");
  await expect(page.getByText("No password provided.")).toBeVisible();
  await page.getByRole("button", { name: "Update Password" }).click();
  await expect(page.getByText("Current password is required")).toBeVisible();
  await expect(page.getByText("Password must be at least 8 characters")).toBeVisible();

  await page.getByLabel("Current Password").fill("not-the-password");
  await page.getByLabel("New Password", { exact: true }).fill("abcdefghi");
  await expect(page.getByText("Moderate password. Add more complexity for better security.")).toBeVisible();
  await page.getByLabel("New Password", { exact: true }).fill("Abcdefghi1!x");
  await expect(page.getByText("Very strong password!")).toBeVisible();
  await expect(page.getByTestId("password-strength")).toHaveAttribute("data-color", "green");
  await page.getByLabel("Confirm New Password").fill("Abcdefghi1!y");
  await page.getByRole("button", { name: "Update Password" }).click();
  await expect(page.getByText("Passwords don't match")).toBeVisible();
  await page.getByLabel("Confirm New Password").fill("Abcdefghi1!x");
  await page.getByRole("button", { name: "Update Password" }).click();
  // Told once, under the field, not also in the 'Error updating password' toast.
  await expect(page.getByRole("alert").filter({ hasText: "Current password is incorrect" })).toBeVisible();
  await expect(page.getByText("Current password is incorrect")).toHaveCount(1);
  await expect(page.getByText("Error updating password", { exact: true })).toHaveCount(0);

  await page.getByLabel("Current Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Update Password" }).click();
  await expect(page.getByText("Password updated", { exact: true })).toBeVisible();
  await expect(page.getByText("Your password has been updated successfully.")).toBeVisible();
  await expect(page.getByLabel("Current Password")).toHaveValue("");
  expect(errors).toEqual([]);
});

test("notifications: spec defaults, saved on the server", async ({ page }) => {
  const errors = consoleErrors(page);
  await signedInAt(page, "/settings/notifications");
  const toggle = (name: string) => page.getByRole("switch", { name });
  await expect(toggle("Email Notifications")).toBeChecked();
  await expect(toggle("Push Notifications")).not.toBeChecked();
  await expect(toggle("In-App Notifications")).toBeChecked();
  await expect(toggle("Marketing Emails")).not.toBeChecked();
  await toggle("Push Notifications").click();
  await toggle("Email Notifications").click();
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText("Notification settings saved", { exact: true })).toBeVisible();
  await expect(page.getByText("Your notification preferences have been updated.")).toBeVisible();
  await page.reload();
  await expect(toggle("Push Notifications")).toBeChecked();
  await expect(toggle("Email Notifications")).not.toBeChecked();
  expect(errors).toEqual([]);
});

test("security page: score with hint, session timeout, password health, activity and status", async ({ page }) => {
  const errors = consoleErrors(page);
  await signedInAt(page, "/settings/security");
  // A fresh account: password set now (+30), default timeout 30 (+20), no two-factor.
  await expect(page.getByTestId("security-score")).toHaveText("50");
  await expect(page.getByText(/Improve your score/)).toBeVisible();
  const activity = page.getByRole("table", { name: "Recent account activity" });
  for (const column of ["Date", "Device", "Location"]) await expect(activity.getByRole("columnheader", { name: column })).toBeVisible();
  await expect(activity.getByRole("row")).toHaveCount(2);
  await expect(activity).toContainText("Unknown Location");
  await expect(page.getByTestId("email-verified")).toHaveText("Yes");
  await expect(page.getByTestId("last-sign-in")).not.toHaveText("Never");
  await expect(page.getByText("Security tip")).toBeVisible();

  await page.getByLabel("Session timeout (minutes)").fill("200");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Session timeout must be between 5 and 120 minutes")).toBeVisible();
  await page.getByLabel("Session timeout (minutes)").fill("15");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Session settings saved", { exact: true })).toBeVisible();
  await expect(page.getByText("Your session timeout has been set to 15 minutes.")).toBeVisible();
  await expect(page.getByTestId("security-score")).toHaveText("60");
  await expect(page.getByText(/Improve your score/)).toHaveCount(0);

  await page.getByRole("button", { name: "Check Password Strength" }).click();
  await expect(page.getByText("Password Health Check", { exact: true })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Session timeout (minutes)")).toHaveValue("15");
  expect(errors).toEqual([]);
});

test("without login events the activity says so; the debugger is unavailable in production builds", async ({ page }) => {
  const account = await signedInAt(page, "/settings/debug");
  await expect(page.getByRole("heading", { name: "Auth Debugger" })).toBeVisible();
  await expect(page.getByText("The Auth Debugger is only available in development builds.")).toBeVisible();
  await withDb((db) => db.query("DELETE FROM login_events WHERE user_id = $1", [account.id]));
  await page.goto("/settings/security");
  await expect(page.getByText("No recent login activity recorded.")).toBeVisible();
});
