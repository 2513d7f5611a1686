import { createHash } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient, Prisma } from "./generated/prisma/client.ts";
import { fastTimestampTypes } from "./timestamps.ts";
import { utcSessions } from "./utc-sessions.ts";

export { Prisma } from "./generated/prisma/client.ts";
export type * from "./generated/prisma/models.ts";
export * from "./generated/prisma/enums.ts";

/**
 * An instant as a raw query's parameter: ISO text with its Z, so the database reads the same instant in
 * any session time zone (the driver adapter sends a Date without its offset, read in the session's zone).
 * Every connection of ours is in UTC (utcSessions), so this holds even in a session set otherwise.
 */
export const sqlInstant = (date: Date) => Prisma.sql`${date.toISOString()}::timestamptz`;

export type Db = PrismaClient;
/** The client inside `db.$transaction(async (tx) => ...)`. */
export type DbTransaction = Parameters<Parameters<Db["$transaction"]>[0]>[0];
/** Services accept either the client or a transaction. */
export type DbOrTx = Db | DbTransaction;

export interface CreateDbOptions {
  url: string;
  /** Pool size of node-postgres; the default suits one small server process. */
  max?: number;
  /** Where a lost connection is told (a database restart, a terminated backend); console.warn by default. */
  warn?: (line: string) => void;
  /** The connections' application_name (pg_stat_activity), unless the URL names one. */
  applicationName?: string;
}

/** Each client's node-postgres pool, read when metrics are scraped. */
const pools = new WeakMap<Db, pg.Pool>();

/** One client per process: create it at start-up and pass it down as `ctx.db`. */
export function createDb({ url, max = 10, warn = console.warn, applicationName }: CreateDbOptions): Db {
  // Our own pool rather than the adapter's, so its use can be measured; $disconnect still ends it.
  // Prisma's queries bring their own type parsers; hotRead and hotQuery read timestamptz with the fast one.
  const pool = new pg.Pool({ ...utcSessions(url), max, types: fastTimestampTypes, ...(applicationName ? { application_name: applicationName } : {}) });
  tellConnectionErrors(pool, (error) => warn(`database connection lost: ${error.message}`));
  const db = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true, statementNameGenerator: preparedStatementNames() }) });
  pools.set(db, pool);
  return db;
}

/**
 * One read on the client's own connections without Prisma's query engine, for the statement every
 * request runs (the session lookup): a named prepared statement, planned once per connection.
 * Null when the client has no pool of ours (then the caller asks Prisma).
 */
export async function hotRead<Row>(db: Db, statement: { name: string; text: string; values: unknown[] }): Promise<Row[] | null> {
  const { pool, counted } = poolOf(db);
  if (!pool) return null;
  counted();
  const result = await pool.query<Row & pg.QueryResultRow>(statement);
  return result.rows;
}

/** hotQuery's names for its statements (bounded apart from the adapter's and rawTransaction's). */
const hotQueryName = statementNamer("h_");

/**
 * A raw read (a `Prisma.sql` template) on the client's own connections as a named prepared statement,
 * skipping Prisma's query engine and its conversion of every value: for list reads whose rows are many
 * or whose statement runs on every request. In a transaction (or on a client without our pool) it is
 * Prisma's $queryRaw. Only for columns node-postgres reads as Prisma does: text, uuid, enums as text,
 * int4, bool, timestamptz and json; not int8, numeric or arrays of enums (cast those in the SQL).
 */
export async function hotQuery<Row>(db: DbOrTx, sql: Prisma.Sql): Promise<Row[]> {
  const { pool, counted } = poolOf(db as Db);
  if (!pool) return (db as Db).$queryRaw<Row[]>(sql);
  counted();
  const text = sql.text;
  const name = hotQueryName(text);
  const result = await pool.query<Row & pg.QueryResultRow>({ ...(name ? { name } : {}), text, values: sql.values as unknown[] });
  return result.rows;
}

/**
 * PostgreSQL's refusal of a prepared statement whose answer's columns changed since it was prepared (0A000, which
 * other refusals share: told apart by its words, PostgreSQL's English ones; a server set to another language
 * (lc_messages) keeps such a connection, and ingestion counts the failure as lasting).
 */
export const isStalePlan = (error: unknown) =>
  (error as { code?: unknown } | null)?.code === "0A000" && /cached plan must not change result type/.test((error as Error).message);

/**
 * rawTransaction's names for its statements: PostgreSQL parses and plans each once per connection instead of at
 * every run (ingestion's merges run a dozen of them several times a second). Their texts are fixed but for a few
 * variants; past MAX_PREPARED_STATEMENTS of them the rest run unnamed, as before.
 */
