// The runtime API served from memory: each app process keeps resolved prompts and
// authenticated keys in a bounded LRU, and counts usage in memory. Correct across processes: triggers
// in the database (migration prompt_usage) send pg_notify on the `promptly_runtime` channel in the
// transaction of every write that can change an answer, every process LISTENs and drops what changed.
// The cache answers only while this process is listening: a lost connection clears it, and answers
// come from the database until a new LISTEN is in place. No answer is staler than the commit that
// changed it plus the notification's delivery.
import type { Db } from "@promptly/db";
import { listen, type Listener } from "@promptly/db/listen";
import type { IncludeRef, PromptFacts, RuntimePrompt } from "@promptly/shared";
import type { ApiKeyCache, CachedApiKey } from "../identity/api-keys.ts";
import { Lru, parsedSize } from "@promptly/shared";
import { runtimeCacheLookups } from "../platform/metrics.ts";
import { isSessionPayload, type SessionCache } from "../../auth/session-cache.ts";

/** Entries each map (prompts, keys) keeps; those not read lately go first (Lru). */
const RUNTIME_CACHE_MAX_ENTRIES = 5_000;
/**
 * The estimated bytes the prompts together may hold (RUNTIME_CACHE_MAX_MB): a version's text can be
 * 100,000 characters, more with its includes resolved, so 5,000 of them could hold gigabytes.
 */
const RUNTIME_CACHE_MAX_PROMPT_BYTES = 64 * 1024 * 1024;
/**
 * Bytes counted for each character of a kept answer's strings: its own copy, and the copies its fetches
 * keep beside it while it is kept, its JSON text and that text's UTF-8 bytes (sentAnswer). A byte or two
 * each in V8 (three in UTF-8 beyond Latin-1): an estimate, not a measure.
 */
const BYTES_PER_CHARACTER = 4;
/** Bytes counted for every value (a string too, beside its characters; a number, an object, an array, null): V8's object and slot overheads, roughly. */
const BYTES_PER_VALUE = 16;
/** The channel of the database triggers; payloads are `team:<id>` or `key:<id>`. */
const RUNTIME_CHANNEL = "promptly_runtime";
/** How often usage counts are added to prompt_usage (and once more at shutdown). */
const USAGE_FLUSH_MS = 5_000;
/** A UTC day, in ms: a use is counted on the day of its moment. */
const DAY_MS = 86_400_000;
/** How soon a lost listening connection is opened again, and retried while it fails. */
const RECONNECT_MS = 1_000;

/**
 * What a kept answer holds, estimated once when it is kept (a fetch served from memory measures
 * nothing): its strings' characters (object keys too) and its other values, walked without recursion.
 * A part met twice (the written and the resolved body share strings) is counted twice: over, not under.
 */
function estimatedBytes(value: unknown): number {
  const { characters, values } = parsedSize(value);
  return characters * BYTES_PER_CHARACTER + values * BYTES_PER_VALUE;
}

/** A lookup, counted for /metrics: a miss (or a cache not serving) means a database read follows. */
function counted<V>(value: V | undefined): V | undefined {
  runtimeCacheLookups.inc({ result: value === undefined ? "miss" : "hit" });
  return value;
}

/**
 * A resolved prompt, with its id for counting usage. Its includes are resolved: they name prompts of
 * the same team only, so the `team:<id>` a label move or an archive sends drops every includer too.
 */
