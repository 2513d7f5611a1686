// GET /api/v1/evaluations/{id}/items streamed: an evaluation's items (up to 10,000, each with up to
// 200,000 characters of output) are read 50 a statement and written as they are read, at the pace the
// client reads, so the server holds a page, not the whole answer, and no database session between pages. The answer's text is
// JSON.stringify of the whole answer (what res.json sent), in order; refusals are still JSON errors.
import { request, type IncomingMessage } from "node:http";
import express, { type Response } from "express";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAccount, createHarness, createOrganization, createTeam, type Harness } from "@promptly/api/testing";
import { EVALUATION_MSG, runtimeError } from "@promptly/shared";
import { createApp } from "../../app.ts";
import { listenForTests, type TestServer } from "../../../test/test-server.ts";

let h: Harness;
let server: TestServer;
let key: string;
let organizationId: string;
let promptId: string;
let otherTeamsPromptId: string;
/** The last items answer's response on the server. */
let answering: Response | undefined;
/** Items read per statement (PAGE; evaluation-item-pages.integration.test.ts reads them as pages). */
const PAGE = 50;

beforeAll(async () => {
  h = await createHarness();
  const host = express();
  host.use((req, res, next) => {
    if (req.path.endsWith("/items")) answering = res;
    next();
  });
  host.use(createApp({ services: h.services }));
  server = await listenForTests(host);
  const person = await createAccount(h);
  organizationId = (await createOrganization(h, [{ userId: person.id, role: "admin" }])).id;
  const teamId = (await createTeam(h, organizationId, [{ userId: person.id, role: "admin" }], "Core")).id;
  const otherTeamId = (await createTeam(h, organizationId, [{ userId: person.id, role: "admin" }], "Other")).id;
  const api = (await h.signedInClient(person.id)).api;
  promptId = (await api.prompts.create({ teamId, name: "reply", title: "Reply", visibility: "team", type: "text", template: "Hi {{ who }}" })).id;
  otherTeamsPromptId = (await api.prompts.create({ teamId: otherTeamId, name: "reply", title: "Reply", visibility: "team", type: "text", template: "Hi {{ who }}" })).id;
  key = (await api.apiKeys.create({ teamId, name: "ci" })).key;
});

afterAll(async () => {
  await server?.close();
  await h?.close();
});

const newEvaluation = async (prompt: string, versions: number[]) =>
  (await h.database.db.evaluation.create({ data: { organizationId, promptId: prompt, versions, connectionName: "Local", status: "done" } })).id;

/**
 * An evaluation of versions 1, 2 and 10 (numbers, not text, in order), 45 cases each: 135 items, three
 * pages. Written in no particular order, with every kind of outcome: passed with verdicts, failed, an
 * error with its detail, still pending (nulls).
 */
async function mixedEvaluation() {
  const id = await newEvaluation(promptId, [1, 2, 10]);
  const rows = [10, 1, 2].flatMap((version) =>
    Array.from({ length: 45 }, (_, i) => (i * 17) % 45).map((position) => {
      const kind = (position + version) % 4;
      return {
        evaluationId: id, version, position, variables: { who: `Ann ${position}`, nested: { n: position, quote: 'a "b" \\ c\n' } },
        status: (["passed", "failed", "error", "pending"] as const)[kind],
        output: kind === 3 ? null : `Hi Ann ${position} ✓ v${version}`,
        results: kind < 2 ? [{ type: "contains", value: "Ann", pass: kind === 0 }, { type: "llm", pass: true, reason: "fine" }] : undefined,
        error: kind === 2 ? "Could not reach Local" : null,
        errorDetail: kind === 2 ? "ECONNREFUSED" : null,
        latencyMs: kind === 3 ? null : 100 + position,
        inputTokens: kind === 3 ? null : 3, outputTokens: kind === 3 ? null : 4, cost: kind === 3 ? null : 0.001,
      };
    }),
  );
  await h.database.db.evaluationItem.createMany({ data: rows });
  return id;
}

/** What the answer was before it was streamed: every item in one statement, by version then position. */
async function wholeAnswer(id: string) {
  const rows = await h.database.db.evaluationItem.findMany({ where: { evaluationId: id }, orderBy: [{ version: "asc" }, { position: "asc" }] });
  return {
    items: rows.map((row) => ({
      position: row.position, version: row.version, status: row.status, variables: row.variables, output: row.output,
      results: row.results, error: row.error, errorDetail: row.errorDetail, latencyMs: row.latencyMs,
    })),
  };
}

const get = (path: string, bearer = key) => fetch(`${server.base}/api/v1${path}`, { headers: { authorization: `Bearer ${bearer}` } });