const rawStatementName = statementNamer("r_");

/** Clients derived from one of ours (`$extends`): its pool, and what to tell of each statement run on it. */
const derivedPools = new WeakMap<Db, { pool: pg.Pool; onStatement?: () => void }>();

/**
 * Lets `derived` (a client made from `base` with `$extends`, e.g. one that counts its queries) run
 * hotRead, hotQuery and rawTransaction on base's connections as base does, so what runs on it is what
 * production runs; `onStatement` hears of each statement sent that way, as the extension hears of
 * Prisma's.
 */
export function derivedFrom<T extends object>(derived: T, base: Db, onStatement?: () => void): T {
  const pool = pools.get(base);
  if (pool) derivedPools.set(derived as unknown as Db, { pool, onStatement });
  return derived;
}

const uncounted = () => {};

/** The client's own pool (or the one it was derived from), and what counts a statement sent on it. */
function poolOf(db: Db): { pool: pg.Pool | undefined; counted: () => void } {
  const own = pools.get(db);
  if (own) return { pool: own, counted: uncounted };
  const derived = derivedPools.get(db);
  return { pool: derived?.pool, counted: derived?.onStatement ?? uncounted };
}

/** poolOf for what runs only on our own connections (no Prisma to fall back on): `what` names it when there are none. */
function ownPoolOf(db: Db, what: string): { pool: pg.Pool; counted: () => void } {
  const { pool, counted } = poolOf(db);
  if (!pool) throw new Error(`${what} needs a client made by createDb (or one derived from it and told so by derivedFrom)`);
  return { pool, counted };
}

/** A transaction on one of the client's own connections: `Prisma.sql` statements, and COPY for bulk rows. */
export interface RawTransaction {
  query<Row>(sql: Prisma.Sql): Promise<Row[]>;
  /** COPY `table` (`columns`) FROM STDIN of rows already in COPY's text format (see copyText), as text or its UTF-8 bytes (CopyText). */
  copy(table: string, columns: readonly string[], rows: string | Buffer): Promise<void>;
}

/**
 * Runs `work` in a transaction on the client's own pool, without Prisma's engine, so a bulk write can
 * use COPY (PostgreSQL's batched insert: about half an INSERT's cost a row on a partitioned table) and
 * its statements skip the engine's conversion of every value. Rows come back as node-postgres reads
 * them: int8 and numeric as text (cast in the SQL where a number is wanted). Statements run under
 * `timeoutMs`, as Prisma's interactive transactions do; any error rolls everything back.
 */
export async function rawTransaction<T>(db: Db, work: (tx: RawTransaction) => Promise<T>, { timeoutMs = 30_000, genericPlans = false } = {}): Promise<T> {
  const { pool, counted } = ownPoolOf(db, "rawTransaction");
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    // genericPlans: the transaction's prepared statements run on their generic plan from the first time, not
    // planned anew each time with their values. For work run over and over with values that change nothing in
    // how it should run (ingestion's merges): PostgreSQL otherwise keeps planning a statement on a partitioned
    // table each time (its generic plan, pruned only at run time, looks dearer), about 1 ms apiece.
    await client.query(`BEGIN; SET LOCAL statement_timeout = ${Math.max(1, Math.floor(timeoutMs))}${genericPlans ? "; SET LOCAL plan_cache_mode = force_generic_plan" : ""}`);
    const tx: RawTransaction = {
      query: async <Row>(sql: Prisma.Sql) => {
        counted();
        // Only a statement with parameters is named: one without may hold several commands (a test's DDL, a
        // migration), which only the simple protocol runs.
        const name = sql.values.length ? rawStatementName(sql.text) : undefined;
        try {
          return (await client.query<Row & pg.QueryResultRow>({ ...(name ? { name } : {}), text: sql.text, values: sql.values as unknown[] })).rows;
        } catch (error) {
          // A migration changed what a statement prepared on this connection answers: PostgreSQL refuses it here for
          // good, so the connection is not lent again (the next one prepares it anew).
          if (isStalePlan(error)) broken = error as Error;
          throw error;
        }
      },
      copy: (table, columns, rows) => {
        counted();
        return copyFrom(client, `COPY ${table} (${columns.join(", ")}) FROM STDIN`, rows);
      },
    };
    const result = await work(tx);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    // A connection that cannot even roll back (lost, or its backend terminated) is released with the
    // error, so the pool discards it instead of lending it again.
    await client.query("ROLLBACK").catch((rollbackError: unknown) => {
      broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
    });
    throw error;
  } finally {
    client.release(broken);
  }
}

