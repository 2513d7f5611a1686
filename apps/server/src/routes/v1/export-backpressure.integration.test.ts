// A generations export goes at the pace its client reads: a client that stops reading stops the
// server's page reads once its socket is full, so the server holds a page of it, not the whole span
// (up to 100,000 generations) in memory; read again, the export goes on to its end.
import { request, type IncomingMessage } from "node:http";
import { createGunzip } from "node:zlib";
import express, { type Response } from "express";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAccount, createHarness, createOrganization, createTeam, type Harness } from "@promptly/api/testing";
import { createApp } from "../../app.ts";
import { listenForTests, type TestServer } from "../../../test/test-server.ts";

let h: Harness;
let server: TestServer;
let key: string;

/** The export's generations: 12 pages of 500, each about 10 KB (an error message of 10,240 characters). */
const GENERATIONS = 6_000;
const PAGES = 12;
const FROM = new Date(Date.UTC(2026, 10, 1));
const SPAN = `from=${FROM.toISOString()}&to=${new Date(FROM.getTime() + 86_400_000).toISOString()}`;

/** The export's response on the server, and its database's page reads: how many began, how many queries are running. */
let exporting: Response | undefined;
let pagesRead = 0;
let reading = 0;

beforeAll(async () => {
  h = await createHarness();
  const db = h.services.db;
  // The generations' reads (a page and its scores) counted as they go; every other query as it is.
  const countingDb = new Proxy(db, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (property !== "$queryRaw") return typeof value === "function" ? value.bind(target) : value;
      return (strings: TemplateStringsArray, ...values: unknown[]) => {
        const query = target.$queryRaw(strings, ...values);
        if (!strings.join("").includes("FROM generations g")) return query;
        if (strings.join("").includes("ORDER BY g.started_at DESC")) pagesRead++;
        reading++;
        return query.finally(() => reading--);
      };
    },
  });
  const host = express();
  host.use((req, res, next) => {
    if (req.path.endsWith("/generations")) exporting = res;
    next();
  });
  host.use(createApp({ services: { ...h.services, db: countingDb } }));
  server = await listenForTests(host);

  const person = await createAccount(h);
  const organization = await createOrganization(h, [{ userId: person.id, role: "admin" }]);
  const teamId = (await createTeam(h, organization.id, [{ userId: person.id, role: "admin" }], "Core")).id;
  const api = (await h.signedInClient(person.id)).api;
  const promptId = (await api.prompts.create({ teamId, name: "reply", title: "Reply", visibility: "team", type: "text", template: "One" })).id;
  key = (await api.apiKeys.create({ teamId, name: "backend" })).key;
  // Hex digests, so the export is as large on the wire as in memory.
  await db.$executeRaw`
    INSERT INTO generations (organization_id, team_id, prompt_id, prompt_name, version, observation_id, source, environment, started_at, status, error_message)
    SELECT ${organization.id}::uuid, ${teamId}::uuid, ${promptId}::uuid, 'reply', 1, 'obs-' || n, 'api', 'production', ${FROM}::timestamptz + n * interval '1 second', 'error',
           (SELECT string_agg(md5(n::text || '-' || i::text), '') FROM generate_series(1, 320) i)
      FROM generate_series(1, ${GENERATIONS}::int) n`;
});

afterAll(async () => {
  await server?.close();
  await h?.close();
});

/** The export's response, not read: its body waits in the client's socket until read. */
const unreadExport = (format: "csv" | "jsonl", headers: Record<string, string>) =>
  new Promise<IncomingMessage>((resolve, reject) => {
    const url = `${server.base}/api/v1/prompts/reply/generations?${SPAN}&format=${format}`;
    const sent = request(url, { headers: { authorization: `Bearer ${key}`, ...headers }, agent: false }, resolve);
    sent.on("error", reject).end();
  });

describe("a generations export read by a client that stops reading", () => {
  // Compressed, the export's writes go to the compression's stream, which takes the response's pace.
  it.each([
    { format: "jsonl", encoding: "identity", lines: GENERATIONS },
    { format: "csv", encoding: "gzip", lines: GENERATIONS + 1 },
  ] as const)("$format ($encoding): stops reading pages while the client's socket is full, holding a page at most, and goes on once read", async ({ format, encoding, lines }) => {
    pagesRead = 0;
    exporting = undefined;
    const response = await unreadExport(format, { "accept-encoding": encoding });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-encoding"]).toBe(encoding === "gzip" ? "gzip" : undefined);
    // Settled: no page is being read, and the answer is either written whole or full (waiting for the client).
    await vi.waitFor(
      () => {
        if (!(exporting && pagesRead > 0 && reading === 0 && (exporting.writableEnded || exporting.writableNeedDrain))) throw new Error("still reading pages");
      },
      { timeout: 60_000, interval: 10 },
    );
    const stalled = { ended: exporting!.writableEnded, pagesRead, held: exporting!.writableLength };

    let bytes = 0;
    let read = 0;
    for await (const chunk of (encoding === "gzip" ? response.pipe(createGunzip()) : response) as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      for (const byte of chunk) if (byte === 0x0a) read++;
    }
    expect(read).toBe(lines);
    expect(pagesRead).toBe(PAGES);
    // Not written whole while unread: it waited with fewer pages read than the export has, and held at most
    // about the page it last wrote (a page is a twelfth of the export).
    expect(stalled.ended).toBe(false);
    expect(stalled.pagesRead).toBeLessThan(PAGES);
    expect(stalled.held).toBeLessThan((2 * bytes) / PAGES);
  });

  it("ends when its client goes away: no page is read after", async () => {
    pagesRead = 0;
    exporting = undefined;
    const response = await unreadExport("jsonl", {});
    await vi.waitFor(() => {
      if (!(exporting && pagesRead > 0 && reading === 0 && exporting.writableNeedDrain)) throw new Error("still reading pages");
    }, { timeout: 60_000, interval: 10 });
    const before = pagesRead;
    response.destroy();
    await vi.waitFor(() => {
      if (!exporting!.destroyed) throw new Error("still connected");
    }, { timeout: 60_000, interval: 10 });
    // The close ends the export at once: a page read after it would have begun by now.
    await vi.waitFor(() => {
      if (reading !== 0) throw new Error("reading a page");
    }, { timeout: 60_000, interval: 10 });
    expect(pagesRead).toBe(before);
  });
});