describe("GET /api/v1/evaluations/{id}/items", () => {
  it("answers every item, by version then position, as the whole answer's JSON text, over more than two pages", async () => {
    const id = await mixedEvaluation();
    const response = await get(`/evaluations/${id}/items`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    const whole = await wholeAnswer(id);
    expect(whole.items).toHaveLength(135);
    expect(whole.items.slice(0, 2).map((item) => [item.version, item.position])).toEqual([[1, 0], [1, 1]]);
    expect(await response.text()).toBe(JSON.stringify(whole));
  });

  it("answers an evaluation without items, and one of exactly two pages", async () => {
    const empty = await newEvaluation(promptId, [1]);
    expect(await (await get(`/evaluations/${empty}/items`)).text()).toBe('{"items":[]}');
    const full = await newEvaluation(promptId, [1]);
    await h.database.db.evaluationItem.createMany({ data: Array.from({ length: 2 * PAGE }, (_, position) => ({ evaluationId: full, version: 1, position })) });
    expect(await (await get(`/evaluations/${full}/items`)).json()).toEqual(await wholeAnswer(full));
  });

  it("refuses as before, as JSON errors: another team's evaluation and an unknown id 404, an invalid id 400", async () => {
    const others = await newEvaluation(otherTeamsPromptId, [1]);
    await h.database.db.evaluationItem.create({ data: { evaluationId: others, version: 1, position: 0, output: "secret" } });
    for (const [path, status] of [
      [`/evaluations/${others}/items`, 404],
      ["/evaluations/00000000-0000-4000-8000-000000000000/items", 404],
      ["/evaluations/not-an-id/items", 400],
    ] as const) {
      const response = await get(path);
      expect([path, response.status, response.headers.get("content-type")]).toEqual([path, status, "application/json; charset=utf-8"]);
      const { error } = runtimeError.parse(await response.json());
      if (status === 404) expect(error).toMatchObject({ code: "NOT_FOUND", message: EVALUATION_MSG.evaluationNotFound });
      else expect(error.code).toBe("BAD_REQUEST");
    }
  });
});

describe("GET /api/v1/evaluations/{id}/items read by a client that stops reading", () => {
  /** 10 pages of 50 items, each with 100,000 characters of output: 50 MB. */
  const ITEMS = 10 * PAGE;
  let id: string;
  beforeAll(async () => {
    id = await newEvaluation(promptId, [1]);
    await h.database.db.$executeRaw`
      INSERT INTO evaluation_items (evaluation_id, version, position, status, output)
      SELECT ${id}::uuid, 1, n, 'passed', repeat(md5(n::text), 3125) FROM generate_series(0, ${ITEMS - 1}::int) n`;
  });

  /** The answer, not read: its body waits in the client's socket until read. */
  const unread = (evaluationId = id) =>
    new Promise<IncomingMessage>((resolve, reject) => {
      const sent = request(`${server.base}/api/v1/evaluations/${evaluationId}/items`, { headers: { authorization: `Bearer ${key}`, "accept-encoding": "identity" }, agent: false }, resolve);
      sent.on("error", reject).end();
    });

  /** Sessions held open on the database in a transaction that read the items (none is: each page is a statement). */
  const openSnapshots = async () =>
    (await h.database.db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid() AND xact_start IS NOT NULL AND state <> 'active'`)[0]!.n;

  it("holds about a page while the client's socket is full, and goes on to the end once read", { timeout: 60_000 }, async () => {
    answering = undefined;
    const response = await unread();
    expect(response.statusCode).toBe(200);
    await vi.waitFor(() => {
      if (!(answering && (answering.writableEnded || answering.writableNeedDrain))) throw new Error("still writing");
    }, { timeout: 30_000, interval: 10 });
    const stalled = { ended: answering!.writableEnded, held: answering!.writableLength };
    const chunks: Buffer[] = [];
    for await (const chunk of response as AsyncIterable<Buffer>) chunks.push(chunk);
    const text = Buffer.concat(chunks).toString("utf8");
    const { items } = JSON.parse(text) as { items: { position: number; output: string }[] };
    expect(items.map((item) => item.position)).toEqual(Array.from({ length: ITEMS }, (_, n) => n));
    expect(stalled.ended).toBe(false);
    expect(stalled.held).toBeLessThan((2 * text.length) / 10);
  });

  it("holds no database session while the client does not read (a few slow clients must not take the pool)", { timeout: 60_000 }, async () => {
    answering = undefined;
    const response = await unread();
    await vi.waitFor(() => {
      if (!(answering && answering.writableNeedDrain)) throw new Error("still writing");
    }, { timeout: 30_000, interval: 10 });
    expect(await openSnapshots()).toBe(0);
    response.destroy();
  });

  it("cuts its answer short when the evaluation is deleted while it is read: never a shorter answer that looks whole", { timeout: 60_000 }, async () => {
    const deleted = await newEvaluation(promptId, [1]);
    await h.database.db.$executeRaw`
      INSERT INTO evaluation_items (evaluation_id, version, position, status, output)
      SELECT ${deleted}::uuid, 1, n, 'passed', repeat(md5(n::text), 3125) FROM generate_series(0, ${ITEMS - 1}::int) n`;
    answering = undefined;
    const response = await unread(deleted);
    await vi.waitFor(() => {
      if (!(answering && answering.writableNeedDrain)) throw new Error("still writing");
    }, { timeout: 30_000, interval: 10 });
    await h.database.db.$executeRaw`DELETE FROM evaluations WHERE id = ${deleted}::uuid`;
    const read = (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of response as AsyncIterable<Buffer>) chunks.push(chunk);
      return JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
    })();
    await expect(read).rejects.toThrow();
  });
});
