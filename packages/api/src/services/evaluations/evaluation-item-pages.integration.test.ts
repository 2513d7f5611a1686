// An evaluation's items a page at a time (REST GET /api/v1/evaluations/{id}/items streams them): by
// version then position, EVALUATION_ITEMS_PAGE a statement, each page after the last one's key, so a
// reader holds a page of an evaluation's up to 10,000 items, never all of them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount, createHarness, createOrganization, createTeam, type Harness } from "../../../testing/harness.ts";
import { EVALUATION_ITEMS_PAGE, evaluationItemPages } from "./evaluations.ts";

let h: Harness;
let organizationId: string;
let promptId: string;

beforeAll(async () => {
  h = await createHarness();
  const person = await createAccount(h);
  organizationId = (await createOrganization(h, [{ userId: person.id, role: "admin" }])).id;
  const teamId = (await createTeam(h, organizationId, [{ userId: person.id, role: "admin" }])).id;
  const api = (await h.signedInClient(person.id)).api;
  promptId = (await api.prompts.create({ teamId, name: "reply", title: "Reply", visibility: "team", type: "text", template: "Hi {{ who }}" })).id;
});
afterAll(() => h?.close());

/** An evaluation of versions 1 and 10 with `cases` cases each, written in no particular order. */
async function evaluationOf(cases: number) {
  const { id } = await h.database.db.evaluation.create({ data: { organizationId, promptId, versions: [1, 10], connectionName: "Local", status: "done" } });
  const rows = [10, 1].flatMap((version) => Array.from({ length: cases }, (_, i) => ({ evaluationId: id, version, position: (i * 7) % cases, output: `v${version}`, latencyMs: i })));
  await h.database.db.evaluationItem.createMany({ data: rows });
  return id;
}

const pagesOf = async (id: string) => {
  const pages: { version: number; position: number }[][] = [];
  for await (const page of evaluationItemPages(h.database.db, id)) pages.push(page);
  return pages;
};

describe("evaluationItemPages", () => {
  it("reads the items a page at a time, by version then position, each page after the last", async () => {
    // 2 × 65 = 130 items: three pages, the second version's first items in the third.
    const pages = await pagesOf(await evaluationOf(65));
    expect(pages.map((page) => page.length)).toEqual([EVALUATION_ITEMS_PAGE, EVALUATION_ITEMS_PAGE, 130 - 2 * EVALUATION_ITEMS_PAGE]);
    expect(pages.flat().map((item) => [item.version, item.position])).toEqual([1, 10].flatMap((version) => Array.from({ length: 65 }, (_, position) => [version, position])));
  });

  it("ends at a page that ends the items, and yields nothing for an evaluation without items", async () => {
    expect((await pagesOf(await evaluationOf(EVALUATION_ITEMS_PAGE))).map((page) => page.length)).toEqual([EVALUATION_ITEMS_PAGE, EVALUATION_ITEMS_PAGE]);
    expect(await pagesOf(await evaluationOf(0))).toEqual([]);
  });
});
