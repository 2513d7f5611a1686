// LISTEN on a PostgreSQL channel over a dedicated connection: pg_notify() inside a transaction is
// delivered when it commits, so listeners in every app process hear of work as soon as it exists.
import pg from "pg";
import { utcSessions } from "./utc-sessions.ts";

export interface Listener {
  /** False after the connection failed; the owner may start a new listener. */
  readonly alive: boolean;
  close(): Promise<void>;
}

/**
 * `onNotify` receives each notification's payload; `onClose` (optional) is called once when the
 * connection is lost, so an owner that trusts what it heard can stop trusting it at once.
 */
export async function listen(
  url: string,
  channel: string,
  onNotify: (payload: string) => void,
  onError: (error: unknown) => void,
  onClose?: () => void,
): Promise<Listener> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Invalid channel name: ${channel}`);
  const client = new pg.Client({ ...utcSessions(url), connectionTimeoutMillis: 5_000 });
  let alive = true;
  let opened = false;
  const lost = () => {
    const wasAlive = alive;
    alive = false;
    if (wasAlive && opened) onClose?.();
  };
  client.on("notification", (message) => onNotify(message.payload ?? ""));
  client.on("error", (error) => {
    lost();
    onError(error);
  });
  client.on("end", lost);
  try {
    await client.connect();
    await client.query(`LISTEN ${channel}`);
    opened = true;
  } catch (error) {
    alive = false;
    await client.end().catch(() => undefined);
    throw error;
  }
  return {
    get alive() {
      return alive;
    },
    async close() {
      // Closed on purpose: not a loss the owner must react to.
      alive = false;
      await client.end().catch(() => undefined);
    },
  };
}