export interface ResolvedPrompt {
  teamId: string;
  promptId: string;
  /** Its includes resolved, with their resolution graph (null when it includes nothing). */
  prompt: RuntimePrompt;
  /** As written, when it includes (getPromptUnresolved, Langfuse's `resolve=false`); else `prompt` is. */
  unresolved: RuntimePrompt | null;
  /** Each include followed, as written: the per-request decision asks about each (a label-bound key). */
  includes: IncludeRef[];
  /** What the Langfuse-compatible API answers beside REST's fields: the version's row, and the prompt's newest version. */
  version: { id: string; createdAt: string; commitMessage: string; authorId: string | null; latestVersion: number };
  /** The prompt's facts, for the whole decision on a key's action on it (allowKeyOnPrompt). */
  facts: PromptFacts;
  /**
   * A split label's other version, resolved too, served to `weight` percent of its fetches (picked per
   * fetch, so one entry answers both without a query); null for a version, or a label serving one.
   */
  split?: { weight: number; candidate: ResolvedPrompt } | null;
}

export class RuntimeCache implements ApiKeyCache {
  private readonly prompts: Lru<ResolvedPrompt>;
  private readonly keys: Lru<CachedApiKey>;
  /**
   * What a key's runs of a team read of its connections (runtime-runs.ts: findTeamRunConnections), by
   * team and named connection; dropped whole by `run-connections` (migration run_connections_notify).
   * Opaque here: this module may not import the connections' (they reach it through the services' types).
   */
  private readonly runConnections: Lru<unknown>;
  private listening = false;
  /** Moves on every invalidation: a database read that began before one is not kept. */
  private generation = 0;
  /** Moves when listening starts or stops: the key prefixes read before are not kept. */
  private epoch = 0;
  /** The stored prefix (first characters) of every API key, announced ones included; complete once `keyPrefixesLoaded`. */
  private keyPrefixes = new Set<string>();
  private keyPrefixesLoaded = false;
  private usage = new Map<string, { promptId: string; version: number; apiKeyId: string; label: string; day: string; count: number }>();

  /**
   * `maxEntries` each map keeps; `maxPromptBytes` the prompts' estimated bytes together (estimatedBytes):
   * past either, those not read lately go; an answer larger alone is served but not kept.
   */
  constructor({ maxEntries = RUNTIME_CACHE_MAX_ENTRIES, maxPromptBytes = RUNTIME_CACHE_MAX_PROMPT_BYTES }: { maxEntries?: number; maxPromptBytes?: number } = {}) {
    this.prompts = new Lru(maxEntries, maxPromptBytes);
    this.keys = new Lru(maxEntries);
    this.runConnections = new Lru(maxEntries);
  }

  /** Take before reading the database; pass to `keep*` so a read overtaken by a change is not kept. */
  mark(): number {
    return this.generation;
  }

  prompt(cacheKey: string): ResolvedPrompt | undefined {
    return counted(this.listening ? this.prompts.get(cacheKey) : undefined);
  }

  keepPrompt(cacheKey: string, value: ResolvedPrompt, mark: number) {
    if (this.listening && mark === this.generation) this.prompts.set(cacheKey, value, estimatedBytes(value));
  }

  /** A team's run connections (with `connectionId`: that one only), as kept; undefined when not kept or not serving. */
  teamRunConnections<T>(teamId: string, connectionId: string | undefined): T | undefined {
    return this.listening ? (this.runConnections.get(`${teamId} ${connectionId ?? ""}`) as T | undefined) : undefined;
  }

  keepTeamRunConnections<T>(teamId: string, connectionId: string | undefined, value: T, mark: number) {
    if (this.listening && mark === this.generation) this.runConnections.set(`${teamId} ${connectionId ?? ""}`, value);
  }

  apiKey(keyHash: string): CachedApiKey | undefined {
    return counted(this.listening ? this.keys.get(keyHash) : undefined);
  }

  keepApiKey(keyHash: string, value: CachedApiKey, mark: number) {
    if (this.listening && mark === this.generation) this.keys.set(keyHash, value);
  }

  /**
   * Whether a stored API key begins with `prefix`: false only when this process knows every key's
   * prefix (it is listening and has read them) and none is this one; null when it cannot tell.
   */
  mayBeApiKey(prefix: string): boolean | null {
    if (!this.listening || !this.keyPrefixesLoaded) return null;
    return this.keyPrefixes.has(prefix);
  }

