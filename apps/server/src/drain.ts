// Graceful shutdown of the HTTP server: stop listening, let the requests in flight finish (up to a
// limit), close keep-alive connections as soon as they are idle, then cut whatever is left.
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { within } from "@promptly/shared";

export interface HttpDrain {
  /** True from the moment shutdown starts (the readiness probe answers 503 then). */
  isDraining(): boolean;
  /** Starts counting the server's requests; call once, right after it listens. */
  attach(server: Server): void;
  /** Stops the server; resolves when every connection is closed. `cut`: requests still running at the limit. */
  drain(timeoutMs: number): Promise<{ cut: number }>;
}

export function createHttpDrain(): HttpDrain {
  let draining = false;
  let server: Server | undefined;
  const inFlight = new Set<ServerResponse>();

  // A keep-alive connection whose request ends while we drain is closed: the client's next request
  // then opens a new connection, which reaches another process (or is refused), instead of being reset.
  const closeAfterAnswer = (res: ServerResponse) => {
    if (!res.headersSent) res.setHeader("Connection", "close");
  };
  const onRequest = (_req: IncomingMessage, res: ServerResponse) => {
    inFlight.add(res);
    if (draining) closeAfterAnswer(res);
    res.once("close", () => {
      inFlight.delete(res);
      // The answer may have started before draining (no Connection: close): close the connection once idle.
      if (draining) setImmediate(() => server?.closeIdleConnections());
    });
  };

  return {
    isDraining: () => draining,
    attach(listening) {
      server = listening;
      // Before the app's own listener, so the header can still be set on every answer.
      listening.prependListener("request", onRequest);
    },
    async drain(timeoutMs) {
      if (!server) return { cut: 0 };
      const stopping = server;
      draining = true;
      for (const res of inFlight) closeAfterAnswer(res);
      const closed = new Promise<void>((resolve) => stopping.close(() => resolve()));
      stopping.closeIdleConnections();
      if ((await within(closed, timeoutMs)) !== "late") return { cut: 0 };
      const cut = inFlight.size;
      stopping.closeAllConnections();
      // An upgraded connection (a WebSocket) is not HTTP's to close: stop waiting for it shortly.
      await within(closed, 1_000);
      return { cut };
    },
  };
}
