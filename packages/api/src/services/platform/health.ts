import { z } from "zod";
import type { ApiServices } from "../types.ts";
import { outboxStats, type OutboxStats } from "./outbox.ts";

const partStatus = z.enum(["ok", "error"]);
type PartStatus = z.infer<typeof partStatus>;

export const healthReport = z.object({
  status: partStatus,
  db: partStatus,
  storage: partStatus,
  mail: partStatus,
  /** Mail waiting to be sent; null when the database cannot be read. */
  outbox: z.object({ depth: z.number(), oldestAgeSeconds: z.number(), failed: z.number() }).nullable(),
});
export type HealthReport = z.infer<typeof healthReport>;

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
