// argon2id holds 19 MiB per computation: a burst of password checks runs at most one per core (up to
// libuv's four threads) and queues the rest, and every one of them still gets its answer.
import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { hashPassword, passwordChecks, verifyPassword } from "./auth.ts";

describe("password checks", () => {
  it("run at most one per core at once; the others wait and are answered", async () => {
    const stored = await hashPassword("correct horse battery staple");
    let mostAtOnce = 0;
    const watch = setInterval(() => (mostAtOnce = Math.max(mostAtOnce, passwordChecks.activeCount)), 1);
    try {
      const burst = Array.from({ length: 8 }, (_, i) => verifyPassword(stored, i % 2 ? "wrong" : "correct horse battery staple"));
      expect(passwordChecks.pendingCount).toBe(8 - Math.min(availableParallelism(), 4));
      expect(await Promise.all(burst)).toEqual([true, false, true, false, true, false, true, false]);
    } finally {
      clearInterval(watch);
    }
    expect(mostAtOnce).toBe(Math.min(availableParallelism(), 4));
    expect(passwordChecks.activeCount + passwordChecks.pendingCount).toBe(0);
  });
});
