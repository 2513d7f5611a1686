// The race the review-rule tests stage: an admin turning required approvals on (a settings change holding
// the team's row, not yet committed) while another door changes what `production` serves, having read the
// old rule before. The door reads the rule again in its transaction holding the team's row, so it waits.
import { expect, vi } from "vitest";
import type { Db } from "@promptly/db";
import { failure } from "./teams-support.ts";

/** Another admin's settings change (required approvals 1) holding the team's row, not yet committed: commits it when called. */
export async function reviewsTurningOn(db: Db, teamId: string): Promise<() => Promise<void>> {
  let held!: () => void;
  const isHeld = new Promise<void>((resolve) => (held = resolve));
  let commit!: () => void;
  const committing = new Promise<void>((resolve) => (commit = resolve));
  const settings = db.$transaction(
    async (tx) => {
      await tx.$executeRaw`UPDATE teams SET required_approvals = 1 WHERE id = ${teamId}::uuid`;
      held();
      await committing;
    },
    { timeout: 30_000 },
  );
  await isHeld;
  return async () => {
    commit();
    await settings;
  };
}

/** Whether a backend of this database waits for a lock another holds. */
export async function someoneWaits(db: Db): Promise<boolean> {
  const [row] = await db.$queryRaw<{ waiting: number }[]>`
    SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND cardinality(pg_blocking_pids(pid)) > 0`;
  return row!.waiting > 0;
}

/**
 * Runs `change` while reviews are turning on (reviewsTurningOn); commits the settings change once a backend
 * waits for a lock (or the change has settled: then nothing waited), and gives the change's answer, or its
 * refusal as a client sees it.
 */
export async function whileReviewsTurnOn(db: Db, teamId: string, change: () => Promise<unknown>) {
  const commit = await reviewsTurningOn(db, teamId);
  let settled = false;
  const outcome = change().then(
    (answer: unknown) => answer,
    (error: unknown) => failure(Promise.reject(error)),
  );
  void outcome.finally(() => (settled = true));
  await vi.waitFor(async () => expect(settled || (await someoneWaits(db))).toBe(true), { timeout: 20_000, interval: 20 });
  await commit();
  return outcome;
}