  /** Reads every key's prefix; called once listening began, so a key created after the read is announced. */
  async loadApiKeyPrefixes(db: Db): Promise<void> {
    const epoch = this.epoch;
    const rows = await db.apiKey.findMany({ select: { prefix: true }, distinct: ["prefix"] });
    if (!this.listening || epoch !== this.epoch) return;
    for (const row of rows) this.keyPrefixes.add(row.prefix);
    this.keyPrefixesLoaded = true;
  }

  /**
   * A notification: `key-prefix:<prefix>` a new key's prefix (nothing kept changes), `team:<id>` drops
   * the team's prompts and keys, `key:<id>` that key, `run-connections` every team's run connections;
   * anything else drops all.
   */
  invalidate(payload: string) {
    if (payload.startsWith("key-prefix:")) {
      this.keyPrefixes.add(payload.slice("key-prefix:".length));
      return;
    }
    this.generation++;
    if (payload === "run-connections") {
      this.runConnections.clear();
      return;
    }
    const [kind, id] = payload.split(":");
    if (kind === "team" && id) {
      this.prompts.dropWhere((entry) => entry.teamId === id);
      this.keys.dropWhere((entry) => entry.teamId === id);
    } else if (kind === "key" && id) {
      this.keys.dropWhere((entry) => entry.id === id);
    } else {
      this.prompts.clear();
      this.keys.clear();
      this.runConnections.clear();
    }
  }

  /** Listening or not, what was kept may have missed a change: it all goes. */
  setListening(listening: boolean) {
    this.generation++;
    this.epoch++;
    this.keyPrefixes = new Set();
    this.keyPrefixesLoaded = false;
    this.prompts.clear();
    this.keys.clear();
    this.runConnections.clear();
    this.listening = listening;
  }

  /** Whether answers may come from memory: only while this process hears every change. */
  get serving() {
    return this.listening;
  }

  get entries() {
    return { prompts: this.prompts.size, keys: this.keys.size };
  }

  /** The estimated bytes of the prompts kept, together (at most maxPromptBytes). */
  get bytes() {
    return this.prompts.weight;
  }

  /** One use of a version by a key, asked for by `label` ('' for an explicit version), on `now`'s UTC day. */
  countUse(promptId: string, version: number, apiKeyId: string, label: string, now: Date) {
    const day = this.utcDay(now.getTime());
    const id = `${promptId} ${version} ${apiKeyId} ${day} ${label}`;
    const row = this.usage.get(id);
    if (row) row.count++;
    else this.usage.set(id, { promptId, version, apiKeyId, label, day, count: 1 });
  }

  /** The UTC day of the last use counted, and when it began and ends (ms): most uses fall on it. */
  private day = { name: "", from: 0, to: 0 };

  /** `at`'s UTC day as YYYY-MM-DD, formatted once a day rather than once a fetch. */
  private utcDay(at: number): string {
    if (at < this.day.from || at >= this.day.to) {
      const from = at - (((at % DAY_MS) + DAY_MS) % DAY_MS);
      this.day = { name: new Date(from).toISOString().slice(0, 10), from, to: from + DAY_MS };
    }
    return this.day.name;
  }

