// LISTEN on a PostgreSQL channel over a dedicated connection: pg_notify() inside a transaction is
// delivered when it commits, so listeners in every app process hear of work as soon as it exists.
import pg from "pg";

export interface Listener {
  /** False after the connection failed; the owner may start a new listener. */
  readonly alive: boolean;
  close(): Promise<void>;
}

export async function listen(url: string, channel: string, onNotify: () => void, onError: (error: unknown) => void): Promise<Listener> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Invalid channel name: ${channel}`);
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  let alive = true;
  client.on("notification", () => onNotify());
  client.on("error", (error) => {
    alive = false;
    onError(error);
  });
  client.on("end", () => {
    alive = false;
  });
  try {
    await client.connect();
    await client.query(`LISTEN ${channel}`);
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
      alive = false;
      await client.end().catch(() => undefined);
    },
  };
}
