// pg-boss keeps each queue in a partition of its job table: creating one attaches a partition, and
// processes (or subsystems of one process) creating queues at the same moment can deadlock one another.
import type PgBoss from "pg-boss";

/**
 * Makes sure the queue exists: created when missing, tried again after a short random wait when a
 * concurrent creation deadlocked or raced it, until it exists (the fifth failure is thrown).
 */
export async function ensureQueue(boss: PgBoss, name: string, options: Omit<PgBoss.Queue, "name">): Promise<void> {
  for (let attempt = 1; !(await boss.getQueue(name)); attempt++) {
    try {
      await boss.createQueue(name, { ...options, name });
    } catch (error) {
      if (attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 200 * attempt));
    }
  }
}
