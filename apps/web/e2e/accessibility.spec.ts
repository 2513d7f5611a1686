// Every screen for three kinds of people at a wide and a narrow width, checked by axe-core (WCAG 2.2
// AA rules): no critical and no serious violation, also with each dialog, menu, popover,
// select and tooltip of the screen open. Each test reports every finding at once.
import { randomBytes } from "node:crypto";
import { expect, test, type Cookie, type Locator, type Page } from "@playwright/test";
import { addOrganizationMember, callMutation, createAccount, createOrganizationWith, createTeamWith, signIn, withDb } from "./support/accounts.ts";
import { createChangeRequestWith, createPromptWith } from "./support/prompts.ts";
import { axeViolations } from "./support/axe.ts";
import { recordSecret } from "./support/secrets.ts";
import { visit } from "./support/visit.ts";

const WIDTHS = [1400, 375] as const;
type Width = (typeof WIDTHS)[number];
type Persona = "super user" | "organization admin" | "team viewer";
const PERSONAS: Persona[] = ["super user", "organization admin", "team viewer"];
/** Who may change the organization's teams and prompts (the team viewer may not). */
const MANAGERS: Persona[] = ["super user", "organization admin"];

/**
 * An organization with a team, a prompt (two versions, an enum variable) and an archived prompt; the
 * persona's place in it decides what they see.
 */