  /** Adds the counts so far to prompt_usage in one statement; on failure they are kept for the next flush. */
  async flushUsage(db: Db): Promise<void> {
    if (!this.usage.size) return;
    const taken = this.usage;
    this.usage = new Map();
    const rows = [...taken.values()];
    try {
      // Rows of a prompt or key deleted meanwhile are left out: they would fail the whole statement.
      // Written in one order, the daily rows' (prompt, day, label) first: a trigger adds each row to its
      // prompt_usage_daily row in the statement's order, so two processes that took the same prompts' daily
      // rows in other orders deadlocked. The ORDER BY decides it: a join may hand the rows on in any order.
      await db.$executeRaw`
        INSERT INTO prompt_usage (prompt_id, version, api_key_id, day, label, count)
        SELECT u.prompt_id, u.version, u.api_key_id, u.day, u.label, u.count
        FROM unnest(${rows.map((r) => r.promptId)}::uuid[], ${rows.map((r) => r.version)}::int[], ${rows.map((r) => r.apiKeyId)}::uuid[],
                    ${rows.map((r) => r.day)}::date[], ${rows.map((r) => r.label)}::text[], ${rows.map((r) => r.count)}::bigint[])
             AS u(prompt_id, version, api_key_id, day, label, count)
        WHERE EXISTS (SELECT 1 FROM prompts p WHERE p.id = u.prompt_id) AND EXISTS (SELECT 1 FROM api_keys k WHERE k.id = u.api_key_id)
        ORDER BY u.prompt_id, u.day, u.label, u.version, u.api_key_id
        ON CONFLICT (prompt_id, version, api_key_id, day, label) DO UPDATE SET count = prompt_usage.count + excluded.count`;
    } catch (error) {
      for (const [id, row] of taken) {
        const now = this.usage.get(id);
        if (now) now.count += row.count;
        else this.usage.set(id, row);
      }
      throw error;
    }
  }
}

export interface RuntimeSync {
  /** Adds the usage counted so far to the database now. */
  flush(): Promise<void>;
  /** Stops listening (the cache stops answering) and flushes the last counts. */
  stop(): Promise<void>;
}

/**
 * Keeps `runtime` correct for this process: LISTENs on the runtime channel (reconnecting when the
 * connection is lost, the cache cleared meanwhile) and flushes usage every `flushMs`.
 */
export function startRuntimeSync(
  deps: { db: Db; runtime: RuntimeCache; sessions: SessionCache },
  options: { databaseUrl: string; flushMs?: number; onError?: (error: unknown) => void },
): RuntimeSync {
  const onError = options.onError ?? ((error: unknown) => console.error("Runtime cache:", error instanceof Error ? error.message : error));
  const { runtime, sessions } = deps;
  let stopped = false;
  let listener: Listener | null = null;
  let connecting: Promise<void> | null = null;
  let retry: NodeJS.Timeout | null = null;

  const lost = () => {
    runtime.setListening(false);
    sessions.setListening(false);
    scheduleReconnect();
  };
  const scheduleReconnect = () => {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = null;
      ensureListening();
    }, RECONNECT_MS);
    retry.unref();
  };
  const ensureListening = () => {
    if (stopped || listener?.alive || connecting) return;
    connecting = listen(options.databaseUrl, RUNTIME_CHANNEL, (payload) => (isSessionPayload(payload) ? sessions.invalidate(payload) : runtime.invalidate(payload)), onError, lost)
      .then(
        async (opened) => {
          if (stopped) return opened.close();
          listener = opened;
          // Lost before we looked: it never served, try again.
          if (!opened.alive) return scheduleReconnect();
          runtime.setListening(true);
          sessions.setListening(true);
          // Without them every well-formed key is looked up, which is correct, only dearer.
          await runtime.loadApiKeyPrefixes(deps.db).catch(onError);
        },
        (error: unknown) => {
          onError(error);
          scheduleReconnect();
        },
      )
      .finally(() => {
        connecting = null;
      });
  };

  let flushing: Promise<void> | null = null;
  const flush = async () => {
    await flushing;
    flushing = runtime.flushUsage(deps.db).finally(() => {
      flushing = null;
    });
    return flushing;
  };
  const timer = setInterval(() => void flush().catch(onError), options.flushMs ?? USAGE_FLUSH_MS);
  timer.unref();
  ensureListening();

  return {
    flush,
    async stop() {
      stopped = true;
      clearInterval(timer);
      if (retry) clearTimeout(retry);
      await connecting;
      runtime.setListening(false);
      sessions.setListening(false);
      await listener?.close();
      await flush().catch(onError);
    },
  };
}
