// The race the review-rule tests stage: an admin turning required approvals on (a settings change holding
// the team's row, not yet committed) while another door changes what `production` serves, having read the
// old rule before. The door reads the rule again in its transaction holding the team's row, so it waits.
// holding and someoneWaits stage any such wait on a row (the server's tests take them as @promptly/api/testing/review-race).
import { expect, vi } from "vitest";
import type { Db, DbTransaction } from "@promptly/db";
import { failure } from "./teams-support.ts";

/**
 * A transaction of a second connection that has run `change` (holding the rows it locked), not yet committed:
 * `commit` commits it, `pid` is its backend (what a statement waiting for those rows waits for: someoneWaits).
 */
export async function holding(db: Db, change: (tx: DbTransaction) => Promise<unknown>): Promise<{ commit: () => Promise<void>; pid: number }> {
  let held!: (pid: number) => void;
  const isHeld = new Promise<number>((resolve) => (held = resolve));
  let commit!: () => void;
  const committing = new Promise<void>((resolve) => (commit = resolve));
  const writing = db.$transaction(
    async (tx) => {
      await change(tx);
      const [row] = await tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
      held(row!.pid);
      await committing;
    },
    { timeout: 30_000 },
  );
  const pid = await isHeld;
  return {
    pid,
    commit: async () => {
      commit();
      await writing;
    },
  };
}

/**
 * Another admin's settings change (required approvals 1) holding the team's row, not yet committed: `commit`
 * commits it, `pid` is its backend (what a door reading the rule waits for).
 */
export const reviewsTurningOn = (db: Db, teamId: string) =>
  holding(db, (tx) => tx.$executeRaw`UPDATE teams SET required_approvals = 1 WHERE id = ${teamId}::uuid`);

/** Whether a backend waits for the backend `pid` (the settings change of reviewsTurningOn, or a test's held transaction): one waiting on anything else does not count. */
export async function someoneWaits(db: Db, pid: number): Promise<boolean> {
  const [row] = await db.$queryRaw<{ waiting: number }[]>`
    SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE ${pid}::int = ANY(pg_blocking_pids(pid))`;
  return row!.waiting > 0;
}

/**
 * Runs `change` while reviews are turning on (reviewsTurningOn); commits the settings change once a backend waits
 * for it (or the change has settled: then nothing waited), and gives the change's answer, or its
 * refusal as a client sees it.
 */
export async function whileReviewsTurnOn(db: Db, teamId: string, change: () => Promise<unknown>) {
  const { commit, pid } = await reviewsTurningOn(db, teamId);
  let settled = false;
  const outcome = change().then(
    (answer: unknown) => answer,
    (error: unknown) => failure(Promise.reject(error)),
  );
  void outcome.finally(() => (settled = true));
  await vi.waitFor(async () => expect(settled || (await someoneWaits(db, pid))).toBe(true), { timeout: 20_000, interval: 20 });
  await commit();
  return outcome;
}
