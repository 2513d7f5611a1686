// Comments end to end: an editor comments with an @mention picked from the autocomplete
// by keyboard, replies, edits (shown as edited) and deletes a thread with a reply (its stub stays);
// a link to a comment opens the tab on it; the card's comment count follows; a long thread shows its newest replies
// and the earlier ones a page at a time, a new reply at once, and a link to an early reply finds it.
import { expect, test, type Page } from "@playwright/test";
import { COMMENT_MSG } from "@promptly/shared";
import { createAccount, createOrganizationWith, createTeamWith, signIn, uniqueName, withDb } from "./support/accounts.ts";
import { consoleErrors } from "./support/console.ts";
import { createPromptWith } from "./support/prompts.ts";

const card = (page: Page, title: string) => page.getByTestId("prompt-card").filter({ has: page.getByRole("heading", { name: title }) });
const commentCount = (page: Page, title: string, count: number) => card(page, title).getByText(`${count} comments`, { exact: true });

/** An editor's prompt titled `title` in a team where a viewer named `mentionedName` may be mentioned. */
async function discussion(title: string) {
  const editor = await createAccount({ fullName: "Eddie Editor", role: "team_lead" });
  const mentionedName = uniqueName("Vera");
  const viewer = await createAccount({ fullName: mentionedName });
  const organization = await createOrganizationWith([
    { userId: editor.id, role: "member" },
    { userId: viewer.id, role: "member" },
  ]);
  const team = await createTeamWith(organization.id, [
    { userId: editor.id, role: "editor" },
    { userId: viewer.id, role: "viewer" },
  ]);
  const prompt = await createPromptWith({ organizationId: organization.id, teamId: team.id, authorId: editor.id, title });
  return { editor, mentionedName, prompt };
}

test("an editor comments with an @mention from the autocomplete, replies, edits and deletes; links open a comment; the card counts", async ({ page }) => {
  test.setTimeout(90_000);
  const errors = consoleErrors(page);
  const title = uniqueName("Discussed prompt");
  const { editor, mentionedName, prompt } = await discussion(title);

  await signIn(page, editor.email);
  await page.goto("/prompts");
  await expect(commentCount(page, title, 0)).toBeVisible();
  await card(page, title).getByRole("link", { name: title }).click();
  await page.getByRole("tab", { name: "Comments" }).click();
  await expect(page).toHaveURL(/tab=comments/);

  // The mention: '@' and part of the name open the listbox; Enter picks the highlighted person.
  const composer = page.getByRole("combobox", { name: "New comment" });
  await composer.click();
  await composer.pressSequentially(`Thanks @${mentionedName.split(" ")[1]}`);
  const listbox = page.getByRole("listbox", { name: "People to mention" });
  await expect(listbox.getByRole("option", { name: mentionedName })).toHaveAttribute("aria-selected", "true");
  await expect(composer).toHaveAttribute("aria-expanded", "true");
  await composer.press("Enter");
  await expect(listbox).toBeHidden();
  await composer.pressSequentially("please check the **tone**.");
  // The box shows the name; the stored text has the token (the posted comment links the person).
  await expect(composer).toHaveValue(`Thanks @${mentionedName} please check the **tone**.`);
  await page.getByRole("button", { name: "Post comment" }).click();
  await expect(page.getByRole("status").filter({ hasText: COMMENT_MSG.posted })).toBeAttached();

  const thread = page.getByRole("article", { name: "Comment by Eddie Editor" }).first();
  await expect(thread.locator(".comment-mention")).toHaveText(`@${mentionedName}`);
  await expect(thread.locator("strong")).toHaveText("tone");
  await expect(composer).toHaveValue("");

  // A reply under the thread.
  await thread.getByRole("button", { name: "Reply" }).click();
  const replyBox = page.getByRole("combobox", { name: "Reply" });
  await expect(replyBox).toBeFocused();
  await replyBox.fill("Done: see v1.");
  await page.getByRole("button", { name: "Post reply" }).click();
  const replies = page.getByRole("list", { name: "Replies" });
  await expect(replies.getByRole("article")).toHaveCount(1);
  await expect(replies).toContainText("Done: see v1.");

  // Edit the reply: shown as edited.
  const reply = replies.getByRole("article").first();
  await reply.getByRole("button", { name: "Edit" }).click();
  const editBox = page.getByRole("combobox", { name: "Edit comment" });
  await editBox.fill("Done: see v1, line 2.");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(reply).toContainText("Done: see v1, line 2.");
  await expect(reply.getByText("(edited)")).toBeVisible();

  // A link to the reply (as notifications make them) opens the tab on it.
  const replyId = (await reply.getAttribute("id"))!.replace(/^comment-/, "");
  await page.goto(`/prompts/${prompt.id}?comment=${replyId}&tab=comments`);
  const linked = page.locator(`#comment-${replyId}`);
  await expect(linked).toBeFocused();
  await expect(linked).toHaveAttribute("data-highlighted", "true");

  // Delete the thread: it has a reply, so a stub stays; the card counts the reply only.
  await page.getByRole("article", { name: "Comment by Eddie Editor" }).first().getByRole("button", { name: "Delete" }).first().click();
  const confirm = page.getByRole("alertdialog", { name: "Delete your comment?" });
  await confirm.getByRole("button", { name: "Delete comment" }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole("article", { name: COMMENT_MSG.deletedStub })).toBeVisible();
  await expect(page.getByRole("list", { name: "Replies" })).toContainText("Done: see v1, line 2.");
  await expect(page.getByRole("heading", { name: /Comments \(1\)/ })).toBeVisible();

  await page.goto("/prompts");
  await expect(commentCount(page, title, 1)).toBeVisible();
  expect(errors).toEqual([]);
});

