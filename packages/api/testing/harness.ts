// Integration-test harness: real services (PostgreSQL, S3, SMTP) from test/global-setup.ts,
// a fresh database per test file, callers that behave like browsers (cookie jar), and the mailbox.
import { randomBytes } from "node:crypto";
import type { TeamRole } from "@promptly/shared";
import { inject, vi } from "vitest";
import { ZodError, z } from "zod";
import { createDb, derivedFrom, type Db } from "@promptly/db";
import { createTestDatabase, type TestDatabase } from "@promptly/db/testing";
import { appRouter } from "../src/root.ts";
import { baseProcedure, createCallerFactory, router } from "../src/trpc.ts";
import { createContext, type ApiServices } from "../src/context.ts";
import type { RequestInfo } from "../src/request.ts";
import { createLucia, SESSION_COOKIE_NAME } from "../src/auth/lucia.ts";
import { createSmtpMailer, type Mailer } from "../src/services/platform/mailer.ts";
import { createS3Storage } from "../src/services/platform/storage.ts";
import { hashPassword } from "../src/services/identity/auth.ts";
import { DomainError, type DomainErrorCode } from "../src/errors.ts";
import { DOMAIN_ERRORS } from "../src/error-table.ts";

export { createS3Storage, createSmtpMailer, hashPassword };
export { drainOutbox, enqueueMail } from "../src/services/platform/outbox.ts";
export { AUTH_RATE_LIMITS } from "../src/services/identity/auth.ts";
import { RateLimits, type RateLimitStoreConfig } from "../src/services/platform/rate-limits.ts";
export { RECONCILE_TOLERANCE } from "../src/services/platform/rate-limits.ts";
import { RuntimeCache, startRuntimeSync, type RuntimeSync } from "../src/services/runtime/runtime-cache.ts";
import { SessionCache } from "../src/auth/session-cache.ts";
import { ingestSettled } from "../src/services/production/ingest.ts";
import { startOutboxWorker, type OutboxWorker } from "../src/services/platform/outbox.ts";
import { EvaluationQueue } from "../src/services/evaluations/queue.ts";
import { WebhookQueue } from "../src/services/webhooks/queue.ts";
import { mailTo, type CapturedMail } from "./mailbox.ts";
// Every domain's hooks onto the platform (mail kinds, webhook events), as a server process has them.
import "../src/services/hooks.ts";

const createCaller = createCallerFactory(appRouter);

export type { CapturedMail } from "./mailbox.ts";

/**
 * Runs `work` with the process's own clock (Date) `ms` ahead, still running. Rate-limit windows are
 * kept by rate-limiter-flexible, which reads Date.now() (the PostgreSQL store compares it with each
 * counter's end), not the harness's clock: this is how a test lets a window pass. The harness's clock
 * moves with it.
 */
export async function withClockAhead<T>(ms: number, work: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + ms, shouldAdvanceTime: true });
  try {
    return await work();
  } finally {
    vi.useRealTimers();
  }
}

/** A controllable clock: tests move time instead of waiting. */
class TestClock {
  private offsetMs = 0;
  now = () => new Date(Date.now() + this.offsetMs);
  advance(ms: number) {
    this.offsetMs += ms;
  }
}

interface TestClientOptions {
  ip?: string;
  userAgent?: string;
  secure?: boolean;
  /** Other services than the harness's (e.g. a database client that records its queries). */
  services?: ApiServices;
  /** The Authorization header of every request, e.g. `Bearer promptly_…` (a tool with an API key). */
  authorization?: string;
}

export interface Harness {
  services: ApiServices;
  database: TestDatabase;
  clock: TestClock;
  /** A browser-like client: keeps the cookies the API sets. */
  client(options?: TestClientOptions): TestClient;
  /** A browser-like client with a real session for `userId` (complete unless twoFactorVerified is false), calling `services` when given (another process's). */
  signedInClient(userId: string, options?: { twoFactorVerified?: boolean; signInMethod?: "password" | "magic_link"; services?: ApiServices }): Promise<TestClient>;
  mail: Mailbox;
  /** The outbox worker of this harness (mail goes out through it, as in the app). */
  outbox: OutboxWorker;
  close(): Promise<void>;
}

export interface TestClient {
  api: ReturnType<typeof createCaller>;
  cookies: Map<string, string>;
}

