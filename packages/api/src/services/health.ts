import type { ApiServices } from "./types.ts";
import { outboxStats, type OutboxStats } from "./outbox.ts";

export type PartStatus = "ok" | "error";
export interface HealthReport {
  status: PartStatus;
  db: PartStatus;
  storage: PartStatus;
  mail: PartStatus;
  /** Mail waiting to be sent; null when the database cannot be read. */
  outbox: OutboxStats | null;
}

const TIMEOUT_MS = 3_000;

async function probe(check: () => Promise<unknown>): Promise<PartStatus> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("timeout")), TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return "ok";
  } catch {
    return "error";
  } finally {
    clearTimeout(timer);
  }
}

export async function checkHealth(services: Pick<ApiServices, "db" | "storage" | "mailer" | "now">): Promise<HealthReport> {
  let outbox: OutboxStats | null = null;
  const [db, storage, mail] = await Promise.all([
    probe(async () => {
      outbox = await outboxStats(services.db, services.now());
    }),
    probe(() => services.storage.health()),
    probe(() => services.mailer.verify()),
  ]);
  const status = db === "ok" && storage === "ok" && mail === "ok" ? "ok" : "error";
  return { status, db, storage, mail, outbox };
}
