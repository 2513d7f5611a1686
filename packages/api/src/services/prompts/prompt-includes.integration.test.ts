// One resolution of includes looks each include up once, however often and however it is written:
// twenty tags at each of five levels (`version=1`, `version=01`, … all one version) cost a query per
// different include, where following every place costs 168,420; a resolution that would look up more
// than INCLUDE_MAX_LOOKUPS different includes is refused; and a version met again in a chain where it
// would close a cycle or pass the depth is refused as following it again would refuse it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { derivedFrom, type Db } from "@promptly/db";
import { INCLUDE_MAX_LOOKUPS, INCLUDE_MAX_TAGS, INCLUDE_MSG } from "@promptly/shared";
import { createAccount, createHarness, createOrganization, createTeam, type Harness } from "../../../testing/harness.ts";
import { insertPrompts } from "../../../testing/prompts-support.ts";

let h: Harness;
let adminId: string;
let organizationId: string;

/** Statements a counted call sent; past STATEMENTS_AT_MOST the call fails rather than run on for minutes. */
let statements = 0;
const STATEMENTS_AT_MOST = 1_000;

beforeAll(async () => {
  h = await createHarness();
  adminId = (await createAccount(h, { fullName: "Ada Admin" })).id;
  organizationId = (await createOrganization(h, [{ userId: adminId, role: "member" }], "Acme")).id;
});
afterAll(async () => {
  await h.close();
});

const tag = (name: string, selector: string) => `@@@langfusePrompt:name=${name}|${selector}@@@`;
/** The same version written twenty ways: `version=1`, `version=01`, … */
const twentyWays = (name: string) => Array.from({ length: INCLUDE_MAX_TAGS }, (_, zeros) => tag(name, `version=${"0".repeat(zeros)}1`)).join("");

let teams = 0;

/** A fresh team of the admin, and an API of theirs whose statements are counted. */
async function countedTeam() {
  teams += 1;
  statements = 0;
  const teamId = (await createTeam(h, organizationId, [{ userId: adminId, role: "admin" }], `Team ${teams}`)).id;
  const counted = h.services.db.$extends({
    query: {
      async $allOperations({ args, query }) {
        if (++statements > STATEMENTS_AT_MOST) throw new Error(`more than ${STATEMENTS_AT_MOST} statements`);
        return query(args);
      },
    },
  }) as unknown as Db;
  const db = derivedFrom(counted, h.services.db, () => {
    if (++statements > STATEMENTS_AT_MOST) throw new Error(`more than ${STATEMENTS_AT_MOST} statements`);
  });
  const api = (await h.signedInClient(adminId, { services: { ...h.services, db } })).api;
  return { teamId, api };
}

/** The statements `work` sends, and its answer. */
async function counting<T>(work: () => Promise<T>) {
  statements = 0;
  const answer = await work();
  return { answer, statements };
}