export interface Mailbox {
  /** Messages sent to `to` (newest last). */
  list(to: string): Promise<CapturedMail[]>;
  /** Waits until a message to `to` whose subject matches arrives, and returns it. */
  waitFor(to: string, subject?: RegExp, timeoutMs?: number): Promise<CapturedMail>;
  /**
   * Resolves once the outbox has nothing due and every message handed to SMTP so far was accepted by
   * the catcher (or failed): mail goes out in the background, so "no mail" is only known after this.
   */
  settled(): Promise<void>;
}

export function createMailbox(
  baseUrl: string,
  inFlight: ReadonlySet<Promise<void>> = new Set(),
  drain: () => Promise<void> = async () => undefined,
  accepted: ReadonlyMap<string, number> = new Map(),
): Mailbox {
  const list = (address: string) => mailTo(baseUrl, address);
  return {
    list,
    async settled() {
      await drain();
      await Promise.allSettled([...inFlight]);
      // The catcher answers SMTP before it has stored the message (it parses it afterwards): wait until
      // it lists every message it accepted from this mailer, or a loaded machine's run reads one short.
      const deadline = Date.now() + 10_000;
      for (;;) {
        const counts = await Promise.all([...accepted].map(async ([address, count]) => [address, count, (await list(address)).length] as const));
        const missing = counts.filter(([, count, listed]) => listed < count);
        if (!missing.length) return;
        if (Date.now() > deadline) throw new Error(`The mail catcher accepted but never listed mail to ${missing.map(([address]) => address).join(", ")}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async waitFor(to, subject, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = (await list(to)).filter((mail) => !subject || subject.test(mail.subject)).at(-1);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`No mail to ${to}${subject ? ` matching ${subject}` : ""} arrived`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
  };
}

let ipCounter = 0;

export async function createHarness(options: { rateLimits?: boolean; allowPrivateProviderUrls?: boolean; allowPrivateWebhookUrls?: boolean } = {}): Promise<Harness> {
  const database = await createTestDatabase(inject("databaseServerUrl"));
  const clock = new TestClock();
  const s3 = inject("s3");
  const smtp = inject("smtp");
  // The real SMTP mailer, with the sends still on their way kept in view (Mailbox.settled).
  const smtpMailer = createSmtpMailer({ ...smtp, secure: false, allowSelfSigned: true, from: "Promptly <no-reply@promptly.test>" });
  const inFlight = new Set<Promise<void>>();
  // How many messages the catcher accepted for each address (Mailbox.settled waits until it lists them).
  const accepted = new Map<string, number>();
  const mailer: Mailer = {
    verify: () => smtpMailer.verify(),
    close: () => smtpMailer.close(),
    send(message) {
      const sending = smtpMailer.send(message);
      inFlight.add(sending);
      void sending.then(
        () => {
          inFlight.delete(sending);
          const address = (/<([^>]+)>\s*$/.exec(message.to)?.[1] ?? message.to).toLowerCase();
          accepted.set(address, (accepted.get(address) ?? 0) + 1);
        },
        () => inFlight.delete(sending),
      );
      return sending;
    },
  };
  const config: ApiServices["config"] = {
    appUrl: "http://localhost:3000",
    secret: "test-secret-test-secret-test-secret-0123",
    rateLimits: options.rateLimits ?? false,
    production: false,
    // The tests' model providers (testing/fake-provider.ts) listen on loopback.
    allowPrivateProviderUrls: options.allowPrivateProviderUrls ?? true,
    // The tests' webhook receivers listen on loopback too.
    allowPrivateWebhookUrls: options.allowPrivateWebhookUrls ?? true,
    providerTimeoutMs: 5_000,
  };
  const services: ApiServices = {
    db: database.db,
    mailer,
    storage: createS3Storage({ ...s3, region: "us-east-1", bucket: `avatars-${database.name.replace(/_/g, "-")}` }),
    lucia: createLucia(database.db),
    // Counters in the test database, as the app keeps them by default.
    rateLimits: new RateLimits({ store: "postgres", databaseUrl: database.url }),
    runtime: new RuntimeCache(),
    sessions: new SessionCache(),
    config,
    // Fast timings for the tests: a job of a killed process is given to another after 2 s; 429s are retried after ~20 ms.
    evaluations: new EvaluationQueue({ databaseUrl: database.url, jobExpirySeconds: 2, maintenanceIntervalSeconds: 1, retryBaseMs: 20 }, config),
    // Fast timings for the tests: a failed attempt is retried after 200 ms, then 600 ms, ...; workers poll every half second.
    webhooks: new WebhookQueue({ databaseUrl: database.url, retryBaseMs: 200, timeoutMs: 2_000, pollingIntervalSeconds: 0.5, sweepMs: 1_000 }, config),
    now: clock.now,
  };
  const outbox = startOutboxWorker(services, { databaseUrl: database.url, pollMs: 500, onError: () => undefined });
  // pg-boss judges when a job is due by the database's clock, which the tests' clock does not move: mail
  // due on the tests' clock (a digest's end, a retry) is sent by a drain every 200 ms too.
  const drainer = setInterval(() => void outbox.drain(), 200);
  drainer.unref();
  const harness: Harness = {
    services,
    database,
    clock,
    outbox,
    mail: createMailbox(inject("mailboxUrl"), inFlight, () => outbox.drain(), accepted),
    client(clientOptions = {}) {
      const cookies = new Map<string, string>();
      const ip = clientOptions.ip ?? `10.0.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
      const caller = createCaller(() => {
        const req: RequestInfo = {
          ip,
          userAgent: clientOptions.userAgent ?? "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36",
          cookieHeader: [...cookies].map(([name, value]) => `${name}=${value}`).join("; ") || null,
          authorization: clientOptions.authorization ?? null,
          secure: clientOptions.secure ?? false,
          setCookie(serialized) {
            const [pair = ""] = serialized.split(";");
            const index = pair.indexOf("=");
            const name = pair.slice(0, index);
            const value = pair.slice(index + 1);
            if (value === "" || /max-age=0/i.test(serialized)) cookies.delete(name);
            else cookies.set(name, value);
          },
        };
        return createContext(clientOptions.services ?? services, req);
      });
      return { api: caller, cookies };
    },
    async signedInClient(userId, options = {}) {
      const client = harness.client({ services: options.services });
      const session = await services.lucia.createSession(userId, {
        twoFactorVerified: options.twoFactorVerified ?? true,
        signInMethod: options.signInMethod ?? "password",
        lastActiveAt: clock.now(),
      });
      client.cookies.set(SESSION_COOKIE_NAME, session.id);
      return client;
    },
    async close() {
      clearInterval(drainer);
      await outbox.stop();
      await services.evaluations.stop();
      await services.webhooks.stop();
      services.mailer.close();
      await services.rateLimits.close();
      await database.drop();
    },
  };
  return harness;
}

export interface AppProcess {
  /** Services as one app process has them: its own database client, runtime cache and listener. */
  services: ApiServices;
  sync: RuntimeSync;
  /** Database operations this process's client has run so far (every model and raw query). */
  queries(): number;
  close(): Promise<void>;
}

/**
 * Another app process on the harness's database, as `boot` wires one: its own Prisma client (its
 * queries counted), its own runtime cache, listening for changes, and its own rate limits (counted in
 * process, on the harness's PostgreSQL or `rateLimitStore`). Usage is flushed only when asked
 * (`sync.flush()`, or `close()`), so tests see exactly what a flush writes.
 */
export function appProcess(
  h: Harness,
  options: { rateLimitStore?: RateLimitStoreConfig; rateLimitKeyPrefix?: string; rateLimitReconcileMs?: number; runtimeCacheMaxBytes?: number } = {},
): AppProcess {
  let queries = 0;
  const client = createDb({ url: h.database.url, max: 4 });
  const db = derivedFrom(
    client.$extends({
      query: {
        async $allOperations({ args, query }) {
          queries++;
          return query(args);
        },
      },
    }) as unknown as Db,
    client,
    // Its statements sent without Prisma's engine (hotQuery, hotRead, rawTransaction) count too.
    () => queries++,
  );
  // Its own connection to the shared counters, as another process has.
  const rateLimits = new RateLimits(options.rateLimitStore ?? { store: "postgres", databaseUrl: h.database.url }, { keyPrefix: options.rateLimitKeyPrefix, reconcileMs: options.rateLimitReconcileMs });
  const services: ApiServices = { ...h.services, db, runtime: new RuntimeCache({ maxPromptBytes: options.runtimeCacheMaxBytes }), sessions: new SessionCache(), rateLimits };
  const sync = startRuntimeSync(services, { databaseUrl: h.database.url, flushMs: 3_600_000, onError: () => undefined });
  return {
    services,
    sync,
    queries: () => queries,
    async close() {
      await sync.stop();
      await rateLimits.close();
      // Production signals it accepted are merged before its connections end.
      await ingestSettled(db);
      await client.$disconnect();
    },
  };
}

// ---- test data and outcomes shared by the integration tests ----

/** Control characters every text field must refuse (NUL breaks PostgreSQL text; the others hide or reshape it). */
export const CONTROL_CHARACTERS: [name: string, character: string][] = [
  ["NUL", "\u0000"],
  ["BEL", "\u0007"],
  ["a line feed", "\n"],
  ["ESC", "\u001b"],
  ["DEL", "\u007f"],
  ["NEL (C1)", "\u0085"],
];

/** A unique address per call, so tests never share accounts. */
export const uniqueEmail = (prefix = "user") => `${prefix}-${randomBytes(5).toString("hex")}@example.test`;

export interface TestAccount {
  id: string;
  email: string;
}

export interface TestAccountOptions {
  email?: string;
  /** Stored as an argon2id hash; null for an account without a password. None by default. */
  password?: string | null;
  fullName?: string | null;
  superUser?: boolean;
  role?: "administrator" | "team_lead" | "user";
  avatarKey?: string | null;
}

/** A verified account written straight into the test database (the sign-up flow has tests of its own). */
export async function createAccount(h: Harness, options: TestAccountOptions = {}): Promise<TestAccount> {
  return h.database.db.user.create({
    data: {
      email: (options.email ?? uniqueEmail()).toLowerCase(),
      passwordHash: options.password ? await hashPassword(options.password) : null,
      emailVerifiedAt: h.clock.now(),
      profile: {
        create: {
          fullName: options.fullName === undefined ? "Test Person" : options.fullName,
          superUser: options.superUser ?? false,
          avatarKey: options.avatarKey ?? null,
        },
      },
      appRole: { create: { role: options.role ?? "user" } },
    },
    select: { id: true, email: true },
  });
}

/** An organization with the given members, written straight into the database (its procedures have tests of their own). */
export async function createOrganization(
  h: Harness,
  members: { userId: string; role: "admin" | "member" }[],
  name = `Org ${randomBytes(3).toString("hex")}`,
) {
  return h.database.db.organization.create({
    data: { name, members: { create: members } },
    select: { id: true, name: true, members: { select: { id: true, userId: true, role: true } } },
  });
}

/** A team with the given members, written straight into the database; memberId(userId) finds a membership row. */
export async function createTeam(h: Harness, organizationId: string, members: { userId: string; role: TeamRole }[], name = "Core") {
  const team = await h.database.db.team.create({
    data: { name, organizationId, members: { create: members } },
    select: { id: true, name: true, members: { select: { id: true, userId: true, role: true } } },
  });
  const memberId = (userId: string) => team.members.find((m) => m.userId === userId)!.id;
  return { ...team, memberId };
}

/**
 * The kinds of caller every permission matrix speaks of: nobody, someone outside the organization, an
 * organization member outside the team, the team's viewer, editor and admin, the organization's admin,
 * a super user.
 */
export const CALLER_KINDS = ["anonymous", "outsider", "orgMember", "viewer", "editor", "admin", "orgAdmin", "superUser"] as const;
export type CallerKind = (typeof CALLER_KINDS)[number];

/**
 * How a call ended: "OK" with its value, or the tRPC error code with the message a browser reads
 * (for invalid input the first zod issue's, as the error formatter in trpc.ts words it) and the
 * (with `reason`) the domain error's reason. Anything that is not a tRPC error fails the test.
 */
export async function outcome(
  call: Promise<unknown>,
  options: { reason?: boolean } = {},
): Promise<{ code: string; message?: string; reason?: string | null; value?: unknown }> {
  try {
    return { code: "OK", value: await call };
  } catch (error) {
    const e = error as { code?: string; message?: string; cause?: unknown };
    if (!e.code) throw error;
    const message = e.cause instanceof ZodError ? e.cause.issues[0]?.message : e.message;
    if (!options.reason) return { code: e.code, message };
    return { code: e.code, message, reason: e.cause instanceof DomainError ? (e.cause.reason ?? null) : null };
  }
}

/** A service that refuses with `code` and a reason named after it, as any service refuses. */
export function refuseWith(code: DomainErrorCode): never {
  throw new DomainError(code, `Refused: ${code}`, `REASON_${code}`);
}

/** A tRPC router of one procedure, `refuse`, that calls refuseWith through the real procedure builder (and its error table). */
export const refusingRouter = router({
  refuse: baseProcedure
    .input(z.object({ code: z.enum(Object.keys(DOMAIN_ERRORS) as [DomainErrorCode, ...DomainErrorCode[]]) }))
    .query(({ input }) => refuseWith(input.code)),
});
