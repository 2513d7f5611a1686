// requestPasswordReset and sendMagicLink must not tell by their timing whether an account exists (they
// once took longer for a known address, whose token was issued in the request). The request does the
// same work for every address: it queues the mail, and the account is looked up when the
// mail is sent. Asserted on the database work each request does (deterministic), not on a clock.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@promptly/db";
import { createHarness, createAccount, uniqueEmail, type Harness } from "../../../testing/harness.ts";
import { SUBJECTS } from "../../../testing/auth-support.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  // Queued mail gets its job only once the queue exists: compared requests must both find it there.
  await h.outbox.ready;
});
afterAll(() => h.close());

/** A client whose database calls (model and operation, raw SQL by its first words) are recorded. */
function recordingClient() {
  const log: string[] = [];
  const db = h.services.db.$extends({
    query: {
      async $allOperations({ model, operation, args, query }) {
        const raw = (args as { strings?: string[] } | undefined)?.strings?.join("?").trim().split(/\s+/).slice(0, 3).join(" ");
        log.push(model ? `${model}.${operation}` : `${operation} ${raw ?? ""}`.trim());
        return query(args);
      },
    },
  }) as unknown as Db;
  return { log, api: h.client({ services: { ...h.services, db } }).api };
}

const REQUESTS = [
  ["requestPasswordReset", (api: ReturnType<typeof recordingClient>["api"], email: string) => api.auth.requestPasswordReset({ email }), SUBJECTS.passwordReset],
  ["sendMagicLink", (api: ReturnType<typeof recordingClient>["api"], email: string) => api.auth.sendMagicLink({ email }), SUBJECTS.magicLink],
  ["resendVerification", (api: ReturnType<typeof recordingClient>["api"], email: string) => api.auth.resendVerification({ email }), null],
] as const;

describe("no account-dependent work while answering", () => {
  it.each(REQUESTS)("%s does the same database work for a known and an unknown address", async (_name, call, subject) => {
    const known = await createAccount(h);
    const unknown = uniqueEmail("unknown");
    const forKnown = recordingClient();
    const forUnknown = recordingClient();
    await call(forKnown.api, known.email);
    await call(forUnknown.api, unknown);
    expect(forKnown.log).toContain("OutboxMessage.create");
    expect(forKnown.log).toEqual(forUnknown.log);
    // Nothing about the account is read: only the mail is queued.
    expect(forKnown.log.some((entry) => entry.startsWith("User."))).toBe(false);
    // The known address still gets its mail (sent by the outbox), the unknown one nothing.
    if (subject) await h.mail.waitFor(known.email, subject);
    await h.mail.settled();
    expect(await h.mail.list(unknown)).toEqual([]);
  });
});
