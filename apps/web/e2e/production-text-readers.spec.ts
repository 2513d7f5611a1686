// A production generation's kept text is for its team's members and the organization's admins: a person
// of another team reading an organization prompt opens its generation and is told who sees the text,
// never shown it.
import { expect, test } from "@playwright/test";
import { createAccount, createOrganizationWith, createTeamWith, signIn, uniqueName, withDb } from "./support/accounts.ts";
import { consoleErrors } from "./support/console.ts";
import { createPromptWith } from "./support/prompts.ts";

test("a reader of an organization prompt from another team opens a generation without its text, told who sees it", async ({ page }) => {
  const errors = consoleErrors(page);
  const admin = await createAccount({ fullName: "Tess Textkeeper" });
  const neighbour = await createAccount({ fullName: "Otto Otherteam" });
  const organization = await createOrganizationWith([{ userId: admin.id, role: "admin" }, { userId: neighbour.id, role: "member" }]);
  const team = await createTeamWith(organization.id, [{ userId: admin.id, role: "admin" }], uniqueName("Keepers"));
  await createTeamWith(organization.id, [{ userId: neighbour.id, role: "viewer" }], uniqueName("Others"));
  const prompt = await createPromptWith({ organizationId: organization.id, teamId: team.id, authorId: admin.id, visibility: "organization" });
  const generationId = await withDb(async (client) => {
    await client.query(`UPDATE teams SET keep_generation_text = true WHERE id = $1`, [team.id]);
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO generations (organization_id, team_id, prompt_id, prompt_name, version, observation_id, source, model, started_at, status, input, output)
       SELECT organization_id, team_id, id, name, 1, 'obs-readers', 'api', 'gpt-4o-mini', now() - interval '5 minutes', 'ok', 'SECRET user question', 'SECRET answer'
         FROM prompts WHERE id = $1 RETURNING id`,
      [prompt.id],
    );
    return rows[0]!.id;
  });
  await signIn(page, neighbour.email);
  // Opened by its link (the generations list shows with the figures, which come from the rollups).
  await page.goto(`/prompts/${prompt.id}?tab=production&generation=${generationId}`);
  const dialog = page.getByRole("dialog", { name: /^Generation of v1/ });
  await expect(dialog).toContainText("Only members of this prompt's team and organization admins see its generations' input and output.");
  await expect(dialog).not.toContainText("SECRET");
  await expect(dialog.getByRole("region", { name: "Input" })).toHaveCount(0);
  expect(errors).toEqual([]);
});
