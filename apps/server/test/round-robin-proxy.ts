// For the cluster test: a small round-robin HTTP proxy in front of several app processes, standing in
// for nginx (docker-compose.yml). Policy when an upstream fails:
// - connection refused: the request never reached it, so it goes to the next upstream, whatever its method;
// - any other failure (reset mid-request, e.g. kill -9): GET and HEAD are retried on the next upstream
//   (they change nothing); other methods answer 502, since the write may or may not have been committed;
// - either way the upstream is skipped for DOWN_MS, then tried again.
import { createServer, request, type IncomingHttpHeaders, type Server } from "node:http";

const DOWN_MS = 5_000;
const IDEMPOTENT = new Set(["GET", "HEAD"]);

interface Upstream {
  port: number;
  downUntil: number;
  /** Answers it gave through the proxy. */
  answered: number;
}

export interface RoundRobinProxy {
  base: string;
  upstreams: readonly Upstream[];
  close(): Promise<void>;
}

interface Forwarded {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function forward(port: number, method: string, path: string, headers: IncomingHttpHeaders, body: Buffer) {
  return new Promise<Forwarded>((resolve, reject) => {
    const upstreamRequest = request({ host: "127.0.0.1", port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    upstreamRequest.on("error", reject);
    upstreamRequest.end(body);
  });
}

/** Listens on 127.0.0.1:`port` (0: any free port) and sends each request to the next of `ports`. */
export async function startRoundRobinProxy(ports: number[], port = 0): Promise<RoundRobinProxy> {
  const upstreams: Upstream[] = ports.map((port) => ({ port, downUntil: 0, answered: 0 }));
  let next = 0;
  const pick = (tried: Set<Upstream>) => {
    for (let i = 0; i < upstreams.length; i++) {
      const upstream = upstreams[next++ % upstreams.length]!;
      if (!tried.has(upstream) && upstream.downUntil <= Date.now()) return upstream;
    }
    return upstreams.find((upstream) => !tried.has(upstream)); // all marked down: try one anyway
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      const method = req.method ?? "GET";
      // The Host header stays the client's (APP_URL's host); the app trusts X-Forwarded-* from loopback (TRUST_PROXY).
      const headers = { ...req.headers, "x-forwarded-for": req.socket.remoteAddress ?? "", "x-forwarded-proto": "http", connection: "close" };
      const tried = new Set<Upstream>();
      for (let upstream = pick(tried); upstream; upstream = pick(tried)) {
        tried.add(upstream);
        try {
          const answer = await forward(upstream.port, method, req.url ?? "/", headers, Buffer.concat(chunks));
          upstream.answered++;
          res.writeHead(answer.status, { ...answer.headers, connection: "close" }).end(answer.body);
          return;
        } catch (error) {
          upstream.downUntil = Date.now() + DOWN_MS;
          const neverReached = (error as NodeJS.ErrnoException).code === "ECONNREFUSED";
          if (!neverReached && !IDEMPOTENT.has(method)) break;
        }
      }
      res.writeHead(502, { "content-type": "text/plain", connection: "close" }).end("Bad gateway");
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    upstreams,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
