import type { ApiServices } from "../context.ts";

export type PartStatus = "ok" | "error";
export interface HealthReport {
  status: PartStatus;
  db: PartStatus;
  storage: PartStatus;
  mail: PartStatus;
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

export async function checkHealth(services: Pick<ApiServices, "db" | "storage" | "mailer">): Promise<HealthReport> {
  const [db, storage, mail] = await Promise.all([
    probe(() => services.db.$queryRaw`SELECT 1`),
    probe(() => services.storage.health()),
    probe(() => services.mailer.verify()),
  ]);
  const status = db === "ok" && storage === "ok" && mail === "ok" ? "ok" : "error";
  return { status, db, storage, mail };
}