async function world(persona: Persona) {
  const person = await createAccount({ fullName: "Axe Person", superUser: persona === "super user", role: persona === "organization admin" ? "administrator" : "user" });
  const author = await createAccount({ fullName: "Axe Author" });
  const organization = await createOrganizationWith([
    { userId: author.id, role: "member" },
    ...(persona === "super user" ? [] : [{ userId: person.id, role: persona === "organization admin" ? ("admin" as const) : ("member" as const) }]),
  ]);
  const team = await createTeamWith(organization.id, [
    { userId: author.id, role: "editor" },
    ...(persona === "team viewer" ? [{ userId: person.id, role: "viewer" as const }] : []),
  ]);
  if (persona === "super user") await addOrganizationMember(organization.id, person.id, "admin");
  const prompt = await createPromptWith({ organizationId: organization.id, teamId: team.id, authorId: author.id, title: "Axe prompt", tags: ["a11y"], template: "Hello {{ name }}" });
  // Version 2 with an enum variable: Try it gets a select, Compare two versions.
  await withDb(async (client) => {
    await client.query(`INSERT INTO prompt_versions (prompt_id, version, type, template, variables, author_id) VALUES ($1, 2, 'text', $2, $3, $4)`, [
      prompt.id,
      "Hello {{ name }}, in a {{ tone }} voice",
      JSON.stringify([{ name: "tone", type: "enum", options: ["warm", "dry"] }]),
      author.id,
    ]);
    await client.query(`UPDATE prompts SET latest_version = 2 WHERE id = $1`, [prompt.id]);
  });
  // A comment thread on v2 with a mention and a reply (the Comments tab).
  await withDb(async (client) => {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO prompt_comments (prompt_id, version, author_id, body) VALUES ($1, 2, $2, $3) RETURNING id`,
      [prompt.id, author.id, `Is the **tone** right, @[Axe Person](user:${person.id})? See [the guide](https://example.com/guide).`],
    );
    await client.query(`INSERT INTO comment_mentions (comment_id, user_id) VALUES ($1, $2)`, [rows[0]!.id, person.id]);
    await client.query(`INSERT INTO prompt_comments (prompt_id, parent_id, author_id, body) VALUES ($1, $2, $3, 'Yes, it is.')`, [prompt.id, rows[0]!.id, author.id]);
  });
  // Two test cases and a finished evaluation of both versions where one case flipped (the Test cases and Evaluations tabs).
  const evaluation = await withDb(async (client) => {
    const cases: string[] = [];
    for (const [index, name] of ["Ada", "Grace"].entries()) {
      const { rows } = await client.query<{ id: string }>(
        `INSERT INTO test_cases (prompt_id, variables, expected, assertions, created_at) VALUES ($1, $2, $3, $4, now() + $5 * interval '1 ms') RETURNING id`,
        [prompt.id, { name, tone: "warm" }, `Hello ${name}`, JSON.stringify([{ type: "contains", value: name }, { type: "maxLength", value: "200" }]), index],
      );
      cases.push(rows[0]!.id);
    }
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO evaluations (organization_id, prompt_id, versions, connection_name, status, finished_at) VALUES ($1, $2, '{1,2}', 'Axe models', 'done', now()) RETURNING id`,
      [organization.id, prompt.id],
    );
    for (const version of [1, 2]) {
      for (const [position, testCaseId] of cases.entries()) {
        const pass = version === 1 || position === 0;
        await client.query(
          `INSERT INTO evaluation_items (evaluation_id, test_case_id, version, position, variables, status, output, results, latency_ms, input_tokens, output_tokens, cost, attempts)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 120, 5, 4, 0.0001, 1)`,
          [rows[0]!.id, testCaseId, version, position, { name: position ? "Grace" : "Ada" }, pass ? "passed" : "failed", pass ? `Hello ${position ? "Grace" : "Ada"}` : "Hello there",
            JSON.stringify([{ type: "contains", value: position ? "Grace" : "Ada", pass, ...(pass ? {} : { reason: "The output does not contain 'Grace'" }) }])],
        );
      }
    }
    return { id: rows[0]!.id };
  });
  const archived = await createPromptWith({ organizationId: organization.id, teamId: team.id, authorId: author.id, title: "Axe archived prompt" });
  await withDb((client) => client.query(`UPDATE prompts SET archived_at = now() WHERE id = $1`, [archived.id]));
  // The author asks for version 2 in production: the request's page, the Teams page's Reviews card.
  const changeRequest = await createChangeRequestWith({ promptId: prompt.id, authorId: author.id, version: 2 });
  // One unread notification: the header's bell shows a count and its popover a link. It leads to a page
  // the sweep does not open (the archived prompt's history), since opening it would read it.
  await withDb((client) =>
    client.query(`INSERT INTO notifications (user_id, kind, actor_id, prompt_id, data, created_at) VALUES ($1, 'production_moved', $2, $3, $4, now())`, [
      person.id,
      author.id,
      archived.id,
      JSON.stringify({ actorName: "Axe Author", promptName: "axe-prompt", version: 2 }),
    ]),
  );
  return { person, organization, team, prompt, archived, changeRequest, evaluation };
}
type World = Awaited<ReturnType<typeof world>>;

async function violations(page: Page, where: string): Promise<string[]> {
  // Colours are judged as they end up, not halfway through a toast's or a dialog's fade-in (endless
  // animations, such as the navigation bar's, never finish: they are not waited for).
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  return (await axeViolations(page))
    .filter((violation) => violation.impact === "critical" || violation.impact === "serious")
    .map((violation) => `${where}: ${violation.id} (${violation.impact}) x${violation.nodes.length}: ${violation.nodes.slice(0, 2).map((node) => `${node.target.join(" ")} ${node.failureSummary?.split("\n")[1] ?? ""}`).join(" | ")}`);
}

/** One thing a route lets the persona open: how to open it, and what then shows. Escape closes it unless `close` says otherwise. */
interface Opener {
  name: string;
  /** Who gets the control (everyone when absent); the others do not have it. */
  who?: Persona[];
  /** Only at this width (the header search is a desktop control, the sidebar a sheet on phones). */
  width?: Width;
  open(page: Page, data: World): Promise<Locator>;
  close?(page: Page): Promise<void>;
}

const pressEscape = (times: number) => async (page: Page) => {
  for (let i = 0; i < times; i++) await page.keyboard.press("Escape");
};
const main = (page: Page) => page.getByRole("main");
/** A select (Radix) of the page: its listbox of options. */
const select = (name: string | RegExp, scope: (page: Page) => Locator = main): Opener["open"] => async (page) => {
  await scope(page).getByRole("combobox", { name }).click();
  return page.getByRole("listbox");
};
/** A select of the prompt list's filters, which fold behind 'Filters' below 1024 px. */
const filterSelect = (name: string): Opener["open"] => async (page, data) => {
  const fold = main(page).getByRole("button", { name: "Filters", exact: true });
  if ((await fold.isVisible()) && (await fold.getAttribute("aria-expanded")) === "false") await fold.click();
  return select(name)(page, data);
};
const menu = (name: string | RegExp): Opener["open"] => async (page) => {
  await page.getByRole("button", { name }).click();
  return page.getByRole("menu");
};
/** A dialog opened from an entry of a menu. */
const menuDialog = (button: string | RegExp, item: string, dialog: Parameters<Page["getByRole"]>[0], title: string | RegExp): Opener["open"] => async (page) => {
  await page.getByRole("button", { name: button }).click();
  await page.getByRole("menuitem", { name: item, exact: true }).click();
  return page.getByRole(dialog, { name: title });
};
const mainButtonDialog = (button: string, dialog: Parameters<Page["getByRole"]>[0], title: string | RegExp): Opener["open"] => async (page) => {
  await main(page).getByRole("button", { name: button, exact: true }).click();
  return page.getByRole(dialog, { name: title });
};

/**
 * The header's popups are the same on every route (one component), so they are opened on the
 * dashboard only; the routes below open what is theirs.
 */
const HEADER: Opener[] = [
  { name: "user menu", open: menu(/user menu for/) },
  {
    name: "notifications",
    async open(page) {
      await page.getByRole("banner").getByRole("button", { name: /^Notifications, 1 unread/ }).click();
      const panel = page.getByRole("dialog", { name: "Notifications" });
      await expect(panel.getByRole("link", { name: /Axe Author moved production/ })).toBeVisible();
      return panel;
    },
  },
  {
    name: "organization switcher",
    who: ["super user"],
    async open(page) {
      await page.getByTestId("organization-switcher").click();
      return page.getByRole("dialog", { name: "Switch organization" }).getByRole("listbox", { name: "Organizations" });
    },
  },
  {
    name: "Create New Organization (organization switcher)",
    who: ["super user"],
    async open(page) {
      await page.getByTestId("organization-switcher").click();
      await page.getByRole("option", { name: "Create New Organization" }).click();
      return page.getByRole("dialog", { name: "Create Organization" });
    },
  },
  {
    name: "team selector",
    async open(page) {
      await page.getByTestId("team-selector").click();
      return page.getByRole("dialog", { name: "Switch team" }).getByRole("listbox", { name: "Teams" });
    },
  },
  {
    name: "Create New Team (team selector)",
    who: MANAGERS,
    async open(page) {
      await page.getByTestId("team-selector").click();
      await page.getByRole("option", { name: "Create New Team" }).click();
      return page.getByRole("dialog", { name: "Create New Team" });
    },
  },
  {
    name: "search suggestions",
    width: 1400,
    async open(page) {
      await page.getByRole("combobox", { name: "Search prompts" }).fill("Axe");
      await expect(page.getByRole("option", { name: /Axe prompt/ })).toBeVisible();
      return page.getByRole("listbox", { name: "Matching prompts" });
    },
  },
  {
    name: "search behind its icon, with suggestions",
    width: 375,
    async open(page) {
      await page.getByRole("button", { name: "Search prompts" }).click();
      await page.getByRole("combobox", { name: "Search prompts" }).fill("Axe");
      await expect(page.getByRole("option", { name: /Axe prompt/ })).toBeVisible();
      return page.getByRole("listbox", { name: "Matching prompts" });
    },
    async close(page) {
      await page.getByRole("button", { name: "Close search" }).click();
    },
  },
  {
    name: "tooltip of the collapsed sidebar",
    width: 1400,
    async open(page) {
      await page.getByRole("button", { name: "Toggle sidebar" }).click();
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Dashboard" }).hover();
      return page.getByRole("tooltip", { name: "Dashboard" });
    },
    async close(page) {
      await page.keyboard.press("Escape");
      await page.getByRole("button", { name: "Toggle sidebar" }).click();
    },
  },
  {
    name: "mobile sidebar",
    width: 375,
    async open(page) {
      await page.getByRole("button", { name: "Toggle sidebar" }).click();
      return page.getByRole("dialog", { name: "Sidebar" });
    },
  },
];

const inviteForm = (page: Page) => page.getByRole("form", { name: "Invite a new team member" });

/** The team's member, not its last admin, whose role and removal the managers may change. */
const AUTHOR = "Axe Author";
/** The organization's model provider connection (the managers add it once signed in); nothing listens at its address. */
const CONNECTION = "Axe connection";

/** The routes come in groups, each its own test, so that the two workers share the sweep. */
const GROUPS = [
  "the dashboard and its header",
  "prompt lists, analytics and the audit log",
  "teams, organizations and reviews",
  "a prompt's tabs and dialogs",
  "editors and settings",
] as const;
type Group = (typeof GROUPS)[number];

/**
 * Each page with the pickers and dialogs to open on it; `who`: the personas the page opens for (the others
 * are sent to / with the denial toast, which the shell spec asserts).
 */
function routes(data: World): { group: Group; route: string; who?: Persona[]; openers: Opener[] }[] {
  const prompt = `/prompts/${data.prompt.id}`;
  return [
    { group: "the dashboard and its header", route: "/", openers: HEADER },
    {
      group: "prompt lists, analytics and the audit log",
      route: "/prompts",
      openers: [
        { name: "Team filter", who: MANAGERS, open: filterSelect("Team") },
        { name: "Visibility filter", who: MANAGERS, open: filterSelect("Visibility") },
        { name: "Sort", who: MANAGERS, open: select("Sort by") },
        { name: "Import / Export menu", who: MANAGERS, open: menu("Import / Export") },
        { name: "Import dialog", who: MANAGERS, open: menuDialog("Import / Export", "Import...", "dialog", /^Import into/) },
        {
          name: "selection bar's actions",
          who: MANAGERS,
          async open(page) {
            await main(page).getByRole("checkbox", { name: /^Select / }).first().check();
            await page.getByRole("region", { name: "Selection" }).getByRole("button", { name: "Actions" }).click();
            return page.getByRole("menu");
          },
        },
        {
          name: "selection bar's Move to folder",
          who: MANAGERS,
          async open(page) {
            await main(page).getByRole("checkbox", { name: /^Select / }).first().check();
            await page.getByRole("region", { name: "Selection" }).getByRole("button", { name: "Actions" }).click();
            await page.getByRole("menuitem", { name: "Move to folder..." }).click();
            return page.getByRole("dialog", { name: /^Move to folder/ });
          },
        },
      ],
    },
    // The same list page as /prompts: its selects are checked there.
    { group: "prompt lists, analytics and the audit log", route: "/bookmarks", openers: [] },
    // The compact table view of the same list.
    { group: "prompt lists, analytics and the audit log", route: "/prompts?view=table", openers: [] },
    {
      group: "prompt lists, analytics and the audit log",
      route: "/analytics",
      openers: [
        { name: "Range", who: MANAGERS, open: select("Range") },
        { name: "Team filter", who: MANAGERS, open: select("Team") },
      ],
    },
    // The audit log: its filters are the app's selects and date fields.
    {
      group: "prompt lists, analytics and the audit log",
      route: "/audit",
      openers: [
        { name: "Actor filter", who: MANAGERS, open: select("Actor") },
        { name: "Action filter", who: MANAGERS, open: select("Action") },
      ],
    },
    { group: "prompt lists, analytics and the audit log", route: `/prompts/${data.prompt.id}?tab=activity`, openers: [] },
    {
      group: "teams, organizations and reviews",
      route: "/teams",
      who: ["super user", "organization admin"],
      openers: [
        { name: "New Team", who: MANAGERS, open: mainButtonDialog("New Team", "dialog", "Create New Team") },
        { name: "Rename team", who: MANAGERS, open: mainButtonDialog("Rename", "dialog", "Rename Team") },
        { name: "Delete team", who: MANAGERS, open: mainButtonDialog("Delete", "alertdialog", `Delete ${data.team.name}?`) },
        { name: "member role", who: MANAGERS, open: select(`Role of ${AUTHOR}`) },
        { name: "member actions", who: MANAGERS, open: menu(`Actions for ${AUTHOR}`) },
        { name: "remove member", who: MANAGERS, open: menuDialog(`Actions for ${AUTHOR}`, "Remove", "alertdialog", `Remove ${AUTHOR}?`) },
        {
          name: "invite form",
          who: MANAGERS,
          async open(page) {
            await main(page).getByRole("button", { name: "Invite Member" }).click();
            return inviteForm(page);
          },
          close: (page) => inviteForm(page).getByRole("button", { name: "Cancel" }).click(),
        },
        {
          name: "invite form's role",
          who: MANAGERS,
          async open(page) {
            await main(page).getByRole("button", { name: "Invite Member" }).click();
            return select("Role", inviteForm)(page, data);
          },
          async close(page) {
            await page.keyboard.press("Escape");
            await inviteForm(page).getByRole("button", { name: "Cancel" }).click();
          },
        },
      ],
    },
    {
      group: "teams, organizations and reviews",
      route: "/providers",
      who: ["super user", "organization admin"],
      openers: [
        { name: "Add connection", who: MANAGERS, open: mainButtonDialog("Add connection", "dialog", "Add connection") },
        {
          name: "Add connection's provider",
          who: MANAGERS,
          async open(page) {
            await main(page).getByRole("button", { name: "Add connection", exact: true }).click();
            await page.getByRole("dialog", { name: "Add connection" }).getByRole("combobox", { name: "Provider" }).click();
            return page.getByRole("listbox");
          },
          close: pressEscape(2),
        },
        {
          name: "Test connection, with the provider's error",
          who: MANAGERS,
          async open(page) {
            await main(page).getByRole("button", { name: `Test connection ${CONNECTION}`, exact: true }).click();
            const dialog = page.getByRole("dialog", { name: `Test ${CONNECTION}` });
            await expect(dialog.getByRole("alert")).toContainText(`Could not reach ${CONNECTION} at`);
            return dialog;
          },
        },
        { name: "Edit connection", who: MANAGERS, open: mainButtonDialog(`Edit ${CONNECTION}`, "dialog", `Edit ${CONNECTION}`) },
        { name: "Delete connection", who: MANAGERS, open: mainButtonDialog(`Delete ${CONNECTION}`, "alertdialog", `Delete ${CONNECTION}?`) },
        { name: "Add a model price", who: MANAGERS, open: mainButtonDialog("Add a model price", "dialog", "Add a model price") },
        { name: "Edit a model price", who: MANAGERS, open: mainButtonDialog("Edit price of gpt-4o", "dialog", "Price of gpt-4o") },
      ],
    },
    {
      group: "teams, organizations and reviews",
      route: "/organizations",
      who: ["super user"],
      openers: [
        { name: "New Organization", who: ["super user"], open: mainButtonDialog("New Organization", "dialog", "Create Organization") },
        { name: "organization actions", who: ["super user"], open: menu(`Actions for ${data.organization.name}`) },
        { name: "Rename organization", who: ["super user"], open: menuDialog(`Actions for ${data.organization.name}`, "Rename", "dialog", "Edit Organization") },
        {
          name: "Delete organization",
          who: ["super user"],
          open: menuDialog(`Actions for ${data.organization.name}`, "Delete", "alertdialog", `Delete ${data.organization.name}?`),
        },
      ],
    },
    {
      group: "teams, organizations and reviews",
      route: `/organizations/${data.organization.id}/members`,
      who: ["super user"],
      openers: [
        { name: "add member role", who: ["super user"], open: select("Role", (page) => page.getByRole("form", { name: "Add a member" })) },
        { name: "member role", who: ["super user"], open: select(`Role of ${AUTHOR}`) },
        { name: "member app role", who: ["super user"], open: select(`${AUTHOR}'s app role`) },
        { name: "member actions", who: ["super user"], open: menu(`Actions for ${AUTHOR}`) },
        { name: "remove member", who: ["super user"], open: menuDialog(`Actions for ${AUTHOR}`, "Remove", "alertdialog", `Remove ${AUTHOR}?`) },
      ],
    },
    {
      group: "a prompt's tabs and dialogs",
      route: prompt,
      openers: [
        { name: "version", open: select("Version") },
        {
          name: "bookmark tooltip",
          async open(page) {
            await main(page).getByRole("button", { name: "Add to bookmarks" }).focus();
            return page.getByRole("tooltip", { name: "Add to bookmarks" });
          },
        },
        { name: "Set label", who: MANAGERS, open: mainButtonDialog("Set label", "dialog", "Set label") },
        {
          name: "Set label's version",
          who: MANAGERS,
          async open(page) {
            await main(page).getByRole("button", { name: "Set label", exact: true }).click();
            await page.getByRole("dialog", { name: "Set label" }).getByRole("combobox", { name: "Version" }).click();
            return page.getByRole("listbox");
          },
          close: pressEscape(2),
        },
        { name: "Edit details", who: MANAGERS, open: mainButtonDialog("Edit details", "dialog", "Edit details") },
        {
          name: "Edit details' visibility",
          who: MANAGERS,
          async open(page) {
            await main(page).getByRole("button", { name: "Edit details", exact: true }).click();
            await page.getByRole("dialog", { name: "Edit details" }).getByRole("combobox", { name: "Visibility" }).click();
            return page.getByRole("listbox");
          },
          close: pressEscape(2),
        },
        { name: "Rename", who: MANAGERS, open: mainButtonDialog("Rename", "dialog", "Rename prompt") },
        { name: "Archive", who: MANAGERS, open: mainButtonDialog("Archive", "dialog", "Archive Axe prompt?") },
      ],
    },
    {
      group: "a prompt's tabs and dialogs",
      route: `/prompts/${data.archived.id}`,
      openers: [{ name: "Delete", who: MANAGERS, open: mainButtonDialog("Delete", "alertdialog", "Delete Axe archived prompt?") }],
    },
    { group: "a prompt's tabs and dialogs", route: `${prompt}?tab=try`, openers: [{ name: "enum variable", open: select("tone") }] },
    {
      group: "a prompt's tabs and dialogs",
      route: `${prompt}?tab=history`,
      openers: [
        { name: "Set label on v1", who: MANAGERS, open: mainButtonDialog("Set label on v1", "dialog", "Set label on v1") },
        { name: "Restore v1", who: MANAGERS, open: mainButtonDialog("Restore as a new version: v1", "alertdialog", "Restore v1 as v3?") },
      ],
    },
    {
      group: "a prompt's tabs and dialogs",
      route: `${prompt}?tab=comments`,
      openers: [
        {
          name: "mention suggestions",
          async open(page) {
            await main(page).getByRole("combobox", { name: "New comment" }).fill("Hello @Axe");
            return page.getByRole("listbox", { name: "People to mention" });
          },
        },
        {
          name: "delete a comment (moderation)",
          who: MANAGERS,
          async open(page) {
            await main(page).getByRole("article", { name: "Comment by Axe Author" }).first().getByRole("button", { name: "Delete" }).click();
            return page.getByRole("alertdialog", { name: "Delete Axe Author's comment?" });
          },
        },
      ],
    },
    {
      group: "a prompt's tabs and dialogs",
      route: `${prompt}?tab=cases`,
      openers: [
        { name: "Add test case", who: MANAGERS, open: mainButtonDialog("Add test case", "dialog", "Add test case") },
        { name: "Import test cases", who: MANAGERS, open: mainButtonDialog("Import", "dialog", "Import test cases") },
      ],
    },
    {
      group: "a prompt's tabs and dialogs",
      route: `${prompt}?tab=evaluations`,
      openers: [{ name: "Run evaluation", who: MANAGERS, open: mainButtonDialog("Run evaluation", "dialog", "Run evaluation") }],
    },
    { group: "a prompt's tabs and dialogs", route: `${prompt}?tab=evaluations&evaluation=${data.evaluation.id}`, openers: [] },
    { group: "a prompt's tabs and dialogs", route: `${prompt}?tab=evaluations&evaluation=${data.evaluation.id}&evaluationView=compare`, openers: [] },
    {
      group: "a prompt's tabs and dialogs",
      route: `${prompt}?tab=compare`,
      openers: [
        { name: "From", open: select("From") },
        { name: "To", open: select("To") },
      ],
    },
    {
      group: "editors and settings",
      route: "/prompts/new",
      openers: [
        { name: "team", who: MANAGERS, open: select("Team") },
        { name: "visibility", who: MANAGERS, open: select("Visibility") },
        {
          name: "message role",
          who: MANAGERS,
          async open(page) {
            await page.getByRole("radio", { name: "Chat" }).check();
            await page.getByRole("textbox", { name: "Message 1 content" }).fill("You are a {{ tone }} agent.");
            return select("Role of message 1")(page, data);
          },
        },
        { name: "variable type", who: MANAGERS, open: select("Type of tone") },
        {
          name: "unsaved changes",
          who: MANAGERS,
          async open(page) {
            await page.getByRole("button", { name: /user menu for/ }).click();
            await page.getByRole("menuitem", { name: "Profile" }).click();
            return page.getByRole("alertdialog", { name: "Unsaved changes" });
          },
        },
      ],
    },
    { group: "editors and settings", route: `${prompt}/new-version`, openers: [{ name: "variable type", who: MANAGERS, open: select("Type of tone") }] },
    { group: "teams, organizations and reviews", route: `/reviews/${data.changeRequest.id}`, openers: [] },
    { group: "editors and settings", route: "/settings/profile", openers: [] },
    { group: "editors and settings", route: "/settings/password", openers: [] },
    { group: "editors and settings", route: "/settings/notifications", openers: [] },
    {
      group: "editors and settings",
      route: "/settings/security",
      openers: [
        {
          name: "two-factor setup",
          async open(page) {
            await page.getByRole("switch", { name: "Two-factor authentication" }).click();
            return page.getByTestId("two-factor-setup");
          },
          async close(page) {
            await page.getByRole("switch", { name: "Two-factor authentication" }).click();
          },
        },
      ],
    },
  ];
}

