// Housekeeping deletes only what can never be used again: dead sessions and expired emailed tokens.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../testing.ts";
import { pruneExpired, scheduleHousekeeping } from "./housekeeping.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const MINUTE = 60_000;

describe("pruneExpired", () => {
  it("deletes sessions past their end or idle past their owner's timeout, and expired tokens; keeps the rest", async () => {
    const db = h.database.db;
    const now = h.clock.now();
    const ago = (minutes: number) => new Date(now.getTime() - minutes * MINUTE);
    const later = (minutes: number) => new Date(now.getTime() + minutes * MINUTE);
    const strict = await db.user.create({ data: { email: "strict@example.test", sessionTimeoutMinutes: 30 } });
    const relaxed = await db.user.create({ data: { email: "relaxed@example.test", sessionTimeoutMinutes: 120 } });

    await db.session.createMany({
      data: [
        { id: "live", userId: strict.id, expiresAt: later(60), lastActiveAt: ago(5) },
        { id: "past-its-end", userId: strict.id, expiresAt: ago(1), lastActiveAt: ago(2) },
        { id: "idle-31-of-30", userId: strict.id, expiresAt: later(60), lastActiveAt: ago(31) },
        { id: "idle-31-of-120", userId: relaxed.id, expiresAt: later(60), lastActiveAt: ago(31) },
        { id: "idle-121-of-120", userId: relaxed.id, expiresAt: later(60), lastActiveAt: ago(121) },
      ],
    });
    await db.oneTimeToken.createMany({
      data: [
        { userId: strict.id, purpose: "magic_link", tokenHash: "unused-live", expiresAt: later(10) },
        { userId: strict.id, purpose: "password_reset", tokenHash: "used-live", expiresAt: later(10), usedAt: ago(1) },
        { userId: strict.id, purpose: "email_verification", tokenHash: "unused-expired", expiresAt: ago(1) },
        { userId: relaxed.id, purpose: "magic_link", tokenHash: "used-expired", expiresAt: ago(1), usedAt: ago(5) },
      ],
    });
    // Mail: sent and skipped rows are kept a week; waiting and failed ones stay until dealt with.
    const DAY = 24 * 60;
    const mail = (status: "pending" | "sent" | "skipped" | "failed", createdAt: Date) =>
      ({ kind: "password_reset" as const, recipient: `${status}-${createdAt.getTime()}@example.test`, status, createdAt, nextAttemptAt: later(DAY * 30) });
    await db.outboxMessage.createMany({
      data: [mail("sent", ago(8 * DAY)), mail("skipped", ago(8 * DAY)), mail("sent", ago(6 * DAY)), mail("pending", ago(8 * DAY)), mail("failed", ago(30 * DAY))],
    });
    // A real session, signed in through the API's own session code, must keep working.
    const client = await h.signedInClient(relaxed.id);

    expect(await pruneExpired(db, now)).toEqual({ sessions: 3, tokens: 2, outbox: 2 });
    expect((await db.outboxMessage.findMany({ select: { status: true } })).map((m) => m.status).sort()).toEqual(["failed", "pending", "sent"]);

    const sessions = await db.session.findMany({ where: { id: { in: ["live", "past-its-end", "idle-31-of-30", "idle-31-of-120", "idle-121-of-120"] } } });
    expect(sessions.map((s) => s.id).sort()).toEqual(["idle-31-of-120", "live"]);
    const tokens = await db.oneTimeToken.findMany({ select: { tokenHash: true } });
    expect(tokens.map((t) => t.tokenHash).sort()).toEqual(["unused-live", "used-live"]);
    expect((await client.api.auth.me())?.user.id).toBe(relaxed.id);
    // Nothing left to do: a second run deletes nothing.
    expect(await pruneExpired(db, now)).toEqual({ sessions: 0, tokens: 0, outbox: 0 });
  });
});

describe("scheduleHousekeeping", () => {
  it("prunes at once, then again every period, until stopped", async () => {
    const db = h.database.db;
    const user = await db.user.create({ data: { email: "scheduled@example.test" } });
    const expiredToken = (tokenHash: string) =>
      db.oneTimeToken.create({ data: { userId: user.id, purpose: "magic_link", tokenHash, expiresAt: new Date(h.clock.now().getTime() - MINUTE) } });
    const exists = async (tokenHash: string) => (await db.oneTimeToken.count({ where: { tokenHash } })) > 0;
    const gone = async (tokenHash: string) => {
      for (let attempt = 0; attempt < 100 && (await exists(tokenHash)); attempt++) await new Promise((r) => setTimeout(r, 50));
      return !(await exists(tokenHash));
    };

    await expiredToken("before-start");
    const errors: unknown[] = [];
    const stop = scheduleHousekeeping({ db, now: h.clock.now }, { everyMs: 100, onError: (error) => errors.push(error) });
    try {
      expect(await gone("before-start")).toBe(true);
      await expiredToken("while-running");
      expect(await gone("while-running")).toBe(true);
    } finally {
      await stop();
    }
    await expiredToken("after-stop");
    await new Promise((r) => setTimeout(r, 400));
    expect(await exists("after-stop")).toBe(true);
    expect(errors).toEqual([]);
  });
});
