// An editor comments with an @mention picked from the autocomplete; the
// mentioned person's bell counts it, the notification opens the prompt on that comment, and the email
// arrives in the catcher (a notification already read in the app when its mail is due is not mailed,
// so the mail is awaited first). Someone mentioned with email notifications off gets no mail, but the bell
// still counts. The e2e server waits 1 s for a digest (e2e-server.mjs).
import { expect, test, type Page } from "@playwright/test";
import { createAccount, createTeamInNewOrganization, signedInPage, signIn, uniqueName, withDb } from "./support/accounts.ts";
import { consoleErrors } from "./support/console.ts";
import { E2E } from "./support/env.ts";
import { createPromptWith } from "./support/prompts.ts";
import { waitForMail } from "./support/teams.ts";

const bell = (page: Page) => page.getByRole("banner").getByRole("button", { name: /^Notifications/ });

/** Picks `name` from the mention listbox after typing '@' and its last word. */
async function mention(page: Page, composer: ReturnType<Page["getByRole"]>, name: string) {
  await composer.pressSequentially(`@${name.split(" ").at(-1)}`);
  const option = page.getByRole("listbox", { name: "People to mention" }).getByRole("option", { name });
  await expect(option).toHaveAttribute("aria-selected", "true");
  await composer.press("Enter");
}


const queuedMails = (recipient: string) =>
  withDb(async (client) => (await client.query(`SELECT count(*)::int AS n FROM outbox WHERE recipient = $1`, [recipient])).rows[0].n as number);

test("a mention reaches the bell and the mailbox; with email off only the bell", async ({ page, browser }) => {
  test.setTimeout(90_000);
  const errors = consoleErrors(page);
  const editor = await createAccount({ fullName: "Eddie Editor" });
  const mentionedName = uniqueName("Mona Mentioned");
  const quietName = uniqueName("Quinn Quiet");
  const mentioned = await createAccount({ fullName: mentionedName });
  const quiet = await createAccount({ fullName: quietName });
  const { organization, team } = await createTeamInNewOrganization([
    { userId: editor.id, role: "editor" },
    { userId: mentioned.id, role: "viewer" },
    { userId: quiet.id, role: "viewer" },
  ]);
  const prompt = await createPromptWith({ organizationId: organization.id, teamId: team.id, authorId: editor.id, title: uniqueName("Tone guide") });
  // Quinn reads notifications in the app only.
  await withDb((client) =>
    client.query(`INSERT INTO notification_preferences (user_id, email_notifications, updated_at) VALUES ($1, false, now())`, [quiet.id]),
  );

  const mentionedPage = await signedInPage(browser, mentioned.email);
  const quietPage = await signedInPage(browser, quiet.email);
  for (const reader of [mentionedPage, quietPage]) {
    await reader.goto("/");
    await expect(bell(reader)).toHaveAccessibleName("Notifications");
  }

  // The editor comments, mentioning both from the autocomplete.
  await signIn(page, editor.email);
  await page.goto(`/prompts/${prompt.id}?tab=comments`);
  const composer = page.getByRole("combobox", { name: "New comment" });
  await composer.click();
  await composer.pressSequentially("Could ");
  await mention(page, composer, mentionedName);
  await composer.pressSequentially(" and ");
  await mention(page, composer, quietName);
  await composer.pressSequentially(" check the tone?");
  await page.getByRole("button", { name: "Post comment" }).click();
  const posted = page.getByRole("article", { name: "Comment by Eddie Editor" }).first();
  await expect(posted).toContainText("check the tone?");
  const commentId = (await posted.getAttribute("id"))!.replace(/^comment-/, "");

  // The mentioned person: the bell counts it (asked for on load and focus), the link lands on the comment.
  await mentionedPage.reload();
  await expect(bell(mentionedPage)).toHaveAccessibleName("Notifications, 1 unread");
  // The mail arrives in the catcher after the digest window, with the one-click link to the notification
  // settings. (A notification read in the app before its mail goes out is left out of it: so, mail first.)
  const mail = await waitForMail(mentioned.email, /^Eddie Editor mentioned you in a comment on /);
  expect(mail.html).toContain(`href="${E2E.appUrl}/settings/notifications"`);
  expect(mail.text).toContain(`/prompts/${prompt.id}?tab=comments&comment=`);
  await bell(mentionedPage).click();
  const panel = mentionedPage.getByRole("dialog", { name: "Notifications" });
  await panel.getByRole("link", { name: /^Eddie Editor mentioned you in a comment on .+\(unread\)/ }).click();
  await expect(mentionedPage).toHaveURL(new RegExp(`/prompts/${prompt.id}\\?.*comment=${commentId}`));
  const linked = mentionedPage.locator(`#comment-${commentId}`);
  await expect(linked).toBeFocused();
  await expect(linked).toContainText("check the tone?");
  await expect(bell(mentionedPage)).toHaveAccessibleName("Notifications");

  // Email off: the bell counts, and no mail was queued (the mentioned person's went out meanwhile).
  await quietPage.reload();
  await expect(bell(quietPage)).toHaveAccessibleName("Notifications, 1 unread");
  expect(await queuedMails(quiet.email)).toBe(0);
  expect(errors).toEqual([]);
});
