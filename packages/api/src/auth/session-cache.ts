// The sessions this process served lately, with their user's fields, so a signed-in request needs no
// session query. Correct across processes: triggers (migration session_cache_notify) announce every
// change of a session row, a user row, a profile or an app role on the runtime channel in the writing
// transaction, and startRuntimeSync drops what changed. Entries answer only while this process is
// listening: a lost connection clears them, and sessions come from the database until LISTEN is back.
// Within this process a mutation needs no notification: while one runs nothing new is kept, and when
// it ends every entry goes, so the process that ended a session refuses it on the very next request.
import { Lru } from "@promptly/shared";
import type { SessionRow } from "./lucia.ts";

/** Sessions kept; those not read lately go first (Lru). */
const SESSION_CACHE_MAX_ENTRIES = 10_000;

export class SessionCache {
  /** By the session id's hash (the sessions table's key). */
  private readonly entries: Lru<SessionRow>;
  private listening = false;
  /** Moves on every drop: a database read that began before one is not kept. */
  private generation = 0;
  /** Mutations running in this process: what is read meanwhile may be changed by them before they end. */
  private writing = 0;

  constructor(max = SESSION_CACHE_MAX_ENTRIES) {
    this.entries = new Lru(max);
  }

  /** Take before reading the database; pass to `keep` so a read overtaken by a change is not kept. */
  mark(): number {
    return this.generation;
  }

  get(idHash: string): SessionRow | undefined {
    if (!this.listening) return undefined;
    return this.entries.get(idHash);
  }

  keep(idHash: string, row: SessionRow, mark: number) {
    if (!this.listening || this.writing > 0 || mark !== this.generation) return;
    this.entries.set(idHash, row);
  }

  /** This process changed or ended the session: gone now, not when the notification comes back. */
  drop(idHash: string) {
    this.generation++;
    this.entries.delete(idHash);
  }

  /**
   * A mutation begins in this process; call the returned function when it has ended (its writes
   * committed). Any mutation may end sessions or change a user (many paths do), so all entries go then.
   */
  beginWrite(): () => void {
    this.writing++;
    this.generation++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.writing--;
      this.clear();
    };
  }

  /** A notification: `session:<id hash>` drops that session, `user:<id>` the user's sessions, anything else all. */
  invalidate(payload: string) {
    this.generation++;
    const colon = payload.indexOf(":");
    const kind = payload.slice(0, colon);
    const id = payload.slice(colon + 1);
    if (kind === "session" && id) this.entries.delete(id);
    else if (kind === "user" && id) this.entries.dropWhere((row) => row.userId === id);
    else this.entries.clear();
  }

  /** Listening or not, what was kept may have missed a change: it all goes. */
  setListening(listening: boolean) {
    this.clear();
    this.listening = listening;
  }

  /** Whether sessions may come from memory: only while this process hears every change. */
  get serving() {
    return this.listening;
  }

  get size() {
    return this.entries.size;
  }

  private clear() {
    this.generation++;
    this.entries.clear();
  }
}

/** Whether a runtime-channel payload is the session cache's (the rest is the runtime cache's). */
export const isSessionPayload = (payload: string) =>
  payload.startsWith("session:") || payload.startsWith("user:") || payload === "sessions:all";
