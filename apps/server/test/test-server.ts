// For the host's integration tests: the Express app on a free port of 127.0.0.1, and a way to stop it.
import type { Server } from "node:http";
import type { Express } from "express";

export interface TestServer {
  base: string;
  close(): Promise<void>;
}

export async function listenForTests(app: Express): Promise<TestServer> {
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  return {
    base: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