test("a mention picked in the middle of a comment puts the caret after the name before the next key is read", async ({ page }) => {
  const { editor, mentionedName, prompt } = await discussion(uniqueName("Caret prompt"));

  await signIn(page, editor.email);
  await page.goto(`/prompts/${prompt.id}?tab=comments`);
  const composer = page.getByRole("combobox", { name: "New comment" });
  await composer.fill("Thanks , see above.");
  // The caret after "Thanks ", then the start of a mention there.
  await composer.evaluate((box: HTMLTextAreaElement) => box.setSelectionRange(7, 7));
  await composer.pressSequentially(`@${mentionedName.split(" ")[1]}`);
  await expect(page.getByRole("listbox", { name: "People to mention" }).getByRole("option", { name: mentionedName })).toHaveAttribute("aria-selected", "true");
  // Enter picks, and the caret is read before the next task (where a key typed at once is handled) and
  // before any frame: React renders the pick in a microtask, so the one queued after it sees the result.
  const after = await composer.evaluate(async (box: HTMLTextAreaElement) => {
    box.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true, cancelable: true }));
    await new Promise<void>((resolve) => queueMicrotask(resolve));
    return { value: box.value, caret: box.selectionStart };
  });
  expect(after.value).toBe(`Thanks @${mentionedName} , see above.`);
  expect(after.caret).toBe(`Thanks @${mentionedName} `.length);
  await composer.pressSequentially("please");
  await expect(composer).toHaveValue(`Thanks @${mentionedName} please, see above.`);
});

