// Graceful shutdown. On SIGTERM the real server process stops taking connections, finishes
// the requests in flight (answers on keep-alive connections say Connection: close), and exits 0;
// a request still running at SHUTDOWN_TIMEOUT_MS is cut and the process exits all the same; a second
// SIGTERM exits at once.
import { Agent, request, type IncomingHttpHeaders } from "node:http";
import { describe, expect, it } from "vitest";
import { serversOnFreshDatabase, type ServerProcess } from "../test/server-process.ts";

const start = serversOnFreshDatabase();
const startServer = (env: Record<string, string> = {}) => start({ TEST_FAULTS: "on", ...env });

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** GET `path`, held by the server for `delayMs` (TEST_FAULTS' delay cookie): the complete answer (or rejects when cut). */
function slowGet(base: string, path: string, delayMs: number, agent: Agent) {
  return new Promise<Answer>((resolve, reject) => {
    const req = request(`${base}${path}`, { agent, headers: { cookie: `promptly-test-delay=${delayMs}` } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/** A request on a connection of its own (no pooled keep-alive connection): status, or the network error's code. */
function freshRequest(base: string, path: string) {
  return new Promise<number | string>((resolve) => {
    const req = request(`${base}${path}`, { agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    req.end();
  });
}

const occurrences = (text: string, part: string) => text.split(part).length - 1;

/**
 * Waits until the server has `count` held requests in hand (each logs a line as the delay cookie holds
 * it): on a busy machine its event loop may lag behind, and a connection whose request it has not read
 * yet is idle to it, and closed at once on SIGTERM.
 */
async function held(server: ServerProcess, count: number) {
  await server.printed((output) => occurrences(output, `"msg":"request held by its test delay cookie"`) >= count);
}

/** Waits until the server has taken the first SIGTERM: it logs this right after closing its listener. */
async function draining(server: ServerProcess) {
  await server.printed((output) => output.includes(`"msg":"SIGTERM: finishing requests in flight, then stopping"`));
}

describe("graceful shutdown", () => {
  it("SIGTERM with 50 requests in flight: all 50 get complete 200 answers, new connections are refused, exit code 0", async () => {
    const server = await startServer();
    const agent = new Agent({ keepAlive: true, maxSockets: 50 });
    // Keep-alive connections that answered once before: they are idle when the signal comes.
    await Promise.all(Array.from({ length: 5 }, () => slowGet(server.base, "/trpc/auth.me", 0, agent)));
    const requests = Array.from({ length: 50 }, () => slowGet(server.base, "/trpc/auth.me", 2_500, agent));
    await held(server, requests.length);
    const signalled = Date.now();
    server.child.kill("SIGTERM");
    await draining(server);

    const afterSignal = await freshRequest(server.base, "/api/health/ready");
    expect(afterSignal === 503 || afterSignal === "ECONNREFUSED" || afterSignal === "ECONNRESET").toBe(true);

    const settled = await Promise.allSettled(requests);
    const cut = settled.filter((result) => result.status === "rejected");
    expect(cut, `requests cut:\n${server.output()}`).toEqual([]);
    const answers = settled.map((result) => (result as PromiseFulfilledResult<Answer>).value);
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toEqual({ result: { data: { json: null } } });
      // Answered while draining: the keep-alive connection is closed after it.
      expect(answer.headers.connection).toBe("close");
    }
    expect(await server.exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(10_000);
    expect(server.output()).toContain("SIGTERM: finishing requests in flight");
    expect(server.output()).toContain(`"msg":"Stopped"`);
    expect(server.output()).not.toContain("were cut");
    agent.destroy();
  }, 90_000);

  it("a request longer than SHUTDOWN_TIMEOUT_MS is cut at the limit, and the process still exits 0", async () => {
    const server = await startServer({ SHUTDOWN_TIMEOUT_MS: "1000" });
    const agent = new Agent({ keepAlive: true });
    const quick = slowGet(server.base, "/trpc/auth.me", 300, agent);
    const endless = slowGet(server.base, "/trpc/auth.me", 60_000, agent);
    await held(server, 2);
    const signalled = Date.now();
    server.child.kill("SIGTERM");

    expect((await quick).status).toBe(200);
    await expect(endless).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect(await server.exited).toBe(0);
    const took = Date.now() - signalled;
    expect(took).toBeGreaterThanOrEqual(1_000);
    expect(took).toBeLessThan(8_000);
    expect(server.output()).toContain(`"cut":1,"limitMs":1000,"msg":"requests still running at the shutdown limit were cut"`);
    agent.destroy();
  }, 90_000);

  it("a second SIGTERM while draining exits at once with a non-zero code", async () => {
    const server = await startServer();
    const agent = new Agent({ keepAlive: true });
    const endless = slowGet(server.base, "/trpc/auth.me", 60_000, agent);
    endless.catch(() => undefined);
    await held(server, 1);
    server.child.kill("SIGTERM");
    await draining(server);
    const again = Date.now();
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(1);
    expect(Date.now() - again).toBeLessThan(3_000); // not the 10 s drain limit
    expect(server.output()).toContain("SIGTERM again: exiting without waiting");
    agent.destroy();
  }, 90_000);
});
