import { createServer } from "node:net";

const handedOut = new Set<number>();

/**
 * A TCP port that was free a moment ago on 127.0.0.1, never one this process was given before: the
 * system may offer a just-closed port again, and two services given the same one cannot both start.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await unusedPort();
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
}

function unusedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