/** A thread of the editor's with 120 replies ("Reply 1" the oldest, a second apart); their ids by number. */
async function longThread(prompt: { id: string }, editor: { id: string }) {
  return withDb(async (client) => {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO prompt_comments (prompt_id, author_id, body, created_at) VALUES ($1, $2, 'A long thread', now() - interval '1 hour') RETURNING id`,
      [prompt.id, editor.id],
    );
    const replies = await client.query<{ id: string; n: number }>(
      `INSERT INTO prompt_comments (prompt_id, parent_id, author_id, body, created_at)
       SELECT $1, $2, $3, 'Reply ' || n, now() - interval '1 hour' + n * interval '1 second' FROM generate_series(1, 120) n
       RETURNING id, substring(body from 7)::int AS n`,
      [prompt.id, rows[0]!.id, editor.id],
    );
    return new Map(replies.rows.map((row) => [row.n, row.id]));
  });
}

const repliesOf = (page: Page) => page.getByRole("list", { name: "Replies" }).getByRole("article");

test("a long thread shows its newest 50 replies, and 'Show earlier replies' the rest a page at a time", async ({ page }) => {
  const errors = consoleErrors(page);
  const { editor, prompt } = await discussion(uniqueName("Long thread prompt"));
  await longThread(prompt, editor);

  await signIn(page, editor.email);
  await page.goto(`/prompts/${prompt.id}?tab=comments`);
  const replies = repliesOf(page);
  await expect(replies).toHaveCount(50);
  await expect(replies.first().getByText("Reply 71", { exact: true })).toBeVisible();
  await expect(replies.last().getByText("Reply 120", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Show earlier replies (70)" }).click();
  await expect(replies).toHaveCount(100);
  await expect(replies.first().getByText("Reply 21", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Show earlier replies (20)" }).click();
  await expect(replies).toHaveCount(120);
  await expect(replies.first().getByText("Reply 1", { exact: true })).toBeVisible();
  await expect(replies.last().getByText("Reply 120", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: /Show earlier replies/ })).toBeHidden();
  expect(errors).toEqual([]);
});

test("a reply posted in a long thread shows at once, and the earlier replies still come each once", async ({ page }) => {
  const errors = consoleErrors(page);
  const { editor, prompt } = await discussion(uniqueName("Busy thread prompt"));
  await longThread(prompt, editor);

  await signIn(page, editor.email);
  await page.goto(`/prompts/${prompt.id}?tab=comments`);
  const replies = repliesOf(page);
  await expect(replies).toHaveCount(50);
  await page.getByRole("article").first().getByRole("button", { name: "Reply" }).click();
  await page.getByRole("combobox", { name: "Reply" }).fill("The newest word");
  await page.getByRole("button", { name: "Post reply" }).click();
  await expect(replies.last().getByText("The newest word", { exact: true })).toBeVisible();
  await expect(replies).toHaveCount(50);
  await expect(replies.first().getByText("Reply 72", { exact: true })).toBeVisible();
  // The earlier pages start where the newest 50 end now: Reply 71 is not skipped.
  await page.getByRole("button", { name: "Show earlier replies (71)" }).click();
  await expect(replies).toHaveCount(100);
  await expect(replies.first().getByText("Reply 22", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Show earlier replies (21)" }).click();
  await expect(replies).toHaveCount(121);
  expect(await replies.locator(".comment-markdown").allInnerTexts()).toEqual([
    ...Array.from({ length: 120 }, (_, index) => `Reply ${index + 1}`),
    "The newest word",
  ]);
  expect(errors).toEqual([]);
});

test("a link to an early reply of a long thread loads its earlier replies and focuses it; a deleted one is said to be", async ({ page }) => {
  const errors = consoleErrors(page);
  const { editor, prompt } = await discussion(uniqueName("Linked thread prompt"));
  const ids = await longThread(prompt, editor);

  await signIn(page, editor.email);
  await page.goto(`/prompts/${prompt.id}?comment=${ids.get(10)}&tab=comments`);
  const linked = page.locator(`#comment-${ids.get(10)}`);
  await expect(linked).toBeFocused();
  await expect(linked).toHaveAttribute("data-highlighted", "true");
  await expect(linked.getByText("Reply 10", { exact: true })).toBeVisible();
  await expect(repliesOf(page)).toHaveCount(120);
  await expect(page.getByText("The comment you were sent to is no longer here: it was deleted.")).toBeHidden();

  // A reply deleted since the link was made is looked for among the earlier replies too, and reported.
  await withDb((client) => client.query(`DELETE FROM prompt_comments WHERE id = $1`, [ids.get(5)]));
  await page.goto(`/prompts/${prompt.id}?comment=${ids.get(5)}&tab=comments`);
  await expect(page.getByRole("alert").filter({ hasText: "The comment you were sent to is no longer here: it was deleted." })).toBeVisible();
  await expect(repliesOf(page)).toHaveCount(50);
  await expect(page.getByRole("button", { name: "Show earlier replies (69)" })).toBeVisible();
  expect(errors).toEqual([]);
});