/**
 * Each worker builds one world per persona and width, and signs in to it once: the groups of the same
 * persona and width then walk it in sessions of their own (the sweep changes nothing in it).
 */
const signedIn = new Map<string, { data: World; cookies: Cookie[] }>();
async function signedInWorld(page: Page, persona: Persona, width: Width) {
  const key = `${persona} ${width}`;
  let entry = signedIn.get(key);
  if (!entry) {
    const data = await world(persona);
    await signIn(page, data.person.email);
    if (MANAGERS.includes(persona)) {
      const apiKey = `sk-axe-${randomBytes(12).toString("hex")}`;
      recordSecret("provider key", apiKey);
      await callMutation(page.request, "providers.create", {
        organizationId: data.organization.id,
        kind: "openai-compatible",
        name: CONNECTION,
        baseUrl: "http://127.0.0.1:9/v1",
        apiKey,
        models: ["axe-model"],
        teamIds: [data.team.id],
      });
    }
    entry = { data, cookies: await page.context().cookies() };
    signedIn.set(key, entry);
  } else {
    await page.context().addCookies(entry.cookies);
  }
  return entry.data;
}

// The groups are independent: the two workers share them.
test.describe.configure({ mode: "parallel" });

for (const persona of PERSONAS) {
  for (const width of WIDTHS) {
    for (const group of GROUPS) {
      test(`axe: ${group} as ${persona} at ${width} px, with their dialogs and menus open`, async ({ page }) => {
        test.setTimeout(120_000);
        await page.setViewportSize({ width, height: 900 });
        const data = await signedInWorld(page, persona, width);
        // A super user sees every organization of the database: this test's is the active one.
        await page.addInitScript(
          ({ organizationId, teamId }) => {
            localStorage.setItem("promptly.activeOrganizationId", organizationId);
            localStorage.setItem("promptly.activeTeamId", teamId);
          },
          { organizationId: data.organization.id, teamId: data.team.id },
        );
        // Leaving the editor with unsaved changes asks the browser first; the test leaves on purpose.
        page.on("dialog", (dialog) => void dialog.accept());
        const found: string[] = [];
        for (const [index, { route, openers }] of routes(data).filter((entry) => entry.group === group && (!entry.who || entry.who.includes(persona))).entries()) {
          await visit(page, route, index === 0 ? "load" : "in the app");
          found.push(...(await violations(page, route)));
          for (const opener of openers) {
            if ((opener.who && !opener.who.includes(persona)) || (opener.width && opener.width !== width)) continue;
            const where = `${route} with ${opener.name} open`;
            try {
              const popup = await opener.open(page, data);
              await expect(popup).toBeVisible();
              found.push(...(await violations(page, where)));
              await (opener.close ?? pressEscape(1))(page);
              await expect(popup).toBeHidden();
              // A closed dialog hands focus back to its trigger in a task of its own; typing into the next
              // opener before that task ran lost the focus (and the search's suggestions) to the trigger.
              await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
            } catch (error) {
              // Reported with the rest; the next opener starts from a fresh page.
              found.push(`${where}: did not open or close: ${String(error).split("\n")[0]}`);
              await visit(page, route, "load");
            }
          }
        }
        expect(found, found.join("\n")).toEqual([]);
      });
    }
  }
}