/**
 * One statement (a `Prisma.sql` template) on the client's own pool, outside any transaction (it
 * commits alone): for writes of rawTransaction's callers that need no transaction of their own.
 */
export async function rawStatement<Row>(db: Db, sql: Prisma.Sql): Promise<Row[]> {
  const { pool, counted } = ownPoolOf(db, "rawStatement");
  counted();
  return (await pool.query<Row & pg.QueryResultRow>({ text: sql.text, values: sql.values as unknown[] })).rows;
}

/** ISO text of the seconds seen lately (a batch's timestamps are close): toISOString is most of a row's COPY text. */
const isoSeconds = new Map<number, string>();
const YEAR_10000 = 253_402_300_800_000;

/** `date.toISOString()`, from the text of its second when that was made lately. */
function isoText(date: Date): string {
  const time = date.getTime();
  // Outside years 1970 to 9999 (or not a date): as toISOString says it (a sign, six digits, or a throw).
  if (!(time >= 0 && time < YEAR_10000)) return date.toISOString();
  const second = Math.floor(time / 1000);
  let prefix = isoSeconds.get(second);
  if (prefix === undefined) {
    if (isoSeconds.size >= 4096) isoSeconds.clear();
    prefix = date.toISOString().slice(0, 20);
    isoSeconds.set(second, prefix);
  }
  const millis = time - second * 1000;
  return `${prefix}${millis < 10 ? "00" : millis < 100 ? "0" : ""}${millis}Z`;
}

/**
 * One value in COPY's text format: `\N` for null, backslash, tab, newline and carriage return escaped.
 * A NUL character, which no PostgreSQL text can hold, becomes U+FFFD (as a decoder's replacement).
 */
export function copyText(value: string | number | boolean | Date | null | undefined): string {
  if (value === null || value === undefined) return "\\N";
  if (value instanceof Date) return isoText(value);
  if (typeof value !== "string") return String(value);
  if (!/[\\\t\n\r\0]/.test(value)) return value;
  return value.replace(/[\\\t\n\r\0]/g, (char) => (char === "\\" ? "\\\\" : char === "\t" ? "\\t" : char === "\n" ? "\\n" : char === "\r" ? "\\r" : "\uFFFD"));
}

/**
 * COPY's text built line by line straight into UTF-8 bytes, for rows written by the thousand: a string
 * concatenated line by line is a rope of every piece, flattened and encoded again as a whole when sent
 * (about three times the work, and the pieces' garbage outlives the statement's round trips).
 */
export class CopyText {
  private buffer: Buffer;
  private length = 0;
  constructor(expectedBytes = 65_536) {
    this.buffer = Buffer.allocUnsafe(expectedBytes);
  }
  /** Appends `line` (its values already in COPY's text format, newline included). */
  add(line: string): void {
    // A UTF-16 code unit takes at most 3 bytes of UTF-8 (a lone surrogate becomes U+FFFD, 3 bytes; a pair 4 for 2).
    const most = line.length * 3;
    if (this.length + most > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + most));
      this.buffer.copy(grown, 0, 0, this.length);
      this.buffer = grown;
    }
    this.length += this.buffer.write(line, this.length, "utf8");
  }
  bytes(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}

/** COPY ... FROM STDIN of `data` on a node-postgres client (which has no COPY of its own: its submittable protocol). */
export function copyFrom(client: pg.ClientBase, sql: string, data: string | Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const submittable = {
      submit(connection: { query(text: string): void }) {
        connection.query(sql);
      },
      handleCopyInResponse(connection: { sendCopyFromChunk(chunk: Buffer): void; endCopyFrom(): void }) {
        if (data.length) connection.sendCopyFromChunk(typeof data === "string" ? Buffer.from(data, "utf8") : data);
        connection.endCopyFrom();
      },
      handleCommandComplete() {},
      // Failed at once, as node-postgres's own queries are: a connection lost (its backend terminated)
      // never sends the ReadyForQuery this would otherwise wait for. The client's next statement (the
      // ROLLBACK) still waits for it on a live connection.
      handleError(error: Error) {
        reject(error);
      },
      handleReadyForQuery() {
        resolve();
      },
    };
    void client.query(submittable as unknown as pg.QueryConfig);
  });
}

