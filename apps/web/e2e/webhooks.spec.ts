// Webhooks on the Teams page: a team admin adds one pointing at a receiver this test runs, sees the
// signing secret once, a label move reaches the receiver signed, Send test sends a signed ping, the Deliveries log shows it Delivered
// with the answer code, and Redeliver sends it again. A team editor sees no Webhooks card.
import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { addOrganizationMember, callMutation, createAccount, createOrganizationWith, createTeamWith, signIn } from "./support/accounts.ts";
import { seriousViolations } from "./support/axe.ts";
import { consoleErrors } from "./support/console.ts";
import { createPromptWith } from "./support/prompts.ts";
import { recordSecret } from "./support/secrets.ts";

/** The README's verification: HMAC-SHA256 of "<t>.<body>" under the secret, hex, as v1. */
function signedWith(secret: string, header: string, body: string) {
  const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header) ?? [];
  return !!t && v1 === createHmac("sha256", secret).update(`${t}.${body}`).digest("hex");
}

test("a team admin adds a webhook, sees its secret once, and its deliveries arrive signed and can be redelivered", async ({ page, browser }) => {
  const errors = consoleErrors(page, { allow4xx: true });
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  try {
    const admin = await createAccount({ fullName: "Wanda Webhook", role: "administrator" });
    const editor = await createAccount({ fullName: "Eddie Editor", role: "administrator" });
    const organization = await createOrganizationWith([{ userId: admin.id, role: "member" }]);
    await addOrganizationMember(organization.id, editor.id);
    const team = await createTeamWith(organization.id, [{ userId: admin.id, role: "admin" }, { userId: editor.id, role: "editor" }]);
    await signIn(page, admin.email);
    await page.goto("/teams");

    const card = page.getByTestId("webhooks-card");
    await expect(card).toContainText("No webhooks yet.");
    await card.getByRole("button", { name: "Add webhook" }).click();
    const dialog = page.getByRole("dialog", { name: "Add webhook" });
    await dialog.getByRole("textbox", { name: "URL" }).fill("ftp://example.com");
    await dialog.getByRole("button", { name: "Add webhook" }).click();
    await expect(dialog.getByRole("textbox", { name: "URL" })).toHaveAccessibleDescription(/Enter a URL starting with https:\/\/ or http:\/\//);
    await dialog.getByRole("textbox", { name: "URL" }).fill(url);
    await expect(dialog.getByRole("checkbox", { name: /A label is moved/ })).toBeChecked();
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Add webhook" }).click();

    const shown = page.getByRole("dialog", { name: "Webhook added" });
    await expect(shown).toContainText("Copy this secret now. You will not see it again.");
    const secret = await shown.getByRole("textbox", { name: "Signing secret" }).inputValue();
    recordSecret("webhook secret", secret);
    expect(secret).toMatch(/^whsec_/);
    await shown.getByRole("button", { name: "Done" }).click();
    await expect(page.getByTestId("webhook-row")).toContainText(url);
    expect(await page.content()).not.toContain(secret);

    const prompt = await createPromptWith({ organizationId: organization.id, teamId: team.id, authorId: admin.id, name: "hooks/greeting" });
    await callMutation(page.request, "promptLabels.set", { promptId: prompt.id, label: "staging", version: 1 });
    await expect.poll(() => received.length).toBe(1);
    expect(received[0]!.headers["promptly-event"]).toBe("prompt.label.moved");
    expect(signedWith(secret, received[0]!.headers["promptly-signature"] as string, received[0]!.body)).toBe(true);

    await page.getByRole("button", { name: `Deliveries of ${url}` }).click();
    const log = page.getByRole("dialog", { name: "Deliveries" });
    const row = log.getByTestId("delivery-row").first();
    await expect(row).toContainText("prompt.label.moved");
    await expect(row).toContainText("Delivered (204)");
    expect(await seriousViolations(page)).toEqual([]);
    await row.getByRole("button", { name: /^Redeliver/ }).click();
    await expect.poll(() => received.length).toBe(2);
    expect(received[1]!.headers["promptly-delivery"]).toBe(received[0]!.headers["promptly-delivery"]);
    await page.keyboard.press("Escape");

    // Send test: a signed ping.
    await page.getByRole("button", { name: `Send a test to ${url}` }).click();
    await expect.poll(() => received.length).toBe(3);
    expect(received[2]!.headers["promptly-event"]).toBe("ping");
    expect(signedWith(secret, received[2]!.headers["promptly-signature"] as string, received[2]!.body)).toBe(true);
    // Its last delivery shows how it ended once the receiver answered, without a reload.
    await expect(page.getByTestId("webhook-row").getByText("Delivered (204)")).toBeVisible();

    // A team editor manages no webhooks: no card.
    const editorContext = await browser.newContext();
    const editorPage = await editorContext.newPage();
    await signIn(editorPage, editor.email);
    await editorPage.goto("/teams");
    await expect(editorPage.getByRole("heading", { name: "Members" })).toBeVisible();
    await expect(editorPage.getByTestId("webhooks-card")).toHaveCount(0);
    await editorContext.close();
    expect(errors).toEqual([]);
  } finally {
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
});