describe("each include is looked up once a resolution", () => {
  it("twenty tags at each of five levels, all one version written twenty ways, cost what one tag at each level costs", async () => {
    const { teamId, api } = await countedTeam();
    // Written straight into the database: saving them through the API is what this test measures.
    await insertPrompts(h, [
      { teamId, name: "w", visibility: "team", authorId: adminId, template: "" },
      { teamId, name: "z", visibility: "team", authorId: adminId, template: twentyWays("w") },
      { teamId, name: "y", visibility: "team", authorId: adminId, template: twentyWays("z") },
      { teamId, name: "x", visibility: "team", authorId: adminId, template: twentyWays("y") },
    ]);
    const save = (name: string, template: string) => api.prompts.create({ teamId, name, title: name, visibility: "team", type: "text", template });
    const one = await counting(() => save("root-one", `root: ${tag("x", "version=1")}`));
    const twenty = await counting(() => save("root-twenty", `root: ${twentyWays("x")}`));
    expect(twenty.statements).toBe(one.statements);
    const viewOne = await counting(() => api.prompts.get({ id: one.answer.id, version: 1 }));
    const viewTwenty = await counting(() => api.prompts.get({ id: twenty.answer.id, version: 1 }));
    expect(viewTwenty.statements).toBe(viewOne.statements);
    expect(viewTwenty.answer.resolved).toMatchObject({ ok: true, template: "root: " });
  });

  it(`refuses a resolution that looks up more than ${INCLUDE_MAX_LOOKUPS} different includes, naming the one past it`, async () => {
    const { teamId, api } = await countedTeam();
    // Five prompts of twenty different leaves each: 5 + 100 lookups.
    const leaf = (group: number, at: number) => `leaf-${group}-${at}`;
    const groups = [1, 2, 3, 4, 5];
    const leaves = Array.from({ length: INCLUDE_MAX_TAGS }, (_, at) => at + 1);
    await insertPrompts(h, [
      ...groups.flatMap((group) => leaves.map((at) => ({ teamId, name: leaf(group, at), visibility: "team" as const, authorId: adminId, template: "." }))),
      ...groups.map((group) => ({ teamId, name: `group-${group}`, visibility: "team" as const, authorId: adminId, template: leaves.map((at) => tag(leaf(group, at), "version=1")).join("") })),
    ]);
    const template = groups.map((group) => tag(`group-${group}`, "label=latest")).join("");
    // Looked up in order: group-1 and its twenty, …, group-5 (the 85th) and its 16th leaf is the 101st.
    const message = INCLUDE_MSG.tooManyLookups({ name: leaf(5, 16), version: 1 }, ["many", "group-5"]);
    await expect(api.prompts.create({ teamId, name: "many", title: "Many", visibility: "team", type: "text", template })).rejects.toThrow(message);
    // One group fewer is within it.
    const fewer = await api.prompts.create({ teamId, name: "fewer", title: "Fewer", visibility: "team", type: "text", template: groups.slice(1).map((group) => tag(`group-${group}`, "label=latest")).join("") });
    expect((await api.prompts.get({ id: fewer.id, version: 1 })).resolved).toMatchObject({ ok: true, template: ".".repeat(80) });
  });
});

describe("a version met again is refused where following it again would be", () => {
  it("a cycle its second place closes", async () => {
    const { teamId, api } = await countedTeam();
    // n v1 is plain; x includes n v1; n v2 includes x. The root meets x alone first, then n v2 → x → n.
    const [n] = await insertPrompts(h, [
      { teamId, name: "n", visibility: "team", authorId: adminId, template: "plain" },
      { teamId, name: "x", visibility: "team", authorId: adminId, template: tag("n", "version=1") },
    ]);
    await h.database.db.promptVersion.create({ data: { promptId: n!.id, version: 2, type: "text", template: tag("x", "version=1"), authorId: adminId } });
    const template = `${tag("x", "version=1")}${tag("n", "version=2")}`;
    await expect(api.prompts.create({ teamId, name: "r", title: "R", visibility: "team", type: "text", template })).rejects.toThrow(INCLUDE_MSG.cycle(["r", "n", "x", "n"]));
  });

  it("a depth its second place passes", async () => {
    const { teamId, api } = await countedTeam();
    // x → y → z is three deep; the root meets x first at depth 2, then again below a → b → c.
    await insertPrompts(h, [
      { teamId, name: "z", visibility: "team", authorId: adminId, template: "z" },
      { teamId, name: "y", visibility: "team", authorId: adminId, template: tag("z", "version=1") },
      { teamId, name: "x", visibility: "team", authorId: adminId, template: tag("y", "version=1") },
      { teamId, name: "c", visibility: "team", authorId: adminId, template: tag("x", "version=1") },
      { teamId, name: "b", visibility: "team", authorId: adminId, template: tag("c", "version=1") },
      { teamId, name: "a", visibility: "team", authorId: adminId, template: tag("b", "version=1") },
    ]);
    const template = `${tag("x", "version=1")}${tag("a", "version=1")}`;
    await expect(api.prompts.create({ teamId, name: "r", title: "R", visibility: "team", type: "text", template })).rejects.toThrow(
      INCLUDE_MSG.tooDeep(["r", "a", "b", "c", "x", "y"]),
    );
  });
});
