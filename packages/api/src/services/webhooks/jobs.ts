// The webhooks' jobs on pg-boss (schema `pgboss`, queue `webhooks`): one job per attempt of a
// delivery, inserted in the transaction that writes the delivery (the event's own transaction, or the
// worker's after a failed attempt), so a committed delivery always has its job and a rolled-back one none.
import PgBoss from "pg-boss";
import type { DbOrTx } from "@promptly/db";

export const WEBHOOK_QUEUE = "webhooks";
export const PGBOSS_SCHEMA = "pgboss";
/** Heard by the workers on commit: a delivery is due now (pg-boss's polling is the fallback). */
export const WEBHOOK_CHANNEL = "promptly_webhooks";

export interface DeliveryJob {
  deliveryId: string;
}

/** pg-boss's statements on a Prisma transaction. */
const onTransaction = (tx: DbOrTx): PgBoss.Db => ({
  async executeSql(text, values) {
    return { rows: await tx.$queryRawUnsafe<unknown[]>(text, ...values) };
  },
});

// Only pg-boss's insert statement is used from this instance (with the caller's transaction): it never starts or connects.
const inserter = new PgBoss({
  schema: PGBOSS_SCHEMA,
  db: { executeSql: () => Promise.reject(new Error("webhook jobs are inserted on a transaction")) },
});

/**
 * Queues an attempt of each delivery in `tx`, due at `startAfter` (now by default). False when the
 * queue does not exist yet in this database (no worker ever started here): the deliveries stay
 * pending and the first worker's sweep queues them.
 */
export async function queueDeliveryJobs(tx: DbOrTx, deliveryIds: readonly string[], startAfter?: Date): Promise<boolean> {
  if (!deliveryIds.length) return true;
  // A missing table would abort the caller's transaction: asked first.
  const [{ ready } = { ready: false }] = await tx.$queryRaw<{ ready: boolean }[]>`
    SELECT to_regclass('pgboss.queue') IS NOT NULL AS ready`;
  if (!ready) return false;
  const [{ exists } = { exists: false }] = await tx.$queryRaw<{ exists: boolean }[]>`SELECT EXISTS (SELECT 1 FROM pgboss.queue WHERE name = ${WEBHOOK_QUEUE}) AS exists`;
  if (!exists) return false;
  await inserter.insert(
    deliveryIds.map((deliveryId) => ({ name: WEBHOOK_QUEUE, data: { deliveryId } satisfies DeliveryJob, ...(startAfter ? { startAfter } : {}) })),
    { db: onTransaction(tx) },
  );
  if (!startAfter) await tx.$executeRaw`SELECT pg_notify(${WEBHOOK_CHANNEL}, '')`;
  return true;
}
