// Numbered slots shared by every app process: PostgreSQL session advisory locks on a dedicated
// connection. A slot is held while its lock is; a process that dies (or loses its connection) lets go
// of every slot it held at once, with no lease to wait out.
import pg from "pg";
import { utcSessions } from "./utc-sessions.ts";

export interface SlotLocks {
  /** False once the connection is lost: every slot it held is free again, whatever its owner believes. */
  readonly alive: boolean;
  /** Takes up to `count` of the slots 0..limit-1 of `key` that no session holds; answers those it took. */
  acquire(key: string, limit: number, count: number): Promise<number[]>;
  release(key: string, slots: readonly number[]): Promise<void>;
  close(): Promise<void>;
}

export async function openSlotLocks(url: string, onError: (error: unknown) => void): Promise<SlotLocks> {
  const client = new pg.Client({ ...utcSessions(url), connectionTimeoutMillis: 5_000 });
  let alive = true;
  client.on("error", (error) => {
    alive = false;
    onError(error);
  });
  client.on("end", () => {
    alive = false;
  });
  await client.connect();
  return {
    get alive() {
      return alive;
    },
    async acquire(key, limit, count) {
      if (count <= 0 || limit <= 0) return [];
      // LIMIT stops the scan once `count` slots are taken: no lock is taken that is not answered.
      const { rows } = await client.query<{ slot: number }>(
        "SELECT s AS slot FROM generate_series(0, $2::int - 1) s WHERE pg_try_advisory_lock(hashtext($1), s) LIMIT $3",
        [key, limit, count],
      );
      return rows.map((row) => row.slot);
    },
    async release(key, slots) {
      if (!slots.length || !alive) return;
      await client.query("SELECT pg_advisory_unlock(hashtext($1), s) FROM unnest($2::int[]) s", [key, [...slots]]);
    },
    async close() {
      alive = false;
      await client.end().catch(() => undefined);
    },
  };
}