/** The pool's connections now: open in all, idle among them, and queries waiting for one. */
export function dbPoolUse(db: Db): { total: number; idle: number; waiting: number } | null {
  const pool = pools.get(db);
  return pool ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } : null;
}

export type Pool = pg.Pool;

/**
 * A plain node-postgres pool beside the Prisma client, for statements a library writes itself (the
 * rate-limit counters' upsert). Errors of its connections, idle or checked out, go to `onError` instead of
 * crashing the process (a checked-out one's pending query fails with the error as well).
 */
export function createPool({ url, max = 4 }: CreateDbOptions, onError: (error: Error) => void): Pool {
  const pool = new pg.Pool({ ...utcSessions(url), max, connectionTimeoutMillis: 5_000 });
  tellConnectionErrors(pool, onError);
  return pool;
}

/**
 * A connection that drops (a database restart, its backend terminated) must not crash the process,
 * idle or checked out (a transaction's, rawTransaction's: the pool listens only to idle ones). Its
 * pending query fails with the error and its holder releases it with that; `tell` hears it once per
 * connection (node-postgres may emit twice: the server's message, then the socket's end). The pool's own
 * listener, which an idle connection's error also reaches, only keeps it from being uncaught.
 */
function tellConnectionErrors(pool: Pool, tell: (error: Error) => void): void {
  const told = new WeakSet<pg.PoolClient>();
  pool.on("error", () => undefined);
  pool.on("connect", (client) =>
    client.on("error", (error) => {
      if (told.has(client)) return;
      told.add(client);
      tell(error);
    }),
  );
}

/** Distinct statements prepared at most: beyond, a statement is planned each time (bounds the server's memory). */
const MAX_PREPARED_STATEMENTS = 500;

/**
 * A statement's name by its SQL's hash (`prefix` keeps each user's names apart), so node-postgres prepares it once
 * per connection and PostgreSQL stops planning it on every call (planning the session lookup's four-table join
 * took longer than running it). Past MAX_PREPARED_STATEMENTS distinct texts, undefined: the statement stays unnamed.
 */
function statementNamer(prefix: string): (text: string) => string | undefined {
  const names = new Map<string, string>();
  return (text) => {
    let name = names.get(text);
    if (name === undefined && names.size < MAX_PREPARED_STATEMENTS) {
      name = `${prefix}${createHash("sha1").update(text).digest("hex")}`;
      names.set(text, name);
    }
    return name;
  };
}

/** Names for the adapter's statements; node-postgres runs a query without a name as an unnamed statement (parsed and planned each time). */
function preparedStatementNames() {
  const name = statementNamer("p_");
  return ({ sql }: { sql: string }): string => name(sql) as string;
}

/**
 * Runs `work` in a transaction: the caller's when `db` already is one, else a new one. Lets a service's
 * multi-step write be atomic on its own and still join a larger transaction of its caller.
 */
export function inTransaction<T>(db: DbOrTx, work: (tx: DbTransaction) => Promise<T>): Promise<T> {
  // Only the root client can connect; a transaction client has no $connect (it does have $transaction).
  const isRootClient = typeof (db as { $connect?: unknown }).$connect === "function";
  return isRootClient ? (db as Db).$transaction(work) : work(db as DbTransaction);
}

/** True when `error` is Prisma's unique-constraint violation (P2002). */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: string }).code === "P2002";
}

/**
 * True when PostgreSQL ended the transaction as deadlocked (40P01): Prisma's P2034 for its own queries; a
 * raw query's P2010 carries the code its driver adapter read. Only the transaction ended: run again, it can pass.
 */
function isDeadlock(error: unknown): boolean {
  const failure = error as { code?: unknown; meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } } } | null;
  return failure?.code === "P2034" || failure?.meta?.driverAdapterError?.cause?.originalCode === "40P01";
}

/**
 * Runs `work` (a whole transaction) again when PostgreSQL ends it as deadlocked, `tries` times in all.
 * Only that transaction ended, nothing of it is left, and the other side went on: run again, it can pass.
 */
export async function retryOnDeadlock<T>(work: () => Promise<T>, tries = 3): Promise<T> {
  for (let tried = 1; ; tried++) {
    try {
      return await work();
    } catch (error) {
      if (tried >= tries || !isDeadlock(error)) throw error;
    }
  }
}

/**
 * How long a delete that takes production data with it (a prompt's, a team's, an organization's) may run:
 * its generations go at about 3 s a million, so past Prisma's default 5 s one with a couple of million could
 * never be deleted.
 */
export const PRODUCTION_DATA_DELETE_TIMEOUT_MS = 10 * 60_000;
